import { z } from 'zod';
import { defineContract } from './contract.ts';
import { serviceFilter, sinceMinutes, unavailable } from './shared-inputs.ts';

export const metricPoint = z.tuple([z.string(), z.number()]);

export const metricStats = z.object({ min: z.number(), max: z.number(), first: z.number().optional(), last: z.number().optional(), count: z.number() });

/** The same window on an earlier day: the series' points at their own (earlier) times. */
export const earlierDay = z.object({
  daysBefore: z.number().int().min(1),
  stats: metricStats,
  points: z.array(metricPoint),
});
export type EarlierDay = z.infer<typeof earlierDay>;

export const metricSeriesSummary = z.object({
  service: z.string(),
  name: z.string(),
  namespace: z.string().optional(),
  dimensions: z.record(z.string(), z.string()).optional(),
  unit: z.string().optional(),
  stat: z.string().optional(),
  periodSeconds: z.number().optional(),
  stats: metricStats.optional(),
  points: z.array(metricPoint),
  /** With compareDaysBefore: one entry per earlier day that has data in the shifted window, nearest day first. */
  earlierDays: z.array(earlierDay).optional(),
});
export type MetricSeriesSummary = z.infer<typeof metricSeriesSummary>;

/** Points per series (and per earlier day) the model reads. */
export const MAX_SERIES_POINTS = 90;

/** Keeps every k-th point so long series stay readable; the last point is always kept. Every source thins alike. */
export const downsampledPoints = <T>(points: readonly T[]): T[] => {
  if (points.length <= MAX_SERIES_POINTS) return [...points];
  const step = Math.ceil(points.length / MAX_SERIES_POINTS);
  return points.filter((_, index) => index % step === 0 || index === points.length - 1);
};

/** A window's stats and its thinned points, oldest first: what the model reads of a series or of an earlier day. */
export const summarizedPoints = (points: readonly (readonly [string, number])[]): { stats: z.infer<typeof metricStats>; points: [string, number][] } => {
  const values = points.map(([, value]) => value);
  return {
    stats: { min: Math.min(...values), max: Math.max(...values), first: values[0], last: values.at(-1), count: values.length },
    points: downsampledPoints(points.map(([timestamp, value]): [string, number] => [timestamp, value])),
  };
};

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The asked window [start, end] moved back 1..days days, nearest first. */
export const earlierWindows = (window: { start: number; end: number }, days: number): { daysBefore: number; start: number; end: number }[] =>
  Array.from({ length: days }, (_, index) => ({ daysBefore: index + 1, start: window.start - (index + 1) * DAY_MS, end: window.end - (index + 1) * DAY_MS }));

/** Most earlier days get_metrics compares with: a week covers daily and weekly rhythms. */
export const MAX_COMPARE_DAYS = 7;

export const getMetricsContract = defineContract({
  name: 'get_metrics',
  description:
    'Read metric time series (CloudWatch) for a service or by metric name, with a baseline before the onset. Returns each series with its points and min/max/first/last. Use it to date the onset and see saturation; not for error messages (use query_logs). ' +
    'To tell a usual rise from a new one ("is it like this every night at this hour?"), set compareDaysBefore to N (1-7): each series then also carries earlierDays, the same window shifted back 1..N days with its own stats and points (at their earlier times); a day with no data then is left out. A rise that shows on earlier days at the same hour, about as high, is recurring load (a nightly job, a daily peak), not a new fault.',
  input: z.object({
    service: serviceFilter,
    name: z.string().optional().describe('Only metrics whose name contains this text (case-insensitive).'),
    sinceMinutes: sinceMinutes(120),
    compareDaysBefore: z
      .number()
      .int()
      .min(1)
      .max(MAX_COMPARE_DAYS)
      .optional()
      .describe(`Also return each series over the same window 1..N days earlier (at most ${MAX_COMPARE_DAYS}), to see whether a rise recurs at this time of day.`),
  }),
  output: z.discriminatedUnion('available', [unavailable, z.object({ available: z.literal(true), series: z.array(metricSeriesSummary) })]),
});
