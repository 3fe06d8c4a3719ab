import type { Alert } from './alerts.ts';
import type { EvidenceBoard } from './evidence-board.ts';
import { runningCapacity } from './metric-semantics.ts';
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
/** A scaling activity that raised the count it sets: "Setting desired count to 24", "desired capacity from 2 to 6". */
const raisedCount = /setting desired (?:count|capacity) to (\d+)|desired (?:count|capacity) (?:from|changed from) (\d+) to (\d+)/i;

const scaledOutAfter = (board: EvidenceBoard, service: string, since: number): string | undefined => {
  const activity = board.changes.find((change) => {
    if (change.service !== service || change.kind !== 'scaling' || change.at < since) return false;
    const raised = raisedCount.exec(change.summary);
    return raised !== null && (raised[1] !== undefined || Number(raised[3]) > Number(raised[2]));
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
