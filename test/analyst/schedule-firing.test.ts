import { describe, expect, it } from 'vitest';
import type { Change } from '../../lib/analyst/evidence-board.ts';
import { suspectChangeFor } from '../../lib/analyst/explaining-change.ts';
import { nextFiringAfter } from '../../lib/analyst/schedule-expression.ts';

const scheduleChange = (timestamp: string, expression: string, timezone?: string, nested = false): Change => {
  const requestParameters = { name: 'nightly-sync', scheduleExpression: expression, ...(timezone ? { scheduleExpressionTimezone: timezone } : {}) };
  return {
    service: 'nightly-sync',
    kind: 'config',
    summary: 'terraform apply: 3 schedules updated in place',
    timestamp,
    at: Date.parse(timestamp),
    ref: 'E3',
    details: nested ? { cloudTrail: { eventName: 'UpdateSchedule', requestParameters } } : { eventName: 'UpdateSchedule', requestParameters },
  };
};

const iso = (at: number | undefined) => (at === undefined ? undefined : new Date(at).toISOString());

describe('a schedule a change wrote shows when it next fires', () => {
  it('reads the hour in the time zone the request names, daylight saving included', () => {
    expect(iso(nextFiringAfter(scheduleChange('2026-09-03T11:40:00Z', 'cron(30 3 * * ? *)', 'America/Chicago')))).toBe('2026-09-04T08:30:00.000Z');
    expect(iso(nextFiringAfter(scheduleChange('2026-02-03T11:40:00Z', 'cron(30 3 * * ? *)', 'America/Chicago')))).toBe('2026-02-04T09:30:00.000Z');
  });

  it('fires in UTC when the request names no time zone', () => {
    expect(iso(nextFiringAfter(scheduleChange('2026-09-03T11:40:00Z', 'cron(30 3 * * ? *)')))).toBe('2026-09-04T03:30:00.000Z');
  });

  it('skips the days its day-of-week field leaves out', () => {
    // A Friday at 10:12 in New York: the next weekday 09:30 there is Monday's.
    expect(iso(nextFiringAfter(scheduleChange('2026-01-16T15:12:40Z', 'cron(30 9 ? * MON-FRI *)', 'America/New_York')))).toBe('2026-01-19T14:30:00.000Z');
  });

  it('reads the request from the CloudTrail event a change carries beside its own account', () => {
    expect(iso(nextFiringAfter(scheduleChange('2026-09-03T11:40:00Z', 'cron(30 3 * * ? *)', 'Europe/Berlin', true)))).toBe('2026-09-04T01:30:00.000Z');
  });

  it('says nothing for a zone the runtime does not know or an expression without a fixed time', () => {
    expect(nextFiringAfter(scheduleChange('2026-09-03T11:40:00Z', 'cron(30 3 * * ? *)', 'Atlantis/Harbour'))).toBeUndefined();
    expect(nextFiringAfter(scheduleChange('2026-09-03T11:40:00Z', 'rate(5 minutes)'))).toBeUndefined();
  });

  it('a schedule changed the day before is the suspect for trouble that began when it next fired, and not for trouble at another hour', () => {
    const change = scheduleChange('2026-09-03T11:40:00Z', 'cron(30 3 * * ? *)', 'America/Chicago');
    expect(suspectChangeFor([change], new Set(['nightly-sync']), Date.parse('2026-09-04T08:34:00Z'))).toBe(change);
    expect(suspectChangeFor([change], new Set(['nightly-sync']), Date.parse('2026-09-04T13:34:00Z'))).toBeUndefined();
  });
});
