import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { recordResult } from '../../lib/analyst/evidence-board.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

/** Error messages of every sort: some name a mechanism, most are opaque. */
const errorMessage = fc.oneof(
  fc.constantFrom(
    'request failed',
    'unhandled exception in handler',
    'upstream returned 500',
    'SSL routines: certificate has expired',
    'Task timed out after 30.00 seconds',
    'job 7 aborted',
  ),
  fc.string({ minLength: 3, maxLength: 40 }).map((text) => `failure: ${text}`),
);

/** Changes that are ordinary work, never an announcement that explains an alarm away. */
const ordinaryChange = fc.record({
  kind: fc.constantFrom('deploy', 'config', 'scaling', 'feature-flag'),
  summary: fc.constantFrom('v1.2.3 rolled out', 'timeout raised to 5s', 'desired count 4 -> 6', 'flag new-cart on'),
  minute: fc.integer({ min: 0, max: 110 }),
});

/** "HH:MM" UTC of `minutes` after START. */
const clock = (minutes: number): string => at(START, minutes).slice(11, 16);
const DAY_MINUTES = 24 * 60;

/**
 * Excuses that almost fit and must not explain the alarm: an announcement whose stated window ended
 * before the onset, or that is against another service; an OK from before the alarm fired again; a
 * retirement of another resource; earlier days on which the alarm's measure grew steadily the same way.
 */
const nearMissExcuse = fc.constantFrom('none', 'window-before-onset', 'announced-for-another-service', 'ok-before-alarm', 'another-resource-retired', 'steady-trend-on-earlier-days');
type NearMiss = typeof nearMissExcuse extends fc.Arbitrary<infer T> ? T : never;

const nearMissChanges = (nearMiss: NearMiss, onsetMinute: number) => {
  switch (nearMiss) {
    case 'window-before-onset':
      return [{ service: 'worker', timestamp: at(START, onsetMinute - 30), kind: 'other', summary: `Scheduled maintenance of worker ${clock(onsetMinute - 25)}-${clock(onsetMinute - 10)} UTC` }];
    case 'announced-for-another-service':
      return [{ service: 'worker', timestamp: at(START, onsetMinute - 30), kind: 'other', summary: `Load test against search-api ${clock(onsetMinute - 20)}-${clock(onsetMinute + 60)} UTC` }];
    case 'another-resource-retired':
      return [{ service: 'worker', timestamp: at(START, onsetMinute - 30), kind: 'infrastructure', summary: 'legacy-reports decommissioned; its jobs now run on worker' }];
    default:
      return [];
  }
};

/** The same window on earlier days for a storage measure that only ever grows: it rose "at the same time" every day. */
const growingEveryDay = (end: number) => {
  const usedAt = (minute: number) => 40 + (minute + 7 * DAY_MINUTES) * (6 / DAY_MINUTES);
  const points = (daysBefore: number): [string, number][] => Array.from({ length: end / 5 + 1 }, (_, index) => [at(START, index * 5 - daysBefore * DAY_MINUTES), usedAt(index * 5 - daysBefore * DAY_MINUTES)]);
  return {
    service: 'worker',
    name: 'DiskUsedPercent',
    points: points(0),
    earlierDays: [1, 2, 3].map((daysBefore) => ({ daysBefore, stats: { min: usedAt(-daysBefore * DAY_MINUTES), max: usedAt(end - daysBefore * DAY_MINUTES), count: end / 5 + 1 }, points: points(daysBefore) })),
  };
};

describe('a healthy verdict needs positive evidence', () => {
  it('an alarm in ALARM at now, with ERROR lines at its service after the onset and nothing benign to explain it (at most an excuse that almost fits), is an incident', () => {
    fc.assert(
      fc.property(
        fc.record({
          onsetMinute: fc.integer({ min: 5, max: 100 }),
          errors: fc.array(fc.record({ message: errorMessage, offset: fc.integer({ min: 0, max: 19 }), level: fc.constantFrom('ERROR', 'FATAL', 'error', 'CRITICAL') }), { minLength: 1, maxLength: 12 }),
          infoLines: fc.integer({ min: 0, max: 30 }),
          withMetric: fc.boolean(),
          changes: fc.array(ordinaryChange, { maxLength: 3 }),
          withCaller: fc.boolean(),
          nearMiss: nearMissExcuse,
        }),
        ({ onsetMinute, errors, infoLines, withMetric, changes, withCaller, nearMiss }) => {
          const onset = at(START, onsetMinute);
          const end = 120;
          const board = boardFrom({
            brief: nearMiss === 'ok-before-alarm' ? `CloudWatch alarm "worker-errors" changed to ALARM from OK at ${onset}.` : 'CloudWatch alarm "worker-errors" is in ALARM',
            services: [{ name: 'worker', kind: 'ecs', dependsOn: ['store'] }, { name: 'store', kind: 'rds' }, { name: 'search-api', kind: 'ecs' }, ...(withCaller ? [{ name: 'web', kind: 'ecs', dependsOn: ['worker'] }] : [])],
            alarms:
              nearMiss === 'ok-before-alarm'
                ? [{ name: 'worker-errors', service: 'worker', state: 'OK', since: at(START, onsetMinute - 5) }]
                : [{ name: 'worker-errors', service: 'worker', state: 'ALARM', since: onset, reason: 'Threshold Crossed' }],
            logs: [
              ...Array.from({ length: infoLines }, (_, index) => ({ service: 'worker', timestamp: at(START, (index * end) / Math.max(infoLines, 1)), level: 'INFO', message: `handled request ${index}` })),
              ...errors.map((error) => ({ service: 'worker', timestamp: at(onset, Math.min(error.offset, end - onsetMinute)), level: error.level, message: error.message })),
            ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
            metrics: withMetric ? [{ service: 'worker', name: 'CPUUtilization', points: series(START, end, () => 20) }] : [],
            changes: [...changes.map((change) => ({ service: 'worker', timestamp: at(START, change.minute), kind: change.kind, summary: change.summary })), ...nearMissChanges(nearMiss, onsetMinute)],
          });
          if (nearMiss === 'steady-trend-on-earlier-days') recordResult(board, 'get_metrics', 'E9', { available: true, series: [growingEveryDay(end)] });
          const diagnosis = diagnose(board);
          expect(diagnosis.draft.incident).toBe(true);
          expect(diagnosis.draft.remediation.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
