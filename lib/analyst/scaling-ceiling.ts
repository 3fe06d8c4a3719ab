import { changeText } from './change-text.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { numbersChanged } from './lowered-setting.ts';
import { runningCapacity } from './metric-semantics.ts';
import { iso } from './signals.ts';
import { quoteMessage } from '../text/quote.ts';

/**
 * A maximum capacity a scaling record states: as registered ("MaxCapacity=12", "max capacity 12"),
 * or as the reason an activity did not scale (`"MaxCapacity":12`). Not a maximum being changed
 * ("MaxCapacity 40 -> 4": lowered-setting.ts reads that).
 */
const statedMaximum = /\b(?:MaxCapacity|MaxSize|max(?:imum)?[ _-](?:capacity|size|tasks|count))"?\s*[=:]?\s*(\d+)\b(?!\s*(?:->|→|=>|to\b))/i;
/** A scaling activity that could not add capacity: refused at the maximum, or failed. */
const scalingRefused = /AlreadyAtMaxCapacity|at (its |the )?max(imum)?( capacity)?\b|scaling activity (was )?(failed|unfulfilled)|scal\w* activity\W+(failed|unfulfilled)/i;
/** Copies a scaler asks for or runs: desired or running tasks, instances in service. */
const capacityMeasure = new RegExp(`desired|${runningCapacity.source}`, 'i');

/** Readings at the maximum it takes to say a capacity stayed there. */
const READINGS_AT_MAXIMUM = 3;
/** How long after the trouble began capacity may still be climbing to its maximum. */
const CLIMB_MS = 30 * 60_000;

export interface ScalingCeiling {
  service: string;
  maximum: number;
  /** The scaling record that states the maximum: its registration, or an activity refused at it. */
  statedBy: Change;
  /** When capacity reached it, as the scaling changes or the capacity series show. */
  reachedAt: number;
  /** A later scaling activity that could add nothing. */
  refused?: Change;
}

/**
 * A service whose scaling reached the maximum capacity registered for it around its trouble:
 * capacity scaled up to exactly that maximum (or stood at it on several readings), and its scaling
 * could add no more. The load then falls on the copies it has, whatever else is slow.
 */
export const scalingCeilingAt = (board: EvidenceBoard, service: string, troubleStarts: number): ScalingCeiling | undefined => {
  const statedBy = board.changes
    .filter((change) => change.service === service && change.at <= troubleStarts + CLIMB_MS && statedMaximum.test(changeText(change)))
    .sort((a, b) => a.at - b.at)
    .at(-1);
  if (!statedBy) return undefined;
  const maximum = Number(statedMaximum.exec(changeText(statedBy))![1]);
  if (!(maximum > 0)) return undefined;
  const climbs = board.changes.filter(
    (change) =>
      change.service === service &&
      change.kind === 'scaling' &&
      change.at <= troubleStarts + CLIMB_MS &&
      numbersChanged(change.summary).some(({ was, is }) => is === maximum && was < maximum),
  );
  const readingsAtMaximum = board.series
    .filter((series) => series.service === service && capacityMeasure.test(series.name))
    .flatMap((series) => series.points.map(([timestamp, value]) => ({ at: Date.parse(timestamp), value })))
    .filter(({ at, value }) => value === maximum && at <= troubleStarts + CLIMB_MS);
  const refusals = board.changes.filter((change) => change.service === service && change.at <= troubleStarts + CLIMB_MS && scalingRefused.test(changeText(change)));
  const reachedAt = Math.min(
    ...climbs.map((change) => change.at),
    ...(readingsAtMaximum.length >= READINGS_AT_MAXIMUM ? readingsAtMaximum.map(({ at }) => at) : []),
    ...refusals.map((change) => change.at),
  );
  if (!Number.isFinite(reachedAt)) return undefined;
  const refused = refusals.find((change) => change.at >= reachedAt);
  return { service, maximum, statedBy, reachedAt, ...(refused ? { refused } : {}) };
};

export const scalingCeilingWords = (ceiling: ScalingCeiling): string =>
  `${ceiling.service} reached the most its scaling allows: its capacity went up to ${ceiling.maximum} at ${iso(ceiling.reachedAt)}, the maximum capacity of its scaling (MaxCapacity ${ceiling.maximum}), and it could add no more${
    ceiling.refused ? ` (at ${iso(ceiling.refused.at)}: "${quoteMessage(ceiling.refused.summary)}")` : ''
  }, so the extra load falls on the ${ceiling.maximum} copies it has and saturates them.`;
