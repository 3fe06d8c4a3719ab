import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { recordResult } from '../../lib/analyst/evidence-board.ts';
import { nextCalls } from '../../lib/analyst/next-tools.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-11-17T00:30:00.000Z';
const DAY_MINUTES = 24 * 60;
const tools = ['query_logs', 'list_changes', 'get_metrics', 'search_runbooks'].map((name) => ({ name, description: '', inputSchema: {} }));
/** A nightly rise at 02:00 (minute 90 of the window), the same size every night. */
const nightly = (minute: number) => (minute >= 90 && minute < 150 ? 1000 : 20);

const alarmed = (alarm: string, metric: string) =>
  boardFrom({
    brief: `CloudWatch alarm "${alarm}" changed to ALARM from OK at ${at(START, 100)}.\nMetrics:\n- m1: AWS/DynamoDB ${metric} [TableName=ledger], Sum over 300s`,
    services: [{ name: 'ledger', kind: 'dynamodb' }],
    alarms: [{ name: alarm, service: 'ledger', state: 'ALARM', since: at(START, 100) }],
    metrics: [{ service: 'ledger', name: metric, points: series(START, 120, nightly) }],
  });

/** The same window on earlier days, as get_metrics returns it with compareDaysBefore. */
const withEarlierDays = (board: ReturnType<typeof alarmed>, metric: string) => {
  const earlierDays = [1, 2].map((daysBefore) => {
    const points = series(at(START, -daysBefore * DAY_MINUTES), 120, nightly);
    return { daysBefore, stats: { min: 20, max: 1000, count: points.length }, points };
  });
  recordResult(board, 'get_metrics', 'E9', { available: true, series: [{ service: 'ledger', name: metric, points: series(START, 120, nightly), earlierDays }] });
  return board;
};

describe('the same window on earlier days', () => {
  it('an alarm that fired and that nothing explains makes the analyst read the metric it watches on earlier days', () => {
    const board = alarmed('ledger-write-throttles', 'WriteThrottleEvents');
    const asked = nextCalls(board, diagnose(board), tools).filter((call) => call.name === 'get_metrics');
    expect(asked).toEqual([{ name: 'get_metrics', arguments: expect.objectContaining({ service: 'ledger', name: 'WriteThrottleEvents', compareDaysBefore: 7 }) }]);
  });

  it('another alarm in ALARM is context, not what paged: its metrics are not compared', () => {
    const board = alarmed('ledger-write-throttles', 'WriteThrottleEvents');
    recordResult(board, 'list_alarms', 'E2', { available: true, alarms: [{ name: 'ledger-write-throttles', service: 'ledger', state: 'ALARM', since: at(START, 100) }, { name: 'api-latency', service: 'api', state: 'ALARM', since: at(START, 100) }] });
    const asked = nextCalls(board, diagnose(board), tools).filter((call) => call.name === 'get_metrics').map((call) => call.arguments.service);
    expect(asked).not.toContain('api');
  });

  it('a throttle alarm whose metric rose the same way at the same hour on earlier days is a recurring job\'s load', () => {
    const before = diagnose(alarmed('ledger-write-throttles', 'WriteThrottleEvents'));
    expect(before.draft.incident).toBe(true);
    const after = diagnose(withEarlierDays(alarmed('ledger-write-throttles', 'WriteThrottleEvents'), 'WriteThrottleEvents'));
    expect(after.draft.incident).toBe(false);
    expect(after.draft.rootCause.summary).toMatch(/recurs on a schedule: WriteThrottleEvents at ledger rose the same way at about the same time a day earlier/);
  });

  it('an alarm on failures is not excused by recurring, nor is a health alarm by demand, or by a measure of unknown meaning, that rises every day', () => {
    expect(diagnose(withEarlierDays(alarmed('ledger-write-errors', 'WriteErrors'), 'WriteErrors')).draft.incident).toBe(true);
    expect(diagnose(withEarlierDays(alarmed('ledger-latency', 'RequestCount'), 'RequestCount')).draft.incident).toBe(true);
    expect(diagnose(withEarlierDays(alarmed('ledger-disk-used', 'BytesInPerSec'), 'BytesInPerSec')).draft.incident).toBe(true);
  });
});
