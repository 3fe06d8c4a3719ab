/**
 * Optimal partition of a series into segments of constant mean, by PELT (Killick, Fearnhead & Eckley,
 * 2012): minimise the squared error around each segment's mean plus a penalty per extra segment. Finding
 * every change at once, rather than splitting one at a time, also catches an excursion that returns to
 * its starting level, which no single split can separate.
 */

/**
 * Start indices of the segments (the first is always 0). `penalty` is in the squared units of `values`,
 * so standardise the values first for a scale-free penalty. Every segment has at least `minLength` values.
 */
export function segmentByMean(values: readonly number[], penalty: number, minLength: number): number[] {
  const n = values.length;
  if (n < 2 * minLength) return [0];
  const sums = new Float64Array(n + 1);
  const squares = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    sums[i + 1] = sums[i]! + values[i]!;
    squares[i + 1] = squares[i]! + values[i]! * values[i]!;
  }
  const cost = (from: number, to: number): number => {
    const sum = sums[to]! - sums[from]!;
    return Math.max(0, squares[to]! - squares[from]! - (sum * sum) / (to - from));
  };

  // best[end]: the lowest penalised cost of values[0, end); previousStart[end]: where its last segment starts.
  const best = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const previousStart = new Int32Array(n + 1);
  best[0] = -penalty;
  // With a minimum length, a start that cannot win at `end` may still win for ends closer than
  // `minLength`, so a pruned start is dropped only once those ends are past.
  const droppedFrom = new Int32Array(n + 1).fill(n + 1);
  let candidates: number[] = [0];
  for (let end = minLength; end <= n; end++) {
    const newest = end - minLength;
    if (newest >= minLength) candidates.push(newest);
    candidates = candidates.filter((start) => droppedFrom[start]! > end);
    for (const start of candidates) {
      const total = best[start]! + cost(start, end) + penalty;
      if (total < best[end]!) {
        best[end] = total;
        previousStart[end] = start;
      }
    }
    for (const start of candidates) {
      if (droppedFrom[start] === n + 1 && best[start]! + cost(start, end) > best[end]!) droppedFrom[start] = end + minLength;
    }
  }

  const starts: number[] = [];
  for (let end = n; end > 0; end = previousStart[end]!) starts.push(previousStart[end]!);
  return starts.reverse();
}
