/** How a CloudWatch alarm compares its metric with its threshold. */
export type Comparison = 'gt' | 'ge' | 'lt' | 'le';

/** CloudWatch's own words in a state reason (`... were greater than or equal to the threshold (25.0)`), longest first. */
const COMPARISONS: readonly [string, Comparison][] = [
  ['greater than or equal to', 'ge'],
  ['greater than', 'gt'],
  ['less than or equal to', 'le'],
  ['less than', 'lt'],
];

/** The comparison a state reason states; an OK reason ("was not greater than") states the same comparison. */
export const comparisonStatedIn = (reason: string | undefined): Comparison | undefined => {
  const text = reason?.replace(/was not|were not/g, '') ?? '';
  return COMPARISONS.find(([words]) => text.includes(words))?.[1];
};

/** The threshold a state reason states. */
export const thresholdStatedIn = (reason: string | undefined): number | undefined => {
  const stated = /the threshold \((-?[\d.]+(?:[eE][-+]?\d+)?)\)/.exec(reason ?? '')?.[1];
  return stated === undefined || !Number.isFinite(Number(stated)) ? undefined : Number(stated);
};

export const breaches = (value: number, threshold: number, comparison: Comparison): boolean =>
  comparison === 'gt' ? value > threshold : comparison === 'ge' ? value >= threshold : comparison === 'lt' ? value < threshold : value <= threshold;
