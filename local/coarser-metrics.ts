import type { Scenario } from '../lib/domain/scenario.ts';
import { sumsPerPeriod } from '../lib/domain/statistic.ts';

type Series = NonNullable<Scenario['environment']['metrics']>[number];

/** Coarsening never leaves a series with fewer points than this: it stays as it was written. */
const FEWEST_POINTS_KEPT = 3;

/** One period's value from the finer points it holds, as CloudWatch would compute it for the statistic. */
const aggregate = (stat: string | undefined, values: readonly number[]): number => {
  if (sumsPerPeriod(stat)) return values.reduce((total, value) => total + value, 0);
  if (/^max/i.test(stat ?? '')) return Math.max(...values);
  if (/^min/i.test(stat ?? '')) return Math.min(...values);
  // Average exactly; a percentile approximately (the mean of the finer periods' percentiles).
  return values.reduce((total, value) => total + value, 0) / values.length;
};

const coarser = (series: Series, factor: number): Series => {
  if (Math.ceil(series.points.length / factor) < FEWEST_POINTS_KEPT) return series;
  const points: Series['points'] = [];
  for (let index = 0; index < series.points.length; index += factor) {
    const period = series.points.slice(index, index + factor);
    points.push([period[0]![0], aggregate(series.stat, period.map(([, value]) => value))]);
  }
  return { ...series, points, ...(series.periodSeconds === undefined ? {} : { periodSeconds: series.periodSeconds * factor }) };
};

/**
 * The scenario with every metric read at `factor` times its period, as a longer query or a coarser
 * dashboard returns it: each run of `factor` points becomes one, stamped at its first; sums add up,
 * Maximum and Minimum keep the extreme, other statistics average. The newest period may hold fewer
 * points, as a period still filling does. A diagnosis that holds only at the resolution its scenario
 * was written at leans on that resolution; `eval --coarsen` measures how much.
 */
export const withCoarserMetrics = (scenario: Scenario, factor: number): Scenario => {
  const metrics = scenario.environment.metrics;
  if (factor <= 1 || !metrics) return scenario;
  return { ...scenario, environment: { ...scenario.environment, metrics: metrics.map((series) => coarser(series, factor)) } };
};
