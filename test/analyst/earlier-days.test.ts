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

  it('a reported symptom has each measure that rose at its service read on earlier days, one by one', () => {
    const board = boardFrom({
      brief: 'A question from an internal tool: "Uploads have been slow since this morning. Is something wrong with the uploads bucket?"',
      services: [{ name: 'uploads', kind: 's3' }, { name: 'portal', kind: 'ecs', dependsOn: ['uploads'] }],
      metrics: [
        { service: 'uploads', name: 'TotalRequestLatency', points: series(START, 120, (minute) => (minute >= 90 ? 3000 : 950)) },
        { service: 'uploads', name: 'BucketSizeBytes', points: series(START, 120, () => 5e9) },
      ],
    });
    const diagnosis = diagnose(board);
    expect(diagnosis.incident).toBe(true);
    const asked = nextCalls(board, diagnosis, tools).filter((call) => call.arguments.compareDaysBefore !== undefined);
    expect(asked).toEqual([{ name: 'get_metrics', arguments: expect.objectContaining({ service: 'uploads', name: 'TotalRequestLatency', compareDaysBefore: 7 }) }]);
  });

  describe('an incident made of metric shifts alone', () => {
    /** A worker that runs hot and slow every morning at minute 90, with a few stray errors late in every such morning. */
    const busy = (minute: number) => (minute >= 90 ? 10 : 2);
    const slow = (minute: number) => (minute >= 90 ? 600 : 200);
    const strayErrors = (minute: number) => (minute >= 105 ? (minute % 10 === 0 ? 2 : 1) : 0);
    const fiveMinutely = (start: string, valueAt: (minute: number) => number) => series(start, 120, valueAt).filter((_, minute) => minute % 5 === 0);
    const quiet = (minute: number) => minute % 2;
    const metrics = (start: string, shape: 'morning' | 'quiet' = 'morning') => [
      { service: 'worker', name: 'ConcurrentExecutions', points: fiveMinutely(start, shape === 'morning' ? busy : (minute) => busy(0) + quiet(minute)) },
      { service: 'worker', name: 'Duration', points: fiveMinutely(start, shape === 'morning' ? slow : (minute) => slow(0) + quiet(minute)) },
      { service: 'worker', name: 'Errors', stat: 'Sum', periodSeconds: 300, points: fiveMinutely(start, shape === 'morning' ? strayErrors : () => 0) },
    ];
    const shifted = (logLevel: string) =>
      boardFrom({
        brief: 'A question from an internal tool: is the worker alright?',
        services: [{ name: 'worker', kind: 'lambda' }, { name: 'api', kind: 'ecs', dependsOn: ['worker'] }],
        metrics: metrics(START),
        logs: [{ service: 'worker', timestamp: at(START, 101), level: logLevel, message: 'batch of 10 lines posted in 613 ms' }],
      });
    const withEarlierMornings = (board: ReturnType<typeof shifted>, shape: 'morning' | 'quiet' = 'morning') => {
      const days = [1, 2].map((daysBefore) => metrics(at(START, -daysBefore * DAY_MINUTES), shape));
      recordResult(board, 'get_metrics', 'E9', {
        available: true,
        series: metrics(START).map((item, index) => ({ ...item, earlierDays: days.map((day, before) => ({ daysBefore: before + 1, stats: { min: 0, max: 600, count: day[index]!.points.length }, points: day[index]!.points })) })),
      });
      return board;
    };

    it('makes the analyst read the services that shifted on earlier days', () => {
      const board = shifted('INFO');
      const diagnosis = diagnose(board);
      expect(diagnosis.incident).toBe(true);
      const asked = nextCalls(board, diagnosis, tools).filter((call) => call.name === 'get_metrics');
      expect(asked).toContainEqual({ name: 'get_metrics', arguments: expect.objectContaining({ service: 'worker', compareDaysBefore: 7 }) });
    });

    it('is not compared when a log states a failure: a stated failure is no schedule\'s shape', () => {
      const board = shifted('ERROR');
      const diagnosis = diagnose(board);
      expect(diagnosis.incident).toBe(true);
      expect(nextCalls(board, diagnosis, tools).filter((call) => call.arguments.compareDaysBefore !== undefined)).toEqual([]);
    });

    it('is a recurring job when every shift, and the stray errors with it, came the same way on earlier mornings', () => {
      expect(diagnose(withEarlierMornings(shifted('INFO'))).draft.incident).toBe(false);
      expect(diagnose(withEarlierMornings(shifted('INFO'), 'quiet')).draft.incident).toBe(true);
    });
  });
});
