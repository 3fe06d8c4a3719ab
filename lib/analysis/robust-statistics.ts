/**
 * Robust location and scale. Incident data is full of spikes and level shifts that drag a mean or a
 * standard deviation; medians and absolute deviations shrug them off.
 */

/** Factors that make a MAD, or a mean absolute deviation, estimate the standard deviation of normal noise. */
const MAD_TO_SIGMA = 1.4826;
const MEAN_ABSOLUTE_DEVIATION_TO_SIGMA = 1.2533;
/** Deviations beyond this many rough sigmas are outliers. */
const TRIM_SIGMAS = 3;
/** Standard deviation of a standard normal cut off at ±TRIM_SIGMAS: sqrt(1 - 2·3·φ(3) / (2Φ(3) - 1)). */
const TRIMMED_NORMAL_SD = 0.98658;

/** Median of the values; NaN when there are none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Standard deviation that ignores outliers. The scaled MAD alone is robust but wasteful (37% efficient
 * on normal noise, so it wobbles on short series); it serves to find the outliers, and the root mean
 * square of the deviations within TRIM_SIGMAS of it, corrected for the trimmed tails, is the estimate.
 * A counter that is mostly one value (errors that are usually zero) has a MAD of 0 although it does
 * vary; its rare departures are then all the variation there is, so the scaled mean absolute deviation,
 * untrimmed, is the estimate.
 */
export function robustSigma(values: readonly number[]): number {
  const center = median(values);
  const deviations = values.map((value) => Math.abs(value - center));
  const mad = median(deviations);
  if (mad === 0) {
    const meanDeviation = deviations.reduce((sum, deviation) => sum + deviation, 0) / deviations.length;
    return MEAN_ABSOLUTE_DEVIATION_TO_SIGMA * meanDeviation;
  }
  const inliers = deviations.filter((deviation) => deviation <= TRIM_SIGMAS * MAD_TO_SIGMA * mad);
  const meanSquare = inliers.reduce((sum, deviation) => sum + deviation * deviation, 0) / inliers.length;
  return Math.sqrt(meanSquare) / TRIMMED_NORMAL_SD;
}

/**
 * Noise level of a series, from its first differences. A level shift moves a single difference and a
 * steady ramp moves all of them by the same amount, so neither inflates this estimate the way both
 * inflate the spread of the values themselves.
 */
export function differenceNoiseSigma(values: readonly number[]): number {
  const differences: number[] = [];
  for (let i = 1; i < values.length; i++) differences.push(values[i]! - values[i - 1]!);
  return robustSigma(differences) / Math.SQRT2;
}
