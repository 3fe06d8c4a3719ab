/**
 * A metric result (`data.series` of `{service, name, points}`) over its budget keeps the series that
 * moved and drops the ones that held their level: a flat series says little, while the one that rose,
 * or that began or stopped publishing inside the window, is often the whole story. What was dropped is
 * named (`omittedSeries`), so the model can ask for it by name.
 */
import { estimateTokens } from './token-estimate.ts';

interface SeriesLike {
  service?: unknown;
  name?: unknown;
  points: [string, number][];
}

const isSeriesLike = (value: unknown): value is SeriesLike =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as { points?: unknown }).points) &&
  (value as { points: unknown[] }).points.every(
    (point) => Array.isArray(point) && typeof point[0] === 'string' && typeof point[1] === 'number',
  );

/** Share of the window a series may start late or stop early by and still count as covering it. */
const COVERAGE_SLACK = 0.1;

/**
 * How far a series moved, free of its unit: the share of its points after its first quarter (its
 * baseline) that fall outside the baseline's range widened by half its width, so a step, a trend or a
 * surge anywhere in the window counts and noise does not; starting late or stopping early inside the
 * window (a count published only while events happen, a function no longer invoked) adds one each.
 */
export function movement(series: SeriesLike, window: { start: number; end: number }): number {
  const values = series.points.map(([, value]) => value);
  if (values.length === 0) return 0;
  const baselineLength = Math.max(1, Math.floor(values.length / (values.length >= 8 ? 4 : 2)));
  const baseline = values.slice(0, baselineLength);
  const later = values.slice(baselineLength);
  const [low, high] = [Math.min(...baseline), Math.max(...baseline)];
  const margin = (high - low) / 2;
  const moved = later.length === 0 ? 0 : later.filter((value) => value < low - margin || value > high + margin).length / later.length;
  const span = window.end - window.start;
  const first = Date.parse(series.points[0]![0]);
  const last = Date.parse(series.points.at(-1)![0]);
  const startsLate = span > 0 && first - window.start > span * COVERAGE_SLACK ? 1 : 0;
  const stopsEarly = span > 0 && window.end - last > span * COVERAGE_SLACK ? 1 : 0;
  return moved + startsLate + stopsEarly;
}

export function capMetricSeriesIn(data: unknown, capTokens: number): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const record = data as Record<string, unknown>;
  const series = record.series;
  if (!Array.isArray(series) || series.length < 2 || !series.every(isSeriesLike)) return undefined;
  const times = series.flatMap((item) => (item.points.length === 0 ? [] : [Date.parse(item.points[0]![0]), Date.parse(item.points.at(-1)![0])]));
  const window = { start: Math.min(...times), end: Math.max(...times) };
  const byTelling = series
    .map((item, index) => ({ index, moved: movement(item, window), failing: failureMeasure.test(String(item.name ?? '')) }))
    .sort((a, b) => tellingness(a) - tellingness(b) || b.index - a.index);

  // The `count` least telling series dropped. Each one dropped leaves the result smaller (its name is shorter than its
  // points), so the fewest drops that fit are found by halving, with a handful of measurements.
  const assemble = (count: number) => {
    const dropped = new Set(byTelling.slice(0, count).map(({ index }) => index));
    return {
      ...record,
      series: series.filter((_, index) => !dropped.has(index)),
      seriesOmitted: dropped.size,
      omittedSeries: series.filter((_, index) => dropped.has(index)).map((item) => `${String(item.service ?? '')} ${String(item.name ?? '')}`.trim()),
    };
  };
  const fits = (count: number) => estimateTokens(JSON.stringify(assemble(count))) <= capTokens;
  let [low, high] = [1, series.length - 1];
  if (!fits(high)) return undefined;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) high = middle;
    else low = middle + 1;
  }
  return assemble(low);
}

/** A measure of failure (errors, drops, throttles, port allocation errors): once it moved, it says more than a throughput that moved. */
const failureMeasure = /error|fail|fault|drop|throttl|reject|denied|dead|dlq|5xx|timeout|kill/i;

const tellingness = ({ moved, failing }: { moved: number; failing: boolean }): number => moved + (failing && moved >= MOVED_SHARE ? FAILURE_WEIGHT : 0);
/** A failure measure moved when this share of its points left the baseline's range: not a stray event. */
const MOVED_SHARE = 0.1;
/** Enough to rank any failure measure that moved above a throughput measure that moved as much, not above one that starts or stops in the window. */
const FAILURE_WEIGHT = 0.5;
