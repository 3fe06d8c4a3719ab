/**
 * Partition of a series into segments of constant mean, by PELT (Killick, Fearnhead & Eckley, 2012):
 * minimise the squared error around each segment's mean plus a penalty per extra segment. Finding every
 * change at once, rather than splitting one at a time, also catches an excursion that returns to its
 * starting level, which no single split can separate.
 */
import { differenceNoiseSigma, median } from './robust-statistics.ts';

/**
 * PELT prunes little on a series with few changes and is then quadratic, so a longer series is
 * segmented on the medians of consecutive buckets and each boundary is then placed exactly.
 */
const MAX_EXACT_VALUES = 400;

/**
 * Start indices of the segments (the first is always 0). `values` should be in units of their noise
 * (standardised); a change costs `penaltyPerLog` times the log of the number of values segmented.
 * Every segment has at least `minLength` values.
 */
export function segmentByMean(values: readonly number[], penaltyPerLog: number, minLength: number): number[] {
  if (values.length <= MAX_EXACT_VALUES) {
    return optimalPartition(values, penaltyPerLog * Math.log(values.length), minLength);
  }

  const bucket = Math.ceil(values.length / MAX_EXACT_VALUES);
  const medians: number[] = [];
  for (let start = 0; start < values.length; start += bucket) medians.push(median(values.slice(start, start + bucket)));
  // A median of many values is far less noisy than one value, so the buckets are re-standardised.
  const spread = differenceNoiseSigma(medians);
  if (!(spread > 0)) return [0];
  const coarse = optimalPartition(
    medians.map((value) => value / spread),
    penaltyPerLog * Math.log(medians.length),
    1,
  );

  const cost = segmentCost(values);
  const starts = [0];
  for (let i = 1; i < coarse.length; i++) {
    const previous = starts.at(-1)!;
    const next = i + 1 < coarse.length ? coarse[i + 1]! * bucket : values.length;
    const rough = coarse[i]! * bucket;
    let best = { split: rough, error: Number.POSITIVE_INFINITY };
    const from = Math.max(previous + minLength, rough - bucket);
    const to = Math.min(next - minLength, rough + bucket);
    for (let split = from; split <= to; split++) {
      const error = cost(previous, split) + cost(split, next);
      if (error < best.error) best = { split, error };
    }
    if (best.error < Number.POSITIVE_INFINITY) starts.push(best.split);
  }
  return starts;
}

/** Squared error of values[from, to) around its mean, in constant time from prefix sums. */
function segmentCost(values: readonly number[]): (from: number, to: number) => number {
  const sums = new Float64Array(values.length + 1);
  const squares = new Float64Array(values.length + 1);
  for (let i = 0; i < values.length; i++) {
    sums[i + 1] = sums[i]! + values[i]!;
    squares[i + 1] = squares[i]! + values[i]! * values[i]!;
  }
  return (from, to) => {
    const sum = sums[to]! - sums[from]!;
    return Math.max(0, squares[to]! - squares[from]! - (sum * sum) / (to - from));
  };
}

function optimalPartition(values: readonly number[], penalty: number, minLength: number): number[] {
  const n = values.length;
  if (n < 2 * minLength) return [0];
  const cost = segmentCost(values);
  // best[end]: the lowest penalised cost of values[0, end); lastStart[end]: where its last segment starts.
  const best = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const lastStart = new Int32Array(n + 1);
  best[0] = -penalty;
  // With a minimum length, a start that cannot win at `end` may still win for ends closer than
  // `minLength`, so a pruned start is dropped only once those ends are past.
  const droppedFrom = new Int32Array(n + 1).fill(n + 1);
  const candidates: number[] = [0];
  for (let end = minLength; end <= n; end++) {
    const newest = end - minLength;
    if (newest >= minLength) candidates.push(newest);
    let kept = 0;
    for (const start of candidates) if (droppedFrom[start]! > end) candidates[kept++] = start;
    candidates.length = kept;
    for (const start of candidates) {
      const total = best[start]! + cost(start, end) + penalty;
      if (total < best[end]!) {
        best[end] = total;
        lastStart[end] = start;
      }
    }
    for (const start of candidates) {
      const hopeless = best[start]! + cost(start, end) > best[end]!;
      if (hopeless && droppedFrom[start] === n + 1) droppedFrom[start] = end + minLength;
    }
  }

  const starts: number[] = [];
  for (let end = n; end > 0; end = lastStart[end]!) starts.push(lastStart[end]!);
  return starts.reverse();
}
