import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, sorted } from './board-builder.ts';

const START = '2026-09-03T10:00:00.000Z';
const lines = linesFrom(START);

/** A mailer failing on its own, beside an API whose traces show calls to its table refused while the API still answered. */
const board = (firstErrorAt?: string) =>
  boardFrom({
    brief: 'CloudWatch alarm "mailer-errors" is in ALARM',
    services: [
      { name: 'mailer', kind: 'lambda' },
      { name: 'hooks-api', kind: 'lambda', dependsOn: ['events-table'] },
      { name: 'events-table', kind: 'dynamodb' },
      { name: 'web', kind: 'ecs', dependsOn: ['hooks-api'] },
    ],
    alarms: [{ name: 'mailer-errors', service: 'mailer', state: 'ALARM', since: at(START, 50) }],
    logs: sorted([
      ...lines('mailer', 0, 5, 10, 'INFO', (index) => `sent digest batch ${index}`),
      ...lines('mailer', 45, 3, 10, 'ERROR', (index) => `digest send ${index} failed: connect ETIMEDOUT 10.0.3.7:443`),
    ]),
    traces: [
      {
        service: 'hooks-api',
        requests: 6,
        faults: 0,
        downstream: [{ service: 'events-table', calls: 6, p95Ms: 5, errors: 2, sampleError: 'ConditionalCheckFailedException: The conditional request failed', ...(firstErrorAt ? { firstErrorAt } : {}) }],
      },
    ],
  });

describe('a call that failed inside a request its caller still answered', () => {
  it('is dated by the first trace it failed in', () => {
    const draft = diagnose(board(at(START, 63))).draft;
    expect(draft.rootCause.service).toBe('mailer');
    expect(draft.rootCause.summary).toContain(`events-table (from ${at(START, 63).replace('.000Z', 'Z')}`);
  });
});
