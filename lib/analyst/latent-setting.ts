import { changeExplains } from './change-effects.ts';
import { latestBreakingChangeBefore } from './explaining-change.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { onlyRaisedCapacity } from './lowered-setting.ts';
import { labelsAt } from './mechanism.ts';
import { lastFiringOf } from './schedule-expression.ts';
import type { Signal } from './signals.ts';

/** A setting waits for the condition it governs (memory full, the evening peak, a long request): days, seldom more than a week. */
export const LATENT_REACH_MS = 7 * 24 * 60 * 60_000;

/**
 * A setting changed at a resource can lie quiet until what it governs happens: an eviction policy
 * matters once memory is full, a cap at the peak, a timeout on the first long request. When the
 * resource's own failures are exactly what one setting changed on it can produce, that change
 * explains them however many days before it came. Only failures its own evidence states in words
 * count (its errors and what its callers report of it, not a bare count of HTTP statuses, which
 * many settings could produce), and only the latest such change within a week; a
 * change that only raised a capacity gave headroom and runs nothing short.
 */
export const latentSettingAt = (board: EvidenceBoard, resource: string, current: readonly Signal[], failingSince: number): Change | undefined => {
  const own = current.filter((signal) => signal.service === resource);
  return latentSettingFor(board, resource, new Set(labelsAt(own)), failingSince, new Set(labelsAt(own.filter((signal) => signal.kind === 'metric'))));
};

/**
 * The latest setting changed at `service` within a week before `failingSince` that can produce the failures `kinds` name.
 * `measured` are the kinds a measure of the service shows: those a setting makes happen at once show from its time on.
 */
export const latentSettingFor = (board: EvidenceBoard, service: string, kinds: ReadonlySet<string>, failingSince: number, measured: ReadonlySet<string> = kinds): Change | undefined => {
  const waiting = new Set([...kinds].filter((kind) => !(ACTS_AT_ONCE.has(kind) && measured.has(kind))));
  if (waiting.size === 0 || !Number.isFinite(failingSince)) return undefined;
  return latestBreakingChangeBefore(board.changes, failingSince, LATENT_REACH_MS, (change) => change.service === service && !onlyRaisedCapacity(change.summary) && changeExplains(change, waiting));
};

/**
 * Failures a setting produces from the moment it is set, waiting for nothing: what it makes a server
 * write starts filling its volume at once, and a measure of the volume dates the fill from then. A
 * volume nobody measures fills unseen until its writers fail, days later.
 */
const ACTS_AT_ONCE: ReadonlySet<string> = new Set(['disk']);

/** A scheduled run does what it was started for as it begins: its schedule fired at most this long before the trouble. */
const RUN_LEAD_MS = 60 * 60_000;

/**
 * A schedule changed at `service` within a week, whose new expression fired shortly before
 * `failingSince` (after the change), moved its work into that time: the run it started is the one
 * doing the harm (a weekly REINDEX moved from Sunday night to a weekday lunchtime), and the change is
 * the setting to revert.
 */
export const scheduleMovedInto = (board: EvidenceBoard, service: string, failingSince: number): Change | undefined =>
  board.changes
    .filter((change) => change.service === service && change.at <= failingSince && failingSince - change.at <= LATENT_REACH_MS)
    .filter((change) => {
      const fired = lastFiringOf(change, failingSince);
      return fired !== undefined && fired >= change.at && failingSince - fired <= RUN_LEAD_MS;
    })
    .sort((a, b) => b.at - a.at)[0];
