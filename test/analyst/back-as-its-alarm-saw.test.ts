import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, pointsBetween } from './board-builder.ts';

const START = '2026-04-08T00:00:00.000Z';
const lines = linesFrom(START);

/**
 * A sweep at minute 150. A function's concurrency, read every five minutes, rose at minute 120 for
 * three readings; its latest reading (minute 140, none since) is `latest`. Its latency alarm is
 * `alarm` since minute `alarmAt`.
 */
const sweep = ({ latest, alarm = 'OK', alarmAt = 137 }: { latest: number; alarm?: 'OK' | 'ALARM'; alarmAt?: number }) =>
  diagnose(
    boardFrom({
      services: [
        { name: 'storefront', kind: 'ecs', dependsOn: ['recommendations'] },
        { name: 'recommendations', kind: 'lambda' },
      ],
      alarms: [{ name: 'recommendations-latency-p99', service: 'recommendations', state: alarm, since: at(START, alarmAt) }],
      metrics: [
        {
          service: 'recommendations',
          name: 'ConcurrentExecutions',
          stat: 'Maximum',
          periodSeconds: 300,
          points: [...pointsBetween(START, 0, 120, 5, (minute) => 4 + (minute % 10 === 0 ? 1 : 0)), ...pointsBetween(START, 120, 135, 5, () => 22), [at(START, 140), latest]],
        },
      ],
      logs: lines('storefront', 0, 3, 50, 'INFO', (index) => `GET /books/${9780000000000 + index} 200 84ms`),
    }),
  ).draft.incident;

describe('a measure back at its level as its service’s alarm saw the trouble end', () => {
  it('has recovered, though a sparse series published only one reading since', () => {
    expect(sweep({ latest: 4 })).toBe(false);
  });

  it('has not while the reading is still up, or while the alarm has not seen an end', () => {
    expect(sweep({ latest: 21 })).toBe(true);
    expect(sweep({ latest: 4, alarmAt: 110 })).toBe(true);
  });
});
