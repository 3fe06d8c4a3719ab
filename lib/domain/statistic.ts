/**
 * A CloudWatch statistic that adds up what happened in each period (Sum, SampleCount): a period
 * still filling reads low, and coarser periods are the sums of finer ones.
 */
export const sumsPerPeriod = (stat: string | undefined): boolean => /^(sum|samplecount)$/i.test(stat ?? '');
