import type { Scenario } from '../lib/domain/scenario.ts';
import { foldReadings } from '../lib/domain/statistic.ts';

type Series = NonNullable<Scenario['environment']['metrics']>[number];

/** Coarsening never leaves a series with fewer points than this: it stays as it was written. */
const FEWEST_POINTS_KEPT = 3;

/** The series' period in ms: as written, else the usual gap between its points. */
const periodOf = (series: Series): number | undefined => {
  if (series.periodSeconds !== undefined) return series.periodSeconds * 1000;
  const times = series.points.map(([timestamp]) => Date.parse(timestamp));
  const gaps = times.slice(1).map((time, index) => time - times[index]!).filter((gap) => gap > 0).sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)];
};

const coarser = (series: Series, factor: number): Series => {
  const period = periodOf(series);
  if (period === undefined) return series;
  // Periods of the clock, as CloudWatch keeps them: points days apart (a count published only while events happen) never share one.
  const span = period * factor;
  const runs = new Map<number, Series['points']>();
  for (const point of series.points) {
    const start = Math.floor(Date.parse(point[0]) / span) * span;
    runs.set(start, [...(runs.get(start) ?? []), point]);
  }
  if (runs.size < FEWEST_POINTS_KEPT) return series;
  const points = [...runs.values()].map((run): Series['points'][number] => [run[0]![0], foldReadings(run.map(([, value]) => value), series.stat)]);
  return { ...series, points, ...(series.periodSeconds === undefined ? {} : { periodSeconds: series.periodSeconds * factor }) };
};

/**
 * The scenario with every metric read at `factor` times its period, as a longer query or a coarser
 * dashboard returns it: the points in each period of the clock `factor` times as long become one,
 * stamped at the first of them; sums add up, Maximum and Minimum keep the extreme, other statistics
 * average. The newest period may hold fewer points, as a period still filling does. A diagnosis that holds only at the resolution its scenario
 * was written at leans on that resolution; `eval --coarsen` measures how much.
 */
export const withCoarserMetrics = (scenario: Scenario, factor: number): Scenario => {
  const metrics = scenario.environment.metrics;
  if (factor <= 1 || !metrics) return scenario;
  return { ...scenario, environment: { ...scenario.environment, metrics: metrics.map((series) => coarser(series, factor)) } };
};
