import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series, type SyntheticEvidence } from './board-builder.ts';

const START = '2026-06-02T08:00:00.000Z';
const POLICY_ALARM = 'TargetTracking-service/prod/render-worker-AlarmHigh-4f1c2a9e';

/** A sweep that finds a worker's target-tracking scale-out alarm in ALARM since minute 40, the worker busier but failing nothing. */
const sweep = (extra: Partial<SyntheticEvidence> = {}) =>
  boardFrom({
    services: [{ name: 'render-worker', kind: 'ecs' }],
    alarms: [{ name: POLICY_ALARM, service: 'render-worker', state: 'ALARM', since: at(START, 40) }],
    ...extra,
    metrics: [
      { service: 'render-worker', name: 'CPUUtilization', points: series(START, 90, (minute) => (minute < 38 ? 35 : 72) + (minute % 3)) },
      ...(extra.metrics ?? []),
    ],
  });

describe("a target-tracking policy's own scale-out alarm", () => {
  it('is the policy at work when the service scaled out after it fired', () => {
    const diagnosis = diagnose(sweep({ changes: [{ service: 'render-worker', timestamp: at(START, 41), kind: 'scaling', summary: 'Application Auto Scaling: Setting desired count to 9.' }] }));
    expect(diagnosis.incident).toBe(false);
    expect(diagnosis.principles).toContain('scaling-policy-at-work');
  });

  it('is the policy at work when the copies running rose after it fired', () => {
    const running = { service: 'render-worker', name: 'RunningTaskCount', points: series(START, 90, (minute) => (minute < 45 ? 3 : 8)) };
    expect(diagnose(sweep({ metrics: [running] })).incident).toBe(false);
  });

  it('is unexplained when nothing scaled out after it', () => {
    const running = { service: 'render-worker', name: 'RunningTaskCount', points: series(START, 90, () => 3) };
    const before = [{ service: 'render-worker', timestamp: at(START, 20), kind: 'scaling', summary: 'Application Auto Scaling: Setting desired count to 3.' }];
    expect(diagnose(sweep({ metrics: [running], changes: before })).incident).toBe(true);
  });

  it('is unexplained when the activity after it set a lower count than the one before', () => {
    const scaledIn = [
      { service: 'render-worker', timestamp: at(START, 20), kind: 'scaling', summary: 'Application Auto Scaling: Setting desired count to 6.' },
      { service: 'render-worker', timestamp: at(START, 41), kind: 'scaling', summary: 'Application Auto Scaling: Setting desired count to 2.' },
    ];
    expect(diagnose(sweep({ changes: scaledIn })).incident).toBe(true);
  });

  it('is read only for the alarm a target-tracking policy names as its own', () => {
    const scaled = [{ service: 'render-worker', timestamp: at(START, 41), kind: 'scaling', summary: 'Application Auto Scaling: Setting desired count to 9.' }];
    const board = sweep({ changes: scaled, alarms: [{ name: 'render-worker-cpu-high', service: 'render-worker', state: 'ALARM', since: at(START, 40) }] });
    expect(diagnose(board).incident).toBe(true);
  });
});
