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
