import { describe, expect, it } from 'vitest';
import { inferCause } from '../../lib/analyst/infer-cause.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-06-18T12:00:00.000Z';

/** A worker's own backlog metric that peaked after a bulk submission and has fallen steadily since. */
const draining = (metric: string) =>
  inferCause(
    boardFrom({
      brief: 'CloudWatch alarm render-backlog-high is in ALARM',
      services: [{ name: 'render-worker', kind: 'eks' }],
      alarms: [{ name: 'render-backlog-high', service: 'render-worker', state: 'ALARM', since: at(START, 65) }],
      metrics: [{ service: 'render-worker', name: metric, periodSeconds: 60, points: series(START, 240, (minute) => (minute < 60 ? 0 : Math.max(0, 94000 - (minute - 60) * 400))) }],
    }),
  ).verdict;

describe('a backlog named for the jobs waiting in it', () => {
  it('that has been falling steadily since its peak is being worked off', () => {
    expect(draining('WaitingJobs')).toBe('healthy');
    expect(draining('QueuedJobs')).toBe('healthy');
  });
});
