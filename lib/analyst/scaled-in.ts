import type { Alert } from './alerts.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { capacityLoweredBy } from './lowered-setting.ts';
import { quoteMessage } from '../text/quote.ts';

/**
 * A service's own scaling policy (target tracking on its backlog or CPU, step scaling, a scheduled
 * action) scales it in when its load falls: the fleet is smaller because it needs less. An alarm on
 * how many instances or tasks are in service, fired at the scale-in, watches that count fall where
 * the policy put it; its threshold is older than the policy's decision. A scale-in by hand, or by
 * a change of the setting, is a cut (lowered-setting.ts) and says nothing here.
 */

/** Words of a scaling policy acting on its own measure. */
export const byPolicy = /target.?tracking|step.?scaling|scaling.?polic|scheduled.?action|predictive.?scaling/i;
/** An alarm on how many instances or tasks are in service. */
const countAlarm = /in.?service|running.?tasks?|task.?count|instance.?count|desired.?(count|capacity)|healthy.?hosts?/i;
/** A policy's scale-in shows in the count within a few periods. */
const FIRED_WITHIN_MS = 20 * 60_000;

export const scaledInByPolicy = (board: EvidenceBoard, alert: Alert): { change: Change; why: string } | undefined => {
  const since = alert.since;
  if (!alert.service || since === undefined || !countAlarm.test(alert.name)) return undefined;
  const change = board.changes
    .filter((candidate) => candidate.service === alert.service && candidate.kind === 'scaling' && byPolicy.test(candidate.summary) && capacityLoweredBy(candidate.summary) !== undefined)
    .filter((candidate) => candidate.at <= since && since - candidate.at <= FIRED_WITHIN_MS)
    .sort((a, b) => b.at - a.at)[0];
  return change ? { change, why: `${alert.service}'s own scaling policy scaled it in just before ("${quoteMessage(change.summary)}"): the count it watches fell where the policy put it` } : undefined;
};
