/**
 * A CloudWatch statistic that adds up what happened in each period (Sum, SampleCount): a period
 * still filling reads low, and coarser periods are the sums of finer ones.
 */
export const sumsPerPeriod = (stat: string | undefined): boolean => /^(sum|samplecount)$/i.test(stat ?? '');

/**
 * One reading over a coarser period from the finer readings it covers, as CloudWatch would have read
 * it: sums added, the maximum and minimum kept, averages and percentiles averaged (a percentile of
 * the whole period is not recoverable from its parts; their mean is the closest reading).
 */
export const foldReadings = (values: readonly number[], stat: string | undefined): number => {
  if (sumsPerPeriod(stat)) return values.reduce((total, value) => total + value, 0);
  if (/^max/i.test(stat ?? '')) return Math.max(...values);
  if (/^min/i.test(stat ?? '')) return Math.min(...values);
  return values.reduce((total, value) => total + value, 0) / values.length;
};
