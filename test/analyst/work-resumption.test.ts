import { describe, expect, it } from 'vitest';
import { inferCause } from '../../lib/analyst/infer-cause.ts';
import { workResumption } from '../../lib/analyst/work-resumption.ts';
import { at, boardFrom, series } from './board-builder.ts';

const NIGHT = '2026-04-12T02:00:00.000Z';
const DAY = 24 * 60;

/** A scheduler that fires a job at 02:00 every night; the job runs four minutes and is quiet the rest of the day. */
const nightly = (nights: number, failsOnLast: boolean, change: { minutesAfterFirstRun: number; kind: string; summary: string }) =>
  boardFrom({
    brief: 'Did the nightly export run?',
    services: [
      { name: 'export-schedule', kind: 'other', dependsOn: ['export-job'] },
      { name: 'export-job', kind: 'lambda' },
    ],
    changes: [{ service: 'export-schedule', timestamp: at(NIGHT, change.minutesAfterFirstRun), kind: change.kind, summary: change.summary }],
    metrics: [
      { service: 'export-schedule', name: 'InvocationAttemptCount', periodSeconds: 300, points: Array.from({ length: nights }, (_, night): [string, number] => [at(NIGHT, night * DAY), 1]) },
      { service: 'export-schedule', name: 'TargetErrorCount', periodSeconds: 300, points: failsOnLast ? [[at(NIGHT, (nights - 1) * DAY), 2], [at(NIGHT, (nights - 1) * DAY + 5), 1], [at(NIGHT, (nights - 1) * DAY + 15), 1]] : [] },
      { service: 'export-job', name: 'Invocations', periodSeconds: 300, points: Array.from({ length: failsOnLast ? nights - 1 : nights }, (_, night): [string, number] => [at(NIGHT, night * DAY), 1]) },
    ],
  });

const roleChange = { kind: 'iam', summary: 'PutRolePolicy role scheduler-invoke: lambda:InvokeFunction scoped to alias live' };

describe('a change made while the work it affects was idle', () => {
  it('shows when that work next runs', () => {
    const board = nightly(3, true, { minutesAfterFirstRun: DAY + 13 * 60, ...roleChange });
    expect(workResumption(board)(board.changes[0]!)).toBe(Date.parse(at(NIGHT, 2 * DAY)));
  });

  it('explains the failure of that next run, hours after it was made', () => {
    const cause = inferCause(nightly(3, true, { minutesAfterFirstRun: DAY + 13 * 60, ...roleChange }));
    expect(cause).toMatchObject({ verdict: 'incident', root: 'export-schedule', suspectChange: { kind: 'iam' } });
    expect(cause.verdict === 'incident' && cause.principles).toContain('change-shows-when-work-resumes');
  });

  it('does not explain a failure after a run that went well since', () => {
    const cause = inferCause(nightly(3, true, { minutesAfterFirstRun: 13 * 60, ...roleChange }));
    expect(cause.verdict === 'incident' && cause.suspectChange).toBeFalsy();
  });

  it('keeps its own time while the work goes on, or when the metrics do not reach back to it', () => {
    const busy = boardFrom({
      services: [{ name: 'orders-api', kind: 'ecs' }],
      changes: [{ service: 'orders-api', timestamp: at(NIGHT, 30), kind: 'deploy', summary: 'orders-api 2.4.0' }],
      metrics: [{ service: 'orders-api', name: 'RequestCount', periodSeconds: 60, points: series(NIGHT, 240, () => 120) }],
    });
    expect(workResumption(busy)(busy.changes[0]!)).toBe(Date.parse(at(NIGHT, 30)));
    const later = boardFrom({
      services: [{ name: 'orders-api', kind: 'ecs' }],
      changes: [{ service: 'orders-api', timestamp: at(NIGHT, 30), kind: 'deploy', summary: 'orders-api 2.4.0' }],
      metrics: [{ service: 'orders-api', name: 'RequestCount', periodSeconds: 60, points: series(at(NIGHT, 200), 40, () => 120) }],
    });
    expect(workResumption(later)(later.changes[0]!)).toBe(Date.parse(at(NIGHT, 30)));
  });
});
