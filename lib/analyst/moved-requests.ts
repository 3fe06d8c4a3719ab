import type { EvidenceBoard, Series } from './evidence-board.ts';
import { meaningOf } from './metric-semantics.ts';
import { timedPoints } from './readings.ts';
import type { Point } from '../analysis/onset.ts';

/** How long before and after a step its service's requests are summed up. */
const COMPARED_MS = 30 * 60_000;
/** How much more the whole must take after the step to have been sent more. */
const SURGE_FACTOR = 2;

const meanOf = (points: readonly Point[]): number => (points.length > 0 ? points.reduce((sum, point) => sum + point.v, 0) / points.length : Number.NaN);
const between = (points: readonly Point[], from: number, to: number): Point[] => points.filter((point) => point.t >= from && point.t < to);

/**
 * Whether a step up in one of a service's request series is requests moved from its other series of
 * the same measure (a blue/green switch from one target group to the other, traffic shifted between
 * its own weighted targets): counted together, the service took no more after the step than before.
 */
export const movedBetweenItsOwnSeries = (board: EvidenceBoard, stepped: Series, at: number): boolean => {
  const measure = board.series.filter((series) => series.service === stepped.service && series.name === stepped.name).map((series) => timedPoints(series.points));
  if (measure.length < 2) return false;
  // A series with no readings in a stretch adds nothing to it.
  const meanTotal = (from: number, to: number) => measure.reduce((sum, points) => sum + (meanOf(between(points, from, to)) || 0), 0);
  const before = meanTotal(at - COMPARED_MS, at);
  return before > 0 && meanTotal(at, at + COMPARED_MS) < SURGE_FACTOR * before;
};

/** How long before its capacity went a target must already have served next to nothing, and how little that is of what it served. */
const IDLE_BEFORE_MS = 10 * 60_000;
const IDLE_SHARE = 0.05;

/**
 * Whether a fall in the copies behind one of a service's targets (its healthy hosts, its tasks) came
 * after its requests had already left it (the old target group of a blue/green switch, emptied once
 * traffic moved): the target was retired, nothing was lost.
 */
export const retiredAfterItsRequestsLeft = (board: EvidenceBoard, fell: Series, at: number): boolean => {
  if (fell.dimensions === undefined) return false;
  const key = JSON.stringify(fell.dimensions);
  // The same target's requests, wherever they are filed (a target group's requests under its balancer, its hosts under the service).
  const served = board.series.filter((series) => series !== fell && meaningOf(series.name) === 'demand' && JSON.stringify(series.dimensions ?? {}) === key);
  const idleFrom = at - IDLE_BEFORE_MS;
  return served.some((series) => {
    const points = timedPoints(series.points);
    const earlier = points.filter((point) => point.t < idleFrom);
    const usual = meanOf(earlier);
    // A count CloudWatch stopped publishing counted nothing: its silence reads zero, where it published often enough to say so.
    const spacing = earlier.length > 1 ? (earlier.at(-1)!.t - earlier[0]!.t) / (earlier.length - 1) : Number.POSITIVE_INFINITY;
    const recent = between(points, idleFrom, at);
    const lately = recent.length > 0 ? meanOf(recent) : spacing <= IDLE_BEFORE_MS / 2 ? 0 : Number.NaN;
    return usual > 0 && lately <= IDLE_SHARE * usual;
  });
};
