import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-08-21T01:00:00.000Z';
const lines = linesFrom(START);

/** A sweep: the fleet's in-service alarm fired at minute 76, six minutes after a scale-in from 6 to 4 (`by` says whose). */
const board = ({ by = 'target tracking transcode-backlog-per-instance', failing = false }: { by?: string; failing?: boolean } = {}) =>
  boardFrom({
    services: [
      { name: 'transcode-fleet', kind: 'ec2', dependsOn: ['transcode-queue'] },
      { name: 'transcode-queue', kind: 'sqs' },
    ],
    alarms: [{ name: 'transcode-fleet-inservice-low', service: 'transcode-fleet', state: 'ALARM', since: at(START, 76), reason: 'Threshold Crossed: 1 out of the last 1 datapoints [4.0] was less than the threshold (5.0)' }],
    changes: [{ service: 'transcode-fleet', timestamp: at(START, 70), kind: 'scaling', summary: `Auto Scaling group transcode-fleet-prod: desired capacity 6 -> 4 (${by}), terminated i-03f8a6d2, i-0c27d94e` }],
    logs: sorted([
      ...lines('transcode-fleet', 0, 4, 30, 'INFO', (index) => `job ${index} transcoded in 41s`),
      ...(failing ? lines('transcode-fleet', 78, 2, 12, 'ERROR', (index) => `job ${900 + index} failed: worker pool exhausted, RejectedExecutionException`) : []),
    ]),
    metrics: [
      { service: 'transcode-fleet', name: 'GroupInServiceInstances', points: series(START, 120, (minute) => (minute < 71 ? 6 : 4)) },
      { service: 'transcode-queue', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, () => 3) },
    ],
  });

describe('an alarm on the count of instances in service', () => {
  it('fired as the fleet’s own scaling policy scaled it in, with nothing failing there, watches the policy at work: no incident', () => {
    const { draft, principles } = diagnose(board());
    expect(draft.incident).toBe(false);
    expect(principles).toContain('scaling-policy-at-work');
  });

  it('is not explained by a scale-in by hand, nor while the fleet fails its work', () => {
    expect(diagnose(board({ by: 'set by ops during cost review' })).draft.incident).toBe(true);
    expect(diagnose(board({ failing: true })).draft.incident).toBe(true);
  });
});
