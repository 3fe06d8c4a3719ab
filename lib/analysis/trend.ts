/**
 * Is a series heading somewhere steadily? A least-squares line through the points, with how well it
 * fits (R²). Slow leaks and filling disks show no level shift, only a slope that does not let up.
 */
import type { Point } from './onset.ts';

export interface Trend {
  /** Change per hour, in the series' unit. */
  slopePerHour: number;
  /** Goodness of fit, 0..1. */
  r2: number;
  first: number;
  last: number;
  /** Epoch ms of the first and last point. */
  from: number;
  to: number;
}

const MIN_POINTS = 6;
/** Fewer than this do not make a line worth its R². */
const MIN_LINE_POINTS = 3;
const HOUR_MS = 3_600_000;

export function fitTrend(points: readonly Point[], minPoints = MIN_POINTS): Trend | undefined {
  if (points.length < Math.max(minPoints, MIN_LINE_POINTS)) return undefined;
  const sorted = [...points].sort((a, b) => a.t - b.t);
  const origin = sorted[0]!.t;
  const xs = sorted.map((point) => (point.t - origin) / HOUR_MS);
  const ys = sorted.map((point) => point.v);
  const meanX = xs.reduce((sum, x) => sum + x, 0) / xs.length;
  const meanY = ys.reduce((sum, y) => sum + y, 0) / ys.length;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let index = 0; index < xs.length; index += 1) {
    const dx = xs[index]! - meanX;
    const dy = ys[index]! - meanY;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx === 0) return undefined;
  const slopePerHour = sxy / sxx;
  const r2 = syy === 0 ? 0 : (sxy * sxy) / (sxx * syy);
  return { slopePerHour, r2, first: ys[0]!, last: ys.at(-1)!, from: sorted[0]!.t, to: sorted.at(-1)!.t };
}

/**
 * Hours until a steadily falling series reaches `floor` (or a rising one reaches `ceiling`), when the
 * fit is good enough to extrapolate; undefined when it is not heading there.
 */
export function hoursToLimit(trend: Trend, limit: { floor?: number; ceiling?: number }, minR2 = 0.8): number | undefined {
  if (trend.r2 < minR2 || trend.slopePerHour === 0) return undefined;
  if (limit.floor !== undefined && trend.slopePerHour < 0 && trend.last > limit.floor) return (trend.last - limit.floor) / -trend.slopePerHour;
  if (limit.ceiling !== undefined && trend.slopePerHour > 0 && trend.last < limit.ceiling) return (limit.ceiling - trend.last) / trend.slopePerHour;
  return undefined;
}

/** Sums over a run of points that give its squared error around a level or around a line in O(1). */
interface RunSums {
  n: number;
  x: number;
  y: number;
  xx: number;
  xy: number;
  yy: number;
}

const aroundLevel = (sums: RunSums): number => sums.yy - (sums.y * sums.y) / sums.n;

const aroundLine = (sums: RunSums): number => {
  const sxx = sums.xx - (sums.x * sums.x) / sums.n;
  const sxy = sums.xy - (sums.x * sums.y) / sums.n;
  return sxx > 0 ? aroundLevel(sums) - (sxy * sxy) / sxx : aroundLevel(sums);
};

const minus = (a: RunSums, b: RunSums): RunSums => ({ n: a.n - b.n, x: a.x - b.x, y: a.y - b.y, xx: a.xx - b.xx, xy: a.xy - b.xy, yy: a.yy - b.yy });

/**
 * When a steady drift began: the series split into a level and then a line, at the point where the
 * two fit it best (a disk that held steady, then filled from the moment something started writing).
 * Undefined when a single line fits it as well: the drift was under way when the series begins.
 * At least `minLinePoints` points follow the split, and two precede it.
 */
export function driftStartOf(points: readonly Point[], minLinePoints = MIN_POINTS): number | undefined {
  const sorted = [...points].sort((a, b) => a.t - b.t);
  if (sorted.length < minLinePoints + 2) return undefined;
  const origin = sorted[0]!.t;
  const scale = Math.max(...sorted.map((point) => Math.abs(point.v - sorted[0]!.v)), 1e-12);
  const prefix: RunSums[] = [{ n: 0, x: 0, y: 0, xx: 0, xy: 0, yy: 0 }];
  for (const point of sorted) {
    const x = (point.t - origin) / HOUR_MS;
    const y = (point.v - sorted[0]!.v) / scale;
    const last = prefix.at(-1)!;
    prefix.push({ n: last.n + 1, x: last.x + x, y: last.y + y, xx: last.xx + x * x, xy: last.xy + x * y, yy: last.yy + y * y });
  }
  const all = prefix.at(-1)!;
  let best = { error: aroundLine(all), split: 0 };
  for (let split = 2; split <= sorted.length - minLinePoints; split += 1) {
    const error = aroundLevel(prefix[split]!) + aroundLine(minus(all, prefix[split]!));
    if (error < best.error) best = { error, split };
  }
  return best.split === 0 ? undefined : sorted[best.split]!.t;
}
