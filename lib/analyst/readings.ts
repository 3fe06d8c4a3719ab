import { detectOnset, type Onset, type OnsetOptions, type Point } from '../analysis/onset.ts';

/** A metric's readings as the tools return them (`[ISO time, value]`), as points in time. */
export const timedPoints = (readings: readonly (readonly [string, number])[]): Point[] =>
  readings.map(([timestamp, value]) => ({ t: Date.parse(timestamp), v: value }));

/** Where a metric's readings turned, if they did. */
export const onsetOfReadings = (readings: readonly (readonly [string, number])[], options?: OnsetOptions): Onset | undefined => detectOnset(timedPoints(readings), options);

/** Where a metric's readings rose to at least `factor` times their level before (a baseline under 1 counts as 1), if they did. */
export const roseBy = (readings: readonly (readonly [string, number])[], factor: number): Onset | undefined => {
  const onset = onsetOfReadings(readings);
  return onset?.direction === 'up' && onset.level >= factor * Math.max(onset.baseline, 1) ? onset : undefined;
};
