import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, pointsBetween } from './board-builder.ts';

const START = '2026-03-31T21:00:00.000Z';
const lines = linesFrom(START);

/**
 * A batch of 1200 journals is on the queue when the evidence begins; its consumer, capped at one copy,
 * takes them at `pace` a five-minute period and is throttled all along; its throttle alarm fired at
 * minute 65. The evidence runs to minute 120.
 */
const batch = ({ pace, consumes = true }: { pace: number; consumes?: boolean }) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm journal-poster-throttles is in ALARM',
      services: [
        { name: 'payroll-orchestrator', kind: 'ecs', dependsOn: ['journal-queue'] },
        { name: 'journal-queue', kind: 'sqs' },
        { name: 'journal-poster', kind: 'lambda', dependsOn: consumes ? ['journal-queue', 'erp-api'] : ['erp-api'] },
        { name: 'erp-api', kind: 'external' },
      ],
      alarms: [{ name: 'journal-poster-throttles', service: 'journal-poster', state: 'ALARM', since: at(START, 65) }],
      metrics: [
        { service: 'journal-queue', name: 'ApproximateNumberOfMessagesVisible', periodSeconds: 300, points: pointsBetween(START, 0, 120, 5, (minute) => Math.max(0, 1200 - (minute / 5) * pace)) },
        { service: 'journal-poster', name: 'Throttles', stat: 'Sum', periodSeconds: 300, points: pointsBetween(START, 0, 120, 5, () => 50) },
        { service: 'journal-poster', name: 'Errors', stat: 'Sum', periodSeconds: 300, points: pointsBetween(START, 0, 120, 5, () => 0) },
      ],
      logs: lines('journal-poster', 61, 2, 29, 'INFO', (index) => `posted journal JE-${4000 + index} to erp-api in 1.1s`),
    }),
  ).draft.incident;

describe('an alarm on the throttling of a consumer while the queue it takes work from drains', () => {
  it('watches its limit pacing the work: no incident', () => {
    expect(batch({ pace: 40 })).toBe(false);
  });

  it('is an incident when the backlog does not drain, or when the throttled service takes no work from it', () => {
    expect(batch({ pace: 0 }), 'stuck').toBe(true);
    expect(batch({ pace: 40, consumes: false }), 'consumes nothing').toBe(true);
  });
});
