import type { Change, EvidenceBoard } from './evidence-board.ts';
import { meaningOf } from './metric-semantics.ts';
import { calleesOf } from './signals.ts';
import { timedPoints } from './readings.ts';

/** An idle stretch shorter than this is ordinary spacing between requests, not work that was not running. */
const IDLE_MS = 30 * 60_000;

/**
 * When a change could first show: a change made while the work it affects was idle (a nightly job
 * between runs, a scheduler between firings) shows when that work next runs, however long after.
 * The work is what the changed service and the services it drives do, read from their demand
 * metrics (invocations, requests, messages): the first reading above zero after the change. When
 * the metrics do not reach back to the change, or show work going on, the change's own time stands.
 */
export const workResumption = (board: EvidenceBoard): ((change: Change) => number) => {
  // Each change is dated once: the placement asks about the same changes for every link it weighs.
  const dated = new Map<Change, number>();
  const resumptionOf = (change: Change): number => {
    const services = new Set([change.service, ...calleesOf(board.services ?? [], change.service)]);
    const demand = board.series.filter((series) => services.has(series.service) && meaningOf(series.name) === 'demand');
    const readings = demand.flatMap((series) => timedPoints(series.points));
    if (!readings.some((reading) => reading.t <= change.at)) return change.at;
    const resumed = Math.min(...readings.filter((reading) => reading.t >= change.at && reading.v > 0).map((reading) => reading.t));
    return Number.isFinite(resumed) && resumed - change.at > IDLE_MS ? resumed : change.at;
  };
  return (change) => {
    const known = dated.get(change);
    if (known !== undefined) return known;
    const at = resumptionOf(change);
    dated.set(change, at);
    return at;
  };
};
