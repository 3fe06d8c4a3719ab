/**
 * When did a metric change, and is the change still there? The series is split into regimes of constant
 * level (see segmentation.ts); regimes that depart from the level the series started at form
 * excursions. A sustained or ongoing excursion is an onset; a brief one that recovered is a transient
 * spike, the stuff of false alarms. A steady rise (a leak) is dated from where the rise begins, not from
 * where it first crosses a threshold.
 *
 * A series read at a coarse period has too few points to measure its noise. There, only a clean step
 * counts: the newest points all beyond every earlier one, by a wide margin.
 */
import { differenceNoiseSigma, median, robustSigma } from './robust-statistics.ts';
import { segmentByMean } from './segmentation.ts';

export interface Point {
  /** Epoch milliseconds. */
  t: number;
  v: number;
}

export type Direction = 'up' | 'down';

export interface Onset {
  /** Epoch ms of the first point of the new regime. */
  at: number;
  /** Epoch ms of the point before it, the last one at the old level: the departure began after it, at or before `at`. */
  after?: number;
  direction: Direction;
  /** Median of the points before the onset (back to the previous excursion, if any). */
  baseline: number;
  /** Median of the points from the onset to the end of the excursion; for a ramp, of its last quarter. */
  level: number;
  /** |level - baseline| / max(|baseline|, noise sigma). */
  relativeChange: number;
  /** |level - baseline| in robust sigmas of the baseline's noise; comparable across series. */
  score: number;
  /** Epoch ms of the first point back at the baseline, when the excursion ended before the series did and did not depart that way again. */
  recoveredAt?: number;
}

export interface TransientSpike {
  /** Epoch ms of the first point of the spike. */
  at: number;
  /** Epoch ms of the last point of the spike; the next point is back at the baseline. */
  until: number;
  /** The most extreme value in the spike. */
  peak: number;
  direction: Direction;
  baseline: number;
  /** |median of the spike - baseline| in robust sigmas of the baseline's noise. */
  score: number;
}

export interface OnsetOptions {
  /** Smallest |level - baseline| / max(|baseline|, noise), default 0.1. */
  minRelativeChange?: number;
  /** Smallest shift in robust sigmas of the baseline's noise, default 4. */
  minScore?: number;
  /** The series sums events per period (a Sum or SampleCount), so its newest period may still be filling and read low. */
  newestMayBePartial?: boolean;
}

const DEFAULT_MIN_SCORE = 4;
const DEFAULT_MIN_RELATIVE_CHANGE = 0.1;
/** The fewest points a series is segmented on; shorter ones are read as a short series. */
export const MIN_ONSET_POINTS = 6;
/** A short series needs two points to set its level and one to depart from it. */
const MIN_SHORT_POINTS = 3;
/**
 * With no noise to measure on a short series, the baseline's own spread stands in for it, but never
 * less than this share of the baseline's level: two equal points do not make a noiseless series.
 */
const SHORT_NOISE_SHARE = 0.1;
/** On a short series, each departing point must be at least this many times the earlier level, or that level divided by it. */
const SHORT_FACTOR = 2;
/** A short series' departure whose newest point keeps less than this share of its peak excess is passing. */
const PASSING_SHARE = 0.5;
/** A lone point, often a partially filled last period, is not a regime. */
const MIN_REGIME_POINTS = 2;
/** Segmentation penalty per change, in noise variances per log(points): a modified BIC. */
const PENALTY_PER_LOG_POINT = 3;
/** The fewest points a baseline is measured on, so that a series opening on a blip does not measure from it. */
const MIN_BASELINE_POINTS = 3;
/** The fewest points the noise is measured on. */
const MIN_NOISE_POINTS = 10;
/**
 * The first-difference noise estimate is the noisier one, so as a floor it is lowered by about its own
 * typical error, lest it overrule a sound estimate from the residuals.
 */
const DIFFERENCE_NOISE_FLOOR = 0.75;
/**
 * Noise measured on few points is uncertain, so it is inflated by (1 + this / points): a short series
 * needs a clearer shift. It hardly matters beyond a hundred points.
 */
const SMALL_SAMPLE_INFLATION = 3;
/** An excursion that recovered within this share of the series is a transient, not a regime change. */
const TRANSIENT_MAX_SHARE = 0.1;
/**
 * An excursion continues through regimes that cross this share of the thresholds, so an incident whose
 * severity wavers is one excursion rather than several.
 */
const CONTINUATION_SHARE = 0.5;

interface Shift {
  direction: Direction;
  /** In robust noise sigmas. */
  score: number;
  relativeChange: number;
}

/** A stretch of constant level: values[start, end). */
interface Regime {
  start: number;
  end: number;
}

/** A regime after the baseline and how far it sits from the baseline. */
interface Departure extends Regime, Shift {}

/** Regimes departing from the baseline in one direction, before the excursion is measured. */
interface Run extends Regime {
  direction: Direction;
}

interface Excursion extends Run, Shift {
  baseline: number;
  level: number;
}

interface Series {
  times: number[];
  values: number[];
  excursions: Excursion[];
}

interface Thresholds {
  minScore: number;
  minRelativeChange: number;
}

/** A reading within this share of a shift from its baseline is still at the baseline. */
const AT_BASELINE_SHARE = 0.02;

export function detectOnset(points: readonly Point[], options: OnsetOptions = {}): Onset | undefined {
  const thresholds = thresholdsOf(options);
  const sorted = sortedFinite(points);
  if (sorted.length < MIN_ONSET_POINTS) return shortSeriesOnset(sorted, thresholds, options.newestMayBePartial ?? false);
  // Too few points to measure the noise on: a noise estimate made of the shift itself can drown it, and the short series' rule still reads it.
  const unmeasured = () => (sorted.length < MIN_NOISE_POINTS ? shortSeriesOnset(sorted, thresholds, options.newestMayBePartial ?? false) : undefined);
  const series = analyseSeries(sorted, thresholds);
  if (!series) return unmeasured();
  const { times, values } = series;
  const sustained = series.excursions.filter(
    (excursion) => !isTransient(excursion, values.length) && passes(excursion, thresholds, 1),
  );
  const strongest = strongestOf(sustained);
  if (!strongest) return unmeasured();
  // A departure that came back and departed again the same way, still out at the newest point, is not over: it recurs.
  const stillOut = (excursion: Excursion) => {
    const sign = excursion.direction === 'up' ? 1 : -1;
    return sign * (values.at(-1)! - excursion.baseline) >= PASSING_SHARE * Math.abs(excursion.level - excursion.baseline);
  };
  const returned = sustained.some(
    (excursion) => excursion.start >= strongest.end && excursion.end === values.length && excursion.direction === strongest.direction && stillOut(excursion),
  );
  // A segment's boundary can land a reading still at the old level inside the new regime (readings missing between
  // them): the departure starts at the first reading that left the old level.
  let start = strongest.start;
  const stillAtBaseline = (value: number) => Math.abs(value - strongest.baseline) <= AT_BASELINE_SHARE * Math.abs(strongest.level - strongest.baseline);
  while (start + 1 < strongest.end && stillAtBaseline(values[start]!)) start += 1;
  return {
    at: times[start]!,
    ...(start > 0 ? { after: times[start - 1]! } : {}),
    direction: strongest.direction,
    baseline: strongest.baseline,
    level: strongest.level,
    relativeChange: strongest.relativeChange,
    score: strongest.score,
    ...(strongest.end < values.length && !returned ? { recoveredAt: times[strongest.end]! } : {}),
  };
}

/** The strongest brief excursion that recovered before the end of the series (those `detectOnset` ignores). */
export function detectTransientSpike(points: readonly Point[], options: OnsetOptions = {}): TransientSpike | undefined {
  const thresholds = thresholdsOf(options);
  const series = analyseSeries(sortedFinite(points), thresholds);
  if (!series) return undefined;
  const { times, values } = series;
  const transients = series.excursions.filter(
    (excursion) => isTransient(excursion, values.length) && passes(excursion, thresholds, 1),
  );
  const strongest = strongestOf(transients);
  if (!strongest) return undefined;
  const inSpike = values.slice(strongest.start, strongest.end);
  return {
    at: times[strongest.start]!,
    until: times[strongest.end - 1]!,
    peak: strongest.direction === 'up' ? Math.max(...inSpike) : Math.min(...inSpike),
    direction: strongest.direction,
    baseline: strongest.baseline,
    score: strongest.score,
  };
}

/**
 * The onset of a series too short to segment (MIN_SHORT_POINTS to MIN_ONSET_POINTS - 1 points): the longest
 * run of newest points each of which at least doubled, or at least halved, the earlier points' level,
 * and lies beyond their spread by the thresholds' score. A step that came back is not told from
 * noise on so few points, so only a departure still there at the end counts; and as on a long series,
 * a lone newest point is no regime (it may be a partial period, or hold a blip and its recovery), nor
 * is a departure already fallen back by more than half (unless the newest period may still be filling).
 * Counts (whole numbers) vary by about the square root of their level by chance, so a few errors where
 * there were none are not a departure.
 */
function shortSeriesOnset(sorted: readonly Point[], thresholds: Thresholds, newestMayBePartial: boolean): Onset | undefined {
  if (sorted.length < MIN_SHORT_POINTS) return undefined;
  const values = sorted.map((point) => point.v);
  const counts = values.every((value) => value >= 0 && Number.isInteger(value));
  for (let start = MIN_REGIME_POINTS; start <= values.length - MIN_REGIME_POINTS; start++) {
    const before = values.slice(0, start);
    const after = values.slice(start);
    const [lowest, highest] = [Math.min(...before), Math.max(...before)];
    const baseline = median(before);
    const level = median(after);
    const direction: Direction = level >= baseline ? 'up' : 'down';
    const departed = (value: number) => (direction === 'up' ? value >= SHORT_FACTOR * baseline && value > highest : value <= baseline / SHORT_FACTOR && value < lowest);
    if (!after.every(departed)) continue;
    // Fallen back by more than half of its peak, it is passing, not a new level; unless the newest period of a sum is still filling.
    const excess = after.map((value) => Math.abs(value - baseline));
    if (!newestMayBePartial && excess.at(-1)! < PASSING_SHARE * Math.max(...excess)) continue;
    const sigma = Math.max(highest - lowest, SHORT_NOISE_SHARE * Math.abs(baseline), counts ? Math.sqrt(Math.max(baseline, 1)) : 0, Number.MIN_VALUE);
    const change = Math.abs(level - baseline);
    const shift: Shift = { direction, score: change / sigma, relativeChange: change / Math.max(Math.abs(baseline), sigma) };
    if (!passes(shift, thresholds, 1)) continue;
    return { at: sorted[start]!.t, after: sorted[start - 1]!.t, baseline, level, ...shift };
  }
  return undefined;
}

function thresholdsOf(options: OnsetOptions): Thresholds {
  return {
    minScore: options.minScore ?? DEFAULT_MIN_SCORE,
    minRelativeChange: options.minRelativeChange ?? DEFAULT_MIN_RELATIVE_CHANGE,
  };
}

function isTransient(excursion: Excursion, length: number): boolean {
  return excursion.end < length && excursion.end - excursion.start < TRANSIENT_MAX_SHARE * length;
}

function passes(shift: Shift, thresholds: Thresholds, share: number): boolean {
  return shift.score >= thresholds.minScore * share && shift.relativeChange >= thresholds.minRelativeChange * share;
}

/** Highest score; the earliest on a tie. */
function strongestOf(excursions: readonly Excursion[]): Excursion | undefined {
  let strongest: Excursion | undefined;
  for (const excursion of excursions) if (!strongest || excursion.score > strongest.score) strongest = excursion;
  return strongest;
}

/** The points with a finite time and value, oldest first. */
function sortedFinite(points: readonly Point[]): Point[] {
  return points.filter((point) => Number.isFinite(point.t) && Number.isFinite(point.v)).sort((a, b) => a.t - b.t);
}

/** Segments `sorted` (finite, oldest first) into regimes and the excursions among them. */
function analyseSeries(sorted: readonly Point[], thresholds: Thresholds): Series | undefined {
  if (sorted.length < MIN_ONSET_POINTS) return undefined;
  const times = sorted.map((point) => point.t);
  const values = sorted.map((point) => point.v);
  const noise = differenceNoiseSigma(values);
  // Zero noise means every step is identical: a constant or a perfect line, neither of which shifts.
  if (!(noise > 0)) return undefined;

  const center = median(values);
  const standardized = values.map((value) => (value - center) / noise);
  const starts = segmentByMean(standardized, PENALTY_PER_LOG_POINT, MIN_REGIME_POINTS);
  const regimes: Regime[] = starts.map((start, i) => ({ start, end: starts[i + 1] ?? values.length }));

  // The opening regimes up to the first MIN_BASELINE_POINTS points; their median shrugs off a short blip.
  const baselineRegimeCount = regimes.findIndex((regime) => regime.end >= MIN_BASELINE_POINTS) + 1;
  const baselineEnd = regimes[baselineRegimeCount - 1]!.end;
  const baselineLevel = median(values.slice(0, baselineEnd));
  const sigma = noiseLevel(values, regimes, baselineEnd);
  const shiftFrom = (reference: number, level: number): Shift => {
    const change = Math.abs(level - reference);
    return {
      direction: level >= reference ? 'up' : 'down',
      score: change / sigma,
      relativeChange: change / Math.max(Math.abs(reference), sigma),
    };
  };

  const departures = regimes.slice(baselineRegimeCount).map((regime) => ({
    ...regime,
    ...shiftFrom(baselineLevel, median(values.slice(regime.start, regime.end))),
  }));
  const runs = collectRuns(departures, thresholds, values, baselineLevel);
  const excursions = runs.map((run, i): Excursion => {
    const previous = runs[i - 1];
    const from = previous?.end ?? 0;
    const hinge = rampStart(times, standardized, { from, start: run.start, end: run.end }, run.direction);
    // A line fitted through a climb and the ceiling it stops at meets the baseline early: the climb begins at its first point off the baseline.
    const rampIndex = hinge === undefined ? undefined : firstDeparting(values, hinge, run.end, median(values.slice(from, hinge)), sigma, run.direction);
    const start = rampIndex ?? run.start;
    const before = values.slice(from, start);
    // A step out of the run just before it is measured from that run's level.
    const stepsFromPrevious = previous !== undefined && previous.end === start && previous.direction === run.direction;
    const baseline = before.length >= MIN_BASELINE_POINTS ? median(before) : stepsFromPrevious ? median(values.slice(previous.start, previous.end)) : baselineLevel;
    // A ramp's level is where it has climbed to, not the midpoint of the climb.
    const lastQuarter = Math.max(MIN_BASELINE_POINTS, Math.ceil((run.end - start) / 4));
    const levelFrom = rampIndex === undefined ? start : Math.max(start, run.end - lastQuarter);
    const level = median(values.slice(levelFrom, run.end));
    return { start, end: run.end, baseline, level, ...shiftFrom(baseline, level) };
  });
  return { times, values, excursions };
}

/** A point within this many noise sigmas of the baseline is still at it. */
const AT_BASELINE_SIGMAS = 2;

/** The first point from `start` that departs from `baseline` in `direction` by more than the noise; `start` when none before the last. */
function firstDeparting(values: readonly number[], start: number, end: number, baseline: number, sigma: number, direction: Direction): number {
  const sign = direction === 'up' ? 1 : -1;
  let index = start;
  while (index < end - MIN_REGIME_POINTS && sign * (values[index]! - baseline) <= AT_BASELINE_SIGMAS * sigma) index++;
  return index;
}

/**
 * The noise that shifts are measured in. An incident is often noisier than normal running, which would
 * inflate an estimate over the whole series, so a baseline long enough to measure gives its own when
 * that is lower.
 */
function noiseLevel(values: readonly number[], regimes: readonly Regime[], baselineEnd: number): number {
  const overWhole = noiseOver(values, regimes);
  const baselineRegimes = regimes.filter((regime) => regime.end <= baselineEnd);
  const overBaseline = baselineEnd >= MIN_NOISE_POINTS ? noiseOver(values, baselineRegimes) : 0;
  // A perfectly flat baseline (a counter stuck at zero) has no noise to measure a shift in.
  return overBaseline > 0 ? Math.min(overWhole, overBaseline) : overWhole;
}

/**
 * Noise over the leading regimes given, inflated on few points. With the level shifts taken out, the
 * spread around each regime's level is the noise. Where the segmentation has split plain noise into
 * regimes, that spread understates it; the estimate from first differences, which does not depend on
 * the segmentation, is then the floor.
 */
function noiseOver(values: readonly number[], regimes: readonly Regime[]): number {
  const covered = regimes.at(-1)!.end;
  const residuals = regimes.flatMap(({ start, end }) => {
    const level = median(values.slice(start, end));
    return values.slice(start, end).map((value) => value - level);
  });
  const floor = DIFFERENCE_NOISE_FLOOR * differenceNoiseSigma(values.slice(0, covered));
  return Math.max(robustSigma(residuals), floor) * (1 + SMALL_SAMPLE_INFLATION / covered);
}

/** A run that then steps on, the same way, this many times further than it had come from the baseline has a new onset there. */
const ESCALATION_FACTOR = 5;

/**
 * Groups the regimes after the baseline into runs that depart from it in one direction. A run opens on a
 * regime that crosses the thresholds, reaches back over lead-in regimes and forward over regimes that
 * cross only part of them, and bridges dips shorter than a transient. A departure that then steps on
 * several times further than it had come (requests up a sixth with the evening, then twenty-fold when
 * a route moved) is two runs: the step is an onset of its own, not the tail of the first. A ramp,
 * whose every regime goes on by about as much as the last, stays one.
 */
function collectRuns(departures: readonly Departure[], thresholds: Thresholds, values: readonly number[], baseline: number): Run[] {
  const length = values.length;
  const levelOf = (regime: Regime) => median(values.slice(regime.start, regime.end));
  const escalates = (run: Run, departure: Departure) => {
    const sign = run.direction === 'up' ? 1 : -1;
    const [runLevel, stepLevel] = [levelOf(run), levelOf(departure)];
    const come = sign * (runLevel - baseline);
    // A run no longer than a transient is the step's own edge (a reading caught halfway), not a level it held.
    const held = run.end - run.start >= Math.max(MIN_BASELINE_POINTS, TRANSIENT_MAX_SHARE * length);
    return held && come > 0 && sign * (stepLevel - runLevel) >= ESCALATION_FACTOR * come;
  };
  const continues = (departure: Departure, direction: Direction) =>
    departure.direction === direction && passes(departure, thresholds, CONTINUATION_SHARE);
  // A gradual climb leads in through regimes that are clearly off the baseline yet still small.
  const leadsIn = (departure: Departure, direction: Direction) =>
    departure.direction === direction &&
    departure.score >= thresholds.minScore &&
    departure.relativeChange >= thresholds.minRelativeChange * CONTINUATION_SHARE;

  const runs: Run[] = [];
  departures.forEach((departure, index) => {
    const { direction } = departure;
    const last = runs.at(-1);
    if (last?.end === departure.start && last.direction === direction && continues(departure, direction)) {
      if (escalates(last, departure)) runs.push({ start: departure.start, end: departure.end, direction });
      else last.end = departure.end;
      return;
    }
    if (!passes(departure, thresholds, 1)) return;
    // A dip back towards the baseline no longer than a transient is a flap, not a recovery.
    if (last && last.direction === direction && departure.start - last.end < TRANSIENT_MAX_SHARE * length) {
      last.end = departure.end;
      return;
    }
    let lead = index;
    const previousEnd = last?.end ?? 0;
    while (lead > 0 && departures[lead - 1]!.start >= previousEnd && leadsIn(departures[lead - 1]!, direction)) lead--;
    runs.push({ start: departures[lead]!.start, end: departure.end, direction });
  });
  return runs;
}

/**
 * Where a steady rise or fall that becomes an excursion at `start` really began (searching back as far
 * as `from`), or undefined when a step explains values[from, end) at least as well. A leak crosses any
 * threshold well after it begins; fitting "flat, then a straight line" (a hinge) finds the bend. The
 * hinge must beat the best single step by the segmentation penalty, so that a noisy step is not
 * mistaken for a ramp.
 */
function rampStart(
  times: readonly number[],
  values: readonly number[],
  { from, start, end }: { from: number; start: number; end: number },
  direction: Direction,
): number | undefined {
  const count = end - from;
  if (count < 2 * MIN_REGIME_POINTS + 1) return undefined;
  const span = times[end - 1]! - times[from]! || 1;
  // Time rescaled to [0, 1] keeps the sums of squares well conditioned for epoch-millisecond inputs.
  const x = (i: number) => (times[i]! - times[from]!) / span;
  // Suffix sums over [i, end): x, x², y, y², xy.
  const suffix = (f: (i: number) => number) => {
    const sums = new Float64Array(count + 1);
    for (let i = end - 1; i >= from; i--) sums[i - from] = sums[i - from + 1]! + f(i);
    return (i: number) => sums[i - from]!;
  };
  const sx = suffix(x);
  const sxx = suffix((i) => x(i) * x(i));
  const sy = suffix((i) => values[i]!);
  const syy = suffix((i) => values[i]! * values[i]!);
  const sxy = suffix((i) => x(i) * values[i]!);
  const totalY = sy(from);
  const spreadY = syy(from) - (totalY * totalY) / count;

  let bestStepError = Number.POSITIVE_INFINITY;
  for (let split = from + MIN_REGIME_POINTS; split <= end - MIN_REGIME_POINTS; split++) {
    const leftSum = totalY - sy(split);
    const leftError = syy(from) - syy(split) - (leftSum * leftSum) / (split - from);
    const rightError = syy(split) - (sy(split) * sy(split)) / (end - split);
    bestStepError = Math.min(bestStepError, leftError + rightError);
  }

  let bestHinge: { index: number; error: number } | undefined;
  for (let first = from + MIN_REGIME_POINTS; first <= start; first++) {
    // Regressor max(0, x - knot) with the knot at the last flat point.
    const knot = x(first - 1);
    const tail = end - first;
    const sumX = sx(first) - tail * knot;
    const sumXX = sxx(first) - 2 * knot * sx(first) + tail * knot * knot;
    const sumXY = sxy(first) - knot * sy(first);
    const varianceX = sumXX - (sumX * sumX) / count;
    if (!(varianceX > 0)) continue;
    const covariance = sumXY - (sumX * totalY) / count;
    const slope = covariance / varianceX;
    if ((direction === 'up') !== slope > 0) continue;
    const error = spreadY - (covariance * covariance) / varianceX;
    if (!bestHinge || error < bestHinge.error) bestHinge = { index: first, error };
  }
  if (!bestHinge) return undefined;
  // The likelihood ratio of the two fits with the noise unknown, so heavier noise demands a bigger win.
  const logLikelihoodRatio = count * Math.log(bestStepError / Math.max(bestHinge.error, 0));
  return logLikelihoodRatio > PENALTY_PER_LOG_POINT * Math.log(count) ? bestHinge.index : undefined;
}
