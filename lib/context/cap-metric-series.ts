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
  const byMovement = series.map((item, index) => ({ index, movement: movement(item, window) })).sort((a, b) => a.movement - b.movement || b.index - a.index);

  const dropped = new Set<number>();
  const assemble = () => ({
    ...record,
    series: series.filter((_, index) => !dropped.has(index)),
    seriesOmitted: dropped.size,
    omittedSeries: series.filter((_, index) => dropped.has(index)).map((item) => `${String(item.service ?? '')} ${String(item.name ?? '')}`.trim()),
  });
  for (const { index } of byMovement.slice(0, -1)) {
    dropped.add(index);
    const candidate = assemble();
    if (estimateTokens(JSON.stringify(candidate)) <= capTokens) return candidate;
  }
  return undefined;
}
