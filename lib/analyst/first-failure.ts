import type { Change, EvidenceBoard } from './evidence-board.ts';
import { couldBreak } from './explaining-change.ts';
import { isEventCount, meaningOf } from './metric-semantics.ts';
import { timedPoints } from './readings.ts';

/** How long a failure count must read zero before a change for the change to be what ended the clean run. */
const CLEAN_RUN_MS = 24 * 60 * 60_000;

/**
 * The change after which a resource first failed. When a count of the resource's failures
 * (throttles, errors) read zero for at least a day and first rose after exactly one change to
 * that resource that could break something, that change ended the clean run, however long before
 * the failure it came: a capacity capped in the morning throttles at the evening peak. The
 * failure's measure must reach back before the change, or nothing says it was clean then.
 */
export const changeBeforeFirstFailure = (board: EvidenceBoard, resource: string): Change | undefined => {
  const firstFailures = board.series
    .filter((series) => series.service === resource && meaningOf(series.name) === 'bad-up' && isEventCount(series.name))
    .flatMap((series) => {
      const points = timedPoints(series.history ?? series.points).sort((a, b) => a.t - b.t);
      const first = points.find((point) => point.v > 0);
      return first && points[0]!.v === 0 ? [{ cleanFrom: points[0]!.t, failedAt: first.t }] : [];
    });
  const earliest = firstFailures.sort((a, b) => a.failedAt - b.failedAt)[0];
  if (!earliest) return undefined;
  const between = board.changes.filter((change) => change.service === resource && change.at > earliest.cleanFrom && change.at <= earliest.failedAt);
  const breaking = between.filter(couldBreak);
  const [change] = breaking;
  return breaking.length === 1 && between.at(-1) === change && change!.at - earliest.cleanFrom >= CLEAN_RUN_MS ? change : undefined;
};
