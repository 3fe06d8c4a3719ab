import type { Change, EvidenceBoard } from './evidence-board.ts';
import { meaningOf } from './metric-semantics.ts';
import { callersOf, kindOf } from './service-map.ts';
import { calleesOf } from './signals.ts';
import { timedPoints } from './readings.ts';
import { nextFiringAfter } from './schedule-expression.ts';

/** An idle stretch shorter than this is ordinary spacing between requests, not work that was not running. */
const IDLE_MS = 30 * 60_000;

/** A scale-out or a rollout: new tasks start, and read what they read only when they start. */
const launchesTasks = (change: Change): boolean => {
  if (change.kind === 'deploy') return true;
  if (change.kind !== 'scaling') return false;
  const desired = /desired (?:count|capacity) (\d+) ?(?:->|→|to) ?(\d+)/i.exec(change.summary);
  if (desired) return Number(desired[2]) > Number(desired[1]);
  return /\b(launching|scal(ed|ing) out)\b/i.test(change.summary);
};

/** Tasks that failed as they started: their image not pulled, their secrets or volumes not set up, the container not started. */
const failedToStart = /CannotPullContainer|ResourceInitializationError|CannotStartContainer|CannotCreateContainer|ErrImagePull|ImagePullBackOff|(task|container)s? (failed to start|stopped)\b/i;

/**
 * What the map cannot type (an image repository, a secret, a key) that its callers' tasks fail on
 * as they start is read when they start: a change to it with no measure of its own use shows at
 * those callers' next scale-out or rollout, however long after.
 */
const nextLaunchAfter = (board: EvidenceBoard, change: Change): number | undefined => {
  if (kindOf(board, change.service) !== 'other') return undefined;
  // Only callers whose tasks fail as they start read it then; a cache or a store is read all along.
  const callers = new Set(callersOf(board, change.service).filter((caller) => board.logs.some((line) => line.service === caller && failedToStart.test(line.message))));
  const launches = board.changes.filter((candidate) => callers.has(candidate.service) && candidate.at > change.at && launchesTasks(candidate)).map((candidate) => candidate.at);
  const next = Math.min(...launches);
  return Number.isFinite(next) && next - change.at > IDLE_MS ? next : undefined;
};

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
    // A schedule changed between firings shows when it next fires.
    const firing = nextFiringAfter(change);
    if (firing !== undefined) return firing;
    const services = new Set([change.service, ...calleesOf(board.services ?? [], change.service)]);
    const demand = board.series.filter((series) => services.has(series.service) && meaningOf(series.name) === 'demand');
    const readings = demand.flatMap((series) => timedPoints(series.points));
    if (readings.length === 0) return nextLaunchAfter(board, change) ?? change.at;
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
