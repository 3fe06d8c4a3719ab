import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-11-23T04:00:00.000Z';
const lines = linesFrom(START);

/** A database's burst balance drains from minute 0 and is spent at minute 180; its client times out from minute 190. */
const drained = ({ balance = 'BurstBalance', clientChangeAt }: { balance?: string; clientChangeAt?: number }) =>
  boardFrom({
    brief: 'CloudWatch alarm quote-api-5xx is in ALARM',
    services: [
      { name: 'quote-api', kind: 'ecs', dependsOn: ['policy-db'] },
      { name: 'policy-db', kind: 'rds' },
    ],
    alarms: [{ name: 'quote-api-5xx', service: 'quote-api', state: 'ALARM', since: at(START, 195) }],
    ...(clientChangeAt === undefined ? {} : { changes: [{ service: 'quote-api', kind: 'scaling', summary: 'quote-api desired count 4 -> 6', timestamp: at(START, clientChangeAt) }] }),
    metrics: [
      { service: 'policy-db', name: balance, points: series(START, 240, (minute) => Math.max(0, 100 - minute / 1.8)) },
      { service: 'policy-db', name: 'ReadLatency', points: series(START, 240, step(180, 0.002, 0.06)) },
      { service: 'quote-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 240, step(190, 0, 40)) },
    ],
    logs: sorted([
      ...lines('quote-api', 0, 5, 48, 'INFO', (index) => `GET /v1/quotes 200 q-${index}`),
      ...lines('quote-api', 190, 2, 25, 'ERROR', (index) => `QueryTimeoutError: canceling statement due to statement timeout (policy-db) quote q-${900 + index}`),
      // The database's slow-query log names the statement the client issues: slow because the disk is, not a new load.
      ...lines('policy-db', 185, 10, 5, 'LOG', (index) => `duration: ${5000 + index * 700} ms  statement: SELECT factor FROM risk_factors WHERE breed_id = $1`),
      ...lines('quote-api', 2, 30, 7, 'DEBUG', () => 'query: SELECT factor FROM risk_factors WHERE breed_id = $1'),
    ]),
  });

describe('a resource that spent its burst credits', () => {
  it('is the root, exhausted: held to its baseline, it gets capacity', () => {
    const { draft } = diagnose(drained({}));
    expect(draft.rootCause).toMatchObject({ service: 'policy-db', category: 'resource-exhaustion' });
    expect(draft.rootCause.summary).toContain("held to the volume's baseline IOPS");
    expect(draft.remediation[0]).toMatchObject({ action: 'scale', target: 'policy-db' });
  });

  it('is not blamed on the client its slow-query log names, nor on that client\'s change after the credits began to drain; CPU credits are worded as CPU', () => {
    expect(diagnose(drained({ clientChangeAt: 150 })).draft.rootCause).toMatchObject({ service: 'policy-db', category: 'resource-exhaustion' });
    expect(diagnose(drained({ balance: 'CPUCreditBalance' })).draft.rootCause.summary).toContain('spent its CPU credits');
  });

  it('a file system in bursting mode that spent its credits is held to a baseline throughput', () => {
    expect(diagnose(drained({ balance: 'BurstCreditBalance' })).draft.rootCause.summary).toContain("its throughput is held to the file system's baseline");
  });
});
