import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { recordResult } from '../../lib/analyst/evidence-board.ts';
import { nextCalls } from '../../lib/analyst/next-tools.ts';
import { MAX_SINCE_MINUTES } from '../../lib/tools/contracts/shared-inputs.ts';
import { at, boardFrom } from './board-builder.ts';

const NOW = '2026-03-03T03:48:00.000Z';
const tools = ['query_logs', 'get_metrics', 'list_changes', 'search_runbooks'].map((name) => ({ name, description: '', inputSchema: {} }));
const GIB = 2 ** 30;

/** An hourly series over the last `hours` hours, newest at 03:00. */
const hourly = (name: string, hours: number, valueAt: (hoursAgo: number) => number) => ({
  service: 'customs-db',
  name,
  periodSeconds: 3600,
  points: Array.from({ length: hours }, (_, index): [string, number] => [at('2026-03-03T03:00:00.000Z', -60 * (hours - 1 - index)), valueAt(hours - 1 - index)]),
});

/** Fifteen days of a volume filling with write-ahead log kept for a replication slot whose reader stopped. */
const freeStorage = (hours: number) => hourly('FreeStorageSpace', hours, (hoursAgo) => Math.max(0.5, 6 + hoursAgo * 0.95) * GIB);
const walUsage = (hours: number) => hourly('TransactionLogsDiskUsage', hours, (hoursAgo) => (350 - hoursAgo * 0.95) * GIB);

const boardWith = (hours: number) =>
  boardFrom({
    brief: 'PagerDuty event: declarations failing',
    services: [
      { name: 'declarations-api', kind: 'ecs', dependsOn: ['customs-db'] },
      { name: 'customs-db', kind: 'rds' },
    ],
    alarms: [{ name: 'customs-db-free-storage-low', service: 'customs-db', state: 'ALARM', since: at(NOW, -60 * 36) }],
    logs: [
      { service: 'customs-db', timestamp: at(NOW, -17), level: 'ERROR', message: 'could not write to file "pg_wal/xlogtemp.21877": No space left on device' },
      ...Array.from({ length: 5 }, (_, index) => ({ service: 'declarations-api', timestamp: at(NOW, -16 + index), level: 'ERROR', message: 'POST /declarations -> 503: FATAL: the database system is in recovery mode' })),
    ],
    metrics: [freeStorage(hours), walUsage(hours)],
  });

describe('metrics that came back as a few coarse points', () => {
  it('are read again over a week for a suspect, and the longer reading takes the short one’s place', () => {
    const board = boardWith(4);
    const diagnosis = diagnose(board);
    expect(diagnosis.root).toBe('customs-db');
    const reread = nextCalls(board, diagnosis, tools).filter((call) => call.name === 'get_metrics' && call.arguments.service === 'customs-db');
    expect(reread).toContainEqual({ name: 'get_metrics', arguments: { service: 'customs-db', sinceMinutes: MAX_SINCE_MINUTES } });

    recordResult(board, 'get_metrics', 'E9', { available: true, series: [freeStorage(84), walUsage(84)] });
    expect(board.series.filter((series) => series.service === 'customs-db').map((series) => series.points.length)).toEqual([84, 84]);
  });

  it('are not read again when the first reading has points enough, and a longer reading is kept beside it as history', () => {
    const board = boardWith(12);
    const diagnosis = diagnose(board);
    expect(nextCalls(board, diagnosis, tools).some((call) => call.name === 'get_metrics' && call.arguments.sinceMinutes === MAX_SINCE_MINUTES)).toBe(false);
    recordResult(board, 'get_metrics', 'E9', { available: true, series: [freeStorage(84)] });
    const free = board.series.find((series) => series.name === 'FreeStorageSpace')!;
    expect([free.points.length, free.history?.length]).toEqual([12, 84]);
  });

  it('of a caller that sends a surging root its load (a cache in front of it) are read again too', () => {
    const hourlyAt = (service: string, name: string, hours: number, value: (hoursAgo: number) => number) => ({ ...hourly(name, hours, value), service });
    const board = boardFrom({
      brief: 'CloudWatch alarm "web-cpu-high" is in ALARM',
      services: [
        { name: 'cdn', kind: 'cloudfront', dependsOn: ['web'] },
        { name: 'web', kind: 'ecs' },
      ],
      alarms: [{ name: 'web-cpu-high', service: 'web', state: 'ALARM', since: at(NOW, -30) }],
      metrics: [hourlyAt('web', 'RequestCount', 24, (hoursAgo) => (hoursAgo < 3 ? 90_000 : 6_000)), hourlyAt('cdn', 'CacheHitRate', 4, () => 7)],
    });
    const diagnosis = diagnose(board);
    expect(diagnosis.root).toBe('web');
    expect(nextCalls(board, diagnosis, tools)).toContainEqual({ name: 'get_metrics', arguments: { service: 'cdn', sinceMinutes: MAX_SINCE_MINUTES } });
  });

  it('once read long enough, show a volume filling and name what fills it, in plain words', () => {
    const board = boardWith(4);
    recordResult(board, 'get_metrics', 'E9', { available: true, series: [freeStorage(84), walUsage(84)] });
    const summary = diagnose(board).draft.rootCause.summary;
    expect(summary).toMatch(/storage volume at customs-db is filling/);
    expect(summary).toContain('taken by what grows with it (transaction logs disk usage)');
    expect(summary).not.toMatch(/taken by[^.]*free storage/);
  });
});
