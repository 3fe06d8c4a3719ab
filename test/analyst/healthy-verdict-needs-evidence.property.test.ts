import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
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

describe('a healthy verdict needs positive evidence', () => {
  it('an alarm in ALARM at now, with ERROR lines at its service after the onset and nothing benign to explain it, is an incident', () => {
    fc.assert(
      fc.property(
        fc.record({
          onsetMinute: fc.integer({ min: 5, max: 100 }),
          errors: fc.array(fc.record({ message: errorMessage, offset: fc.integer({ min: 0, max: 19 }), level: fc.constantFrom('ERROR', 'FATAL', 'error', 'CRITICAL') }), { minLength: 1, maxLength: 12 }),
          infoLines: fc.integer({ min: 0, max: 30 }),
          withMetric: fc.boolean(),
          changes: fc.array(ordinaryChange, { maxLength: 3 }),
          withCaller: fc.boolean(),
        }),
        ({ onsetMinute, errors, infoLines, withMetric, changes, withCaller }) => {
          const onset = at(START, onsetMinute);
          const end = 120;
          const board = boardFrom({
            brief: 'CloudWatch alarm "worker-errors" is in ALARM',
            services: [{ name: 'worker', kind: 'ecs', dependsOn: ['store'] }, { name: 'store', kind: 'rds' }, ...(withCaller ? [{ name: 'web', kind: 'ecs', dependsOn: ['worker'] }] : [])],
            alarms: [{ name: 'worker-errors', service: 'worker', state: 'ALARM', since: onset, reason: 'Threshold Crossed' }],
            logs: [
              ...Array.from({ length: infoLines }, (_, index) => ({ service: 'worker', timestamp: at(START, (index * end) / Math.max(infoLines, 1)), level: 'INFO', message: `handled request ${index}` })),
              ...errors.map((error) => ({ service: 'worker', timestamp: at(onset, Math.min(error.offset, end - onsetMinute)), level: error.level, message: error.message })),
            ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
            metrics: withMetric ? [{ service: 'worker', name: 'CPUUtilization', points: series(START, end, () => 20) }] : [],
            changes: changes.map((change) => ({ service: 'worker', timestamp: at(START, change.minute), kind: change.kind, summary: change.summary })),
          });
          const diagnosis = diagnose(board);
          expect(diagnosis.draft.incident).toBe(true);
          expect(diagnosis.draft.remediation.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
