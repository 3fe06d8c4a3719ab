import { describe, expect, it } from 'vitest';
import { recordResult } from '../../lib/analyst/evidence-board.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { changeBeforeFirstFailure } from '../../lib/analyst/first-failure.ts';
import { inferCause } from '../../lib/analyst/infer-cause.ts';
import { nextCalls } from '../../lib/analyst/next-tools.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-06-11T00:00:00.000Z';
const HOUR = 60;
const capacityCap = { service: 'bookings-table', kind: 'config', summary: 'UpdateTable bookings: billing mode PAY_PER_REQUEST -> PROVISIONED (WCU 300)' };

/** A table read every hour for four days; the cap is set at hour `changedAt`, throttles run from hour `throttledFrom` (and before `earlyThrottles`). */
const table = ({ changedAt = 72, throttledFrom = 88, earlyThrottles = false, otherChangeAt }: { changedAt?: number; throttledFrom?: number; earlyThrottles?: boolean; otherChangeAt?: number }) =>
  boardFrom({
    brief: 'CloudWatch alarm bookings-write-throttles is in ALARM',
    services: [
      { name: 'bookings-api', kind: 'ecs', dependsOn: ['bookings-table'] },
      { name: 'bookings-table', kind: 'dynamodb' },
    ],
    alarms: [{ name: 'bookings-write-throttles', service: 'bookings-table', state: 'ALARM', since: at(START, 95 * HOUR) }],
    changes: [
      { ...capacityCap, timestamp: at(START, changedAt * HOUR) },
      ...(otherChangeAt === undefined ? [] : [{ service: 'bookings-table', kind: 'config', summary: 'UpdateTable bookings: stream view type NEW_IMAGE', timestamp: at(START, otherChangeAt * HOUR) }]),
    ],
    metrics: [
      {
        service: 'bookings-table',
        name: 'WriteThrottleEvents',
        periodSeconds: 3600,
        points: series(START, 96, (hour) => (hour >= throttledFrom || (earlyThrottles && hour === 30) ? 400 : 0)).map(([, value], hour): [string, number] => [at(START, hour * HOUR), value]),
      },
    ],
  });

describe('a change after which a resource first failed', () => {
  it('ended a clean run of a day or more, however long before the failures it came', () => {
    expect(changeBeforeFirstFailure(table({}), 'bookings-table')).toMatchObject({ summary: capacityCap.summary });
  });

  it('is not named when the failures came before it too, when another change came between, or when the run before it was short', () => {
    expect(changeBeforeFirstFailure(table({ earlyThrottles: true }), 'bookings-table')).toBeUndefined();
    expect(changeBeforeFirstFailure(table({ otherChangeAt: 80 }), 'bookings-table')).toBeUndefined();
    expect(changeBeforeFirstFailure(table({ changedAt: 12, throttledFrom: 20 }), 'bookings-table')).toBeUndefined();
  });

  it('explains the trouble and gives its category, and the summary says how it is tied in time', () => {
    const cause = inferCause(table({}));
    expect(cause).toMatchObject({ verdict: 'incident', root: 'bookings-table', category: 'config', suspectChange: { summary: capacityCap.summary } });
    expect(cause.verdict === 'incident' && cause.principles).toContain('change-ended-clean-run');
    expect(diagnose(table({})).draft.rootCause.summary).toContain('its failures, absent before it, began only after it');
  });
});

describe('a root with an older change than its metrics reach', () => {
  const tools = ['get_metrics', 'query_logs'].map((name) => ({ name, description: '', inputSchema: {} }));

  it('has its metrics read from three days before that change, and that longer reading is kept as their history', () => {
    const board = boardFrom({
      brief: 'CloudWatch alarm bookings-write-throttles is in ALARM',
      services: [{ name: 'bookings-table', kind: 'dynamodb' }],
      alarms: [{ name: 'bookings-write-throttles', service: 'bookings-table', state: 'ALARM', since: at(START, 95 * HOUR) }],
      // A change whose effect names no throttling: nothing explains the trouble yet, so the older reading is needed.
      changes: [{ service: 'bookings-table', kind: 'config', summary: 'UpdateTimeToLive bookings-table: expire items on expires_at', timestamp: at(START, 80 * HOUR) }],
      metrics: [{ service: 'bookings-table', name: 'WriteThrottleEvents', periodSeconds: 300, points: series(at(START, 92 * HOUR), 4 * HOUR, (minute) => (minute >= 60 ? 400 : 0)) }],
    });
    const planned = nextCalls(board, diagnose(board), tools).filter((call) => call.name === 'get_metrics');
    expect(planned).toContainEqual({ name: 'get_metrics', arguments: { service: 'bookings-table', sinceMinutes: (96 - 80 + 72) * HOUR - 1 } });
    // What is still wrong there is read by name too: a capped reading of all its metrics over days may leave it out.
    expect(planned).toContainEqual({ name: 'get_metrics', arguments: { service: 'bookings-table', name: 'WriteThrottleEvents', sinceMinutes: (96 - 80 + 72) * HOUR - 1 } });
    const longer = series(START, 96, () => 0).map(([, value], hour): [string, number] => [at(START, hour * HOUR), value]);
    recordResult(board, 'get_metrics', 'E9', { available: true, series: [{ service: 'bookings-table', name: 'WriteThrottleEvents', periodSeconds: 300, points: longer }] });
    expect(board.series).toHaveLength(1);
    expect(board.series[0]!.history).toEqual(longer);
  });
});
