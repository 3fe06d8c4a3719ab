import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { scheduleWrittenBy } from '../../lib/analyst/schedule-expression.ts';
import type { Change } from '../../lib/analyst/evidence-board.ts';
import { at, boardFrom } from './board-builder.ts';

const START = '2026-05-04T06:00:00.000Z';

interface Shape {
  /** What the reader complains of. */
  complaint: string;
  /** Where the schedule change went: the job that writes the data, or the schedule that starts it. */
  changedAt?: 'writer' | 'starter';
  /** A release of the reader itself, just before it complained. */
  readerRelease?: boolean;
}

/** A prices API reads a table that a nightly import job writes; a schedule starts the job. */
const incident = ({ complaint, changedAt = 'starter', readerRelease = true }: Shape) =>
  boardFrom({
    brief: 'CloudWatch alarm "prices-api-errors" is in ALARM',
    services: [
      { name: 'prices-api', kind: 'lambda', dependsOn: ['prices-table'] },
      { name: 'prices-table', kind: 'dynamodb' },
      { name: 'price-import', kind: 'ecs', dependsOn: ['prices-table'] },
      { name: 'price-import-schedule', kind: 'other', dependsOn: ['price-import'] },
    ],
    alarms: [{ name: 'prices-api-errors', service: 'prices-api', state: 'ALARM', since: at(START, 62) }],
    changes: [
      {
        service: changedAt === 'starter' ? 'price-import-schedule' : 'price-import',
        timestamp: at(START, -20 * 60),
        kind: 'config',
        summary: 'UpdateSchedule price-import-nightly: add a retry policy',
        details: { eventName: 'UpdateSchedule', requestParameters: { name: 'price-import-nightly', scheduleExpression: 'cron(15 1 * * ? *)' } },
      },
      ...(readerRelease ? [{ service: 'prices-api', timestamp: at(START, 20), kind: 'deploy', summary: 'prices-api 3.1.0: new currency formatting' }] : []),
    ],
    logs: [
      ...Array.from({ length: 8 }, (_, index) => ({ service: 'prices-api', timestamp: at(START, index * 5), level: 'INFO', message: `GET /prices/${100 + index} 200 in 21 ms` })),
      ...Array.from({ length: 12 }, (_, index) => ({ service: 'prices-api', timestamp: at(START, 60 + index * 2), level: 'ERROR', message: complaint.replace('#', String(4000 + index)) })),
    ],
  });

describe('stale data is the fault of the writer that stopped refreshing it', () => {
  it('a reader that finds its data older than its limit points up the data’s way to the schedule whose change stopped the writer, not to its own release', () => {
    const diagnosis = diagnose(incident({ complaint: 'price list for sku-# is 26h old (max 25h); refusing quote' }));
    expect(diagnosis.principles).toContain('stale-data-writer');
    expect(diagnosis.root).toBe('price-import-schedule');
    expect(diagnosis.draft.rootCause.category).toBe('config');
    expect(diagnosis.draft.rootCause.summary).toMatch(/prices-api reads stale data: price-import, which price-import-schedule starts, has not refreshed it/);
    expect(diagnosis.draft.rootCause.summary).toMatch(/cron\(15 1 \* \* \? \*\) with no time zone set, so it runs in UTC: it fires once a day, at 01:15 UTC/);
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'revert-config', target: 'price-import-schedule' });
  });

  it('a change to the writer itself is where it stopped', () => {
    const diagnosis = diagnose(incident({ complaint: 'stale price data for sku-#: last updated date 2026-05-02, expected 2026-05-03', changedAt: 'writer' }));
    expect(diagnosis.root).toBe('price-import');
    expect(diagnosis.principles).toContain('stale-data-writer');
  });

  it('a reader that fails for another reason is not sent upstream: its own release explains it', () => {
    const diagnosis = diagnose(incident({ complaint: 'TypeError: cannot read properties of undefined (reading "currency") for sku-#' }));
    expect(diagnosis.principles).not.toContain('stale-data-writer');
    expect(diagnosis.root).toBe('prices-api');
  });

  it('a stale connection is a stale view of a dependency, not old data', () => {
    expect(diagnose(incident({ complaint: 'stale connection reset while reading sku-#' })).principles).not.toContain('stale-data-writer');
  });
});

describe('the schedule a change wrote, in plain words', () => {
  const change = (requestParameters: Record<string, unknown>): Change => ({ service: 's', timestamp: START, at: Date.parse(START), kind: 'config', summary: 'UpdateSchedule', ref: 'E1', details: { requestParameters } });

  it('a cron expression with a time zone fires at its hour there', () => {
    expect(scheduleWrittenBy(change({ scheduleExpression: 'cron(0 6 * * ? *)', scheduleExpressionTimezone: 'Europe/Madrid' }))).toBe('the schedule now reads cron(0 6 * * ? *) in Europe/Madrid: it fires once a day, at 06:00 Europe/Madrid');
  });

  it('without one it runs in UTC, and a rule’s ScheduleExpression is read the same way', () => {
    expect(scheduleWrittenBy(change({ ScheduleExpression: 'cron(30 22 ? * MON-FRI *)' }))).toBe('the schedule now reads cron(30 22 ? * MON-FRI *) with no time zone set, so it runs in UTC: it fires at 22:30 UTC on the days cron(30 22 ? * MON-FRI *) names');
  });

  it('a rate expression fires at its interval; a change that wrote no schedule says nothing of one', () => {
    expect(scheduleWrittenBy(change({ scheduleExpression: 'rate(6 hours)' }))).toBe('the schedule now reads rate(6 hours): it fires every 6 hours');
    expect(scheduleWrittenBy(change({ functionName: 'f' }))).toBeUndefined();
  });
});

describe('a person reporting the data a service shows out of date', () => {
  /** A morning email reads a warehouse table a nightly rollup writes; the rollup's schedule changed two days ago; nothing fails. */
  const asked = (text: string) =>
    diagnose(
      boardFrom({
        brief: `Question: ${text}\nA teammate asks: "${text}"\nThey are asking about the service morning-report.`,
        services: [
          { name: 'morning-report', kind: 'lambda', dependsOn: ['warehouse'] },
          { name: 'dashboard', kind: 'ecs', dependsOn: ['warehouse'] },
          { name: 'rollup', kind: 'lambda', dependsOn: ['warehouse'] },
          { name: 'warehouse', kind: 'other' },
        ],
        changes: [
          {
            service: 'rollup',
            timestamp: at(START, -40 * 60),
            kind: 'config',
            summary: 'EventBridge Scheduler UpdateSchedule nightly-rollup',
            details: { eventName: 'UpdateSchedule', requestParameters: { name: 'nightly-rollup', scheduleExpression: 'cron(30 2 * * ? *)' } },
          },
        ],
        // Hours since the summary table was last refreshed: back to a few each morning, until the refresh stopped coming.
        metrics: [{ service: 'warehouse', name: 'summary_freshness_hours', periodSeconds: 3600, points: Array.from({ length: 48 }, (_, index) => [at(START, (index - 47) * 60), index < 20 ? (index + 4) % 24 : index - 16] as [string, number]) }],
        logs: Array.from({ length: 10 }, (_, index) => ({ service: 'morning-report', timestamp: at(START, index * 10), level: 'INFO', message: `daily_revenue email sent to list ${index}` })),
      }),
    );

  it('is that reader’s complaint: the writer upstream whose schedule changed is where the refreshing stopped', () => {
    const diagnosis = asked("Why is the 7am revenue email showing yesterday's numbers? Finance says it had the same problem yesterday.");
    expect(diagnosis.draft.incident).toBe(true);
    expect(diagnosis.root).toBe('rollup');
    expect(diagnosis.principles).toContain('stale-data-writer');
  });

  it('a report of something else sends nobody upstream', () => {
    expect(asked('Why is the 7am revenue email failing to send since this morning?').principles).not.toContain('stale-data-writer');
  });
});
