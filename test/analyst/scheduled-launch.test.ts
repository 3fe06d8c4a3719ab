import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series, step } from './board-builder.ts';

const START = '2026-04-02T01:00:00.000Z';

/**
 * A nightly export's task started at minute 60 (02:00 UTC) and loads the database its API shares;
 * its schedule was created the day before, with `timezone` or none.
 */
const exportRan = (scheduleWritten: boolean, timezone?: string) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "portal-latency" is in ALARM',
      services: [
        { name: 'portal', kind: 'ecs', dependsOn: ['members-api'] },
        { name: 'members-api', kind: 'ecs', dependsOn: ['members-db'] },
        { name: 'members-db', kind: 'rds' },
        { name: 'nightly-export', kind: 'ecs', dependsOn: ['members-db'] },
      ],
      alarms: [{ name: 'portal-latency', service: 'portal', state: 'ALARM', since: at(START, 66) }],
      changes: [
        ...(scheduleWritten
          ? [
              {
                service: 'nightly-export',
                timestamp: '2026-04-01T05:20:00Z',
                kind: 'config',
                summary: 'CreateSchedule batch/nightly-export (moved from an EventBridge rule)',
                details: { eventName: 'CreateSchedule', requestParameters: { name: 'nightly-export', scheduleExpression: 'cron(0 2 * * ? *)', ...(timezone ? { scheduleExpressionTimezone: timezone } : {}) } },
              },
            ]
          : []),
        { service: 'nightly-export', timestamp: at(START, 60), kind: 'other', summary: 'RunTask nightly-export:12 on cluster batch (1 task, FARGATE)' },
      ],
      logs: [63, 67, 71, 75, 79].map((minute) => ({ service: 'members-api', timestamp: at(START, minute), level: 'ERROR', message: 'GET /members/search 500: SQL query timed out after 30000ms (postgres)' })),
      metrics: [
        { service: 'members-db', name: 'CPUUtilization', points: series(START, 105, step(61, 25, 96)) },
        { service: 'members-api', name: 'DbQueryLatencyP95', points: series(START, 105, step(62, 18, 1700)) },
        { service: 'portal', name: 'TargetResponseTime', points: series(START, 105, step(62, 0.3, 2.6)) },
      ],
    }),
  );

describe('work a schedule launched ran when that schedule said', () => {
  it('a schedule written since its last run, with no time zone set, is why the work ran into the others\' busy hour', () => {
    const diagnosis = exportRan(true);
    expect(diagnosis.root).toBe('nightly-export');
    expect(diagnosis.suspectChange?.summary).toContain('CreateSchedule');
    expect(diagnosis.draft.rootCause.summary).toMatch(/no time zone set, so it runs in UTC/);
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'revert-config', target: 'nightly-export' });
  });

  it('a schedule that fires at another hour did not launch this run: the launch itself is the change', () => {
    const diagnosis = exportRan(true, 'Australia/Sydney');
    expect(diagnosis.root).toBe('nightly-export');
    expect(diagnosis.suspectChange?.summary).toContain('RunTask');
  });
});
