import type { Alert } from './alerts.ts';
import type { EvidenceBoard } from './evidence-board.ts';
import { runningCapacity, waitingCount } from './metric-semantics.ts';
import { timedPoints } from './readings.ts';
import { iso } from './signals.ts';

/**
 * The alarm a target-tracking policy creates to scale out (Application Auto Scaling names it
 * `TargetTracking-<resource>-AlarmHigh-<id>`) fires to scale, not to page: in ALARM it says the
 * policy is at work, and what the load does to the service is read from the service's own measures
 * and alarms. The evidence must show the policy answered: the service scaled out after it fired (a
 * scaling activity raised its desired count, or the copies running rose), however far a ceiling let
 * it go. Its scale-in twin (AlarmLow) is not read: capacity falling idle can be work that stopped.
 */

const scaleOutAlarm = /\bTargetTracking-.*-AlarmHigh-/;
/** A scaling activity's count: "Setting desired count to 24" (to), "desired capacity from 2 to 6" (from, to). */
const countSet = /setting desired (?:count|capacity) to (\d+)|desired (?:count|capacity) (?:from|changed from) (\d+) to (\d+)/i;

/** The count a scaling activity set, and the one it says it set it from. */
const countOf = (summary: string): { from?: number; to: number } | undefined => {
  const set = countSet.exec(summary);
  if (!set) return undefined;
  return set[1] !== undefined ? { to: Number(set[1]) } : { from: Number(set[2]), to: Number(set[3]) };
};

/**
 * The count the service ran at before `at`: the last count a scaling activity set, else the last
 * reading of its copies running.
 */
const countBefore = (board: EvidenceBoard, service: string, at: number): number | undefined => {
  const set = board.changes.filter((change) => change.service === service && change.kind === 'scaling' && change.at < at && countOf(change.summary) !== undefined).sort((a, b) => a.at - b.at).at(-1);
  if (set) return countOf(set.summary)!.to;
  const readings = board.series.filter((series) => series.service === service && runningCapacity.test(series.name)).flatMap((series) => timedPoints(series.points));
  return readings.filter((point) => point.t <= at).sort((a, b) => a.t - b.t).at(-1)?.v;
};

const scaledOutAfter = (board: EvidenceBoard, service: string, since: number): string | undefined => {
  const activity = board.changes.find((change) => {
    const count = change.service === service && change.kind === 'scaling' && change.at >= since ? countOf(change.summary) : undefined;
    if (!count) return false;
    const before = count.from ?? countBefore(board, service, change.at);
    return before === undefined || count.to > before;
  });
  if (activity) return `${service} scaled out after it fired ("${activity.summary}", ${iso(activity.at)})`;
  for (const series of board.series.filter((candidate) => candidate.service === service && runningCapacity.test(candidate.name))) {
    const points = timedPoints(series.points);
    const before = points.filter((point) => point.t <= since).at(-1);
    const most = Math.max(...points.filter((point) => point.t > since).map((point) => point.v));
    if (before && most > before.v) return `${series.name} at ${service} rose from ${before.v} to ${most} after it fired`;
  }
  return undefined;
};

/** Why a target-tracking policy's own alarm in ALARM is that policy at work, when the evidence shows it. */
export const scalingPolicyAtWork = (board: EvidenceBoard, alert: Alert): string | undefined => {
  if (!scaleOutAlarm.test(alert.name) || !alert.service || alert.since === undefined) return undefined;
  const answered = scaledOutAfter(board, alert.service, alert.since);
  return answered && `it is ${alert.service}'s target-tracking policy's scale-out alarm, and the policy answered: ${answered}`;
};

/** CloudWatch's account of a breach below the threshold ("… were less than or equal to the threshold (10.0)"). */
const breachedBelow = /less than (or equal to )?the threshold/i;

/**
 * An alarm that fires when a waiting count falls low (the step policy's "backlog low" alarm that
 * scales a worker fleet in) reports that nothing waits: the work is done, which is no fault of its
 * own. Work that stopped arriving shows at whoever sends it, not in this alarm.
 */
export const nothingWaiting = (board: EvidenceBoard, alert: Alert): string | undefined => {
  const alarm = board.alarms.find((candidate) => `alarm ${candidate.name}` === alert.name);
  if (!alarm || !waitingCount.test(alarm.name) || !breachedBelow.test(alarm.reason ?? '')) return undefined;
  return `it fires when what waits at ${alarm.service} falls below its threshold ("${alarm.reason}"): nothing is left waiting, the work is done`;
};
