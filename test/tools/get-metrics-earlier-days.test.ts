import { describe, expect, it } from 'vitest';
import { scenarioTools } from '../../integrations/scenario/index.ts';
import type { Environment } from '../../lib/domain/scenario.ts';
import { getMetricsContract, MAX_SERIES_POINTS } from '../../lib/tools/contracts/get-metrics.ts';
import { Toolbox } from '../../lib/tools/toolbox.ts';

const now = new Date('2026-06-04T02:30:00Z');
const HOUR = 60 * 60 * 1000;
const iso = (millis: number) => new Date(millis).toISOString().replace('.000Z', 'Z');

/** Hourly points over the last `hours` hours up to now: a nightly rise at 01:00-02:00 every day. */
const nightly = (hours: number): [string, number][] =>
  Array.from({ length: hours + 1 }, (_, index) => {
    const at = now.getTime() - (hours - index) * HOUR;
    const hour = new Date(at).getUTCHours();
    return [iso(at), hour >= 1 && hour <= 2 ? 90 : 20];
  });

/** Minute points over the last `minutes` minutes. */
const recent = (minutes: number, value: number): [string, number][] =>
  Array.from({ length: minutes + 1 }, (_, index) => [iso(now.getTime() - (minutes - index) * 60_000), value]);

const environment: Environment = {
  services: [{ name: 'warehouse-db', kind: 'rds' }],
  metrics: [
    { service: 'warehouse-db', name: 'CPUUtilization', namespace: 'AWS/RDS', stat: 'Average', periodSeconds: 3600, points: nightly(50) },
    { service: 'warehouse-db', name: 'DatabaseConnections', namespace: 'AWS/RDS', stat: 'Maximum', periodSeconds: 60, points: recent(150, 40) },
  ],
};

const getMetrics = async (args: Record<string, unknown>) => {
  const outcome = await new Toolbox(scenarioTools(environment, now)).execute({ id: 'c', name: 'get_metrics', arguments: args }, { now });
  if (!outcome.ok) throw new Error(outcome.error);
  return (outcome.data as { series: { name: string; points: [string, number][]; earlierDays?: { daysBefore: number; stats: { max: number; count: number }; points: [string, number][] }[] }[] }).series;
};

describe('get_metrics compareDaysBefore', () => {
  it('accepts 1 to 7 earlier days and rejects anything else with the field named', () => {
    expect(getMetricsContract.input.parse({ compareDaysBefore: 1 }).compareDaysBefore).toBe(1);
    expect(getMetricsContract.input.parse({ compareDaysBefore: 7 }).compareDaysBefore).toBe(7);
    expect(getMetricsContract.input.parse({}).compareDaysBefore).toBeUndefined();
    for (const wrong of [0, 8, 1.5, '2']) {
      const parsed = getMetricsContract.input.safeParse({ compareDaysBefore: wrong });
      expect(parsed.success, String(wrong)).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['compareDaysBefore']);
    }
    expect(getMetricsContract.description).toMatch(/compareDaysBefore/);
  });

  it('replays the same window on each earlier day from the recorded history, nearest day first, a day without data left out', async () => {
    const series = await getMetrics({ sinceMinutes: 120, compareDaysBefore: 3 });
    const cpu = series.find((item) => item.name === 'CPUUtilization');
    // Now is 02:30: the window 00:30-02:30 holds the nightly rise today and on each of the 2 days the 50 hours of history reach.
    expect(cpu?.points).toEqual([['2026-06-04T00:30:00Z', 20], ['2026-06-04T01:30:00Z', 90], ['2026-06-04T02:30:00Z', 90]]);
    expect(cpu?.earlierDays?.map((day) => day.daysBefore)).toEqual([1, 2]);
    expect(cpu?.earlierDays?.[0]?.points).toEqual([['2026-06-03T00:30:00Z', 20], ['2026-06-03T01:30:00Z', 90], ['2026-06-03T02:30:00Z', 90]]);
    expect(cpu?.earlierDays?.[0]?.stats).toMatchObject({ max: 90, count: 3 });
    expect(cpu?.earlierDays?.[1]?.points[0]?.[0]).toBe('2026-06-02T00:30:00Z');
    // A series recorded only over the last hours has nothing on earlier days: no earlierDays at all.
    expect(series.find((item) => item.name === 'DatabaseConnections')).not.toHaveProperty('earlierDays');
  });

  it('leaves earlierDays out unless asked, and keeps the current window as it was', async () => {
    const [plain, compared] = [await getMetrics({ sinceMinutes: 120 }), await getMetrics({ sinceMinutes: 120, compareDaysBefore: 2 })];
    for (const item of plain) expect(item).not.toHaveProperty('earlierDays');
    expect(compared.map(({ earlierDays: _, ...rest }) => rest)).toEqual(plain);
  });

  it('thins an earlier day to as many points as the current window', async () => {
    const dense: Environment = {
      metrics: [{ service: 'api', name: 'Latency', points: Array.from({ length: 3 * 24 * 60 }, (_, index) => [iso(now.getTime() - index * 60_000), index % 7] as [string, number]).reverse() }],
    };
    const outcome = await new Toolbox(scenarioTools(dense, now)).execute({ id: 'c', name: 'get_metrics', arguments: { sinceMinutes: 600, compareDaysBefore: 1 } }, { now });
    if (!outcome.ok) throw new Error(outcome.error);
    const data = outcome.data as { series: { points: unknown[]; earlierDays: { points: [string, number][]; stats: { count: number } }[] }[] };
    const [latency] = data.series;
    expect(latency?.points.length).toBeLessThanOrEqual(MAX_SERIES_POINTS + 1);
    expect(latency?.earlierDays[0]?.stats.count).toBe(601);
    expect(latency?.earlierDays[0]?.points.length).toBe(latency?.points.length);
    expect(latency?.earlierDays[0]?.points.at(-1)?.[0]).toBe('2026-06-03T02:30:00Z');
  });
});
