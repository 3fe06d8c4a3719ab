import type { Change, EvidenceBoard } from './evidence-board.ts';
import { requestsOf } from './schedule-expression.ts';

/**
 * A capacity the platform cut on its own (Application Auto Scaling setting a desired count) carries
 * out a scheduled action someone put on the service: the action whose schedule fired at that moment,
 * in its own time zone, is the setting to revert. Application Auto Scaling reads a scheduled
 * action's cron expression in the `timezone` of the request, UTC when none is given.
 */

/** Who acts when a scheduled action fires. */
const platformScaler = /autoscaling/i;
/** A scheduled action's recurrence: minutes, hours, day of month, month, day of week, year. */
const cronExpression = /^cron\((\d+) (\d+) \S+ \S+ \S+(?: \S+)?\)$/;
/** A scheduled action put this long before it fires is still the one that fired. */
const REACH_MS = 7 * 24 * 60 * 60_000;
/** The platform acts within minutes of the scheduled time. */
const FIRING_SLACK_MINUTES = 5;

/** Minutes after midnight of `at` (epoch ms) on the clock of `zone`; undefined for a zone the runtime does not know. */
const minutesOfDayIn = (at: number, zone: string): number | undefined => {
  try {
    const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(at));
    const field = (type: string) => Number(parts.find((part) => part.type === type)?.value);
    return field('hour') * 60 + field('minute');
  } catch {
    return undefined;
  }
};

/** Whether a scheduled action's daily cron fires at `at`, on its own clock. */
const firesAt = (request: Record<string, unknown>, at: number): boolean => {
  const schedule = request['schedule'] ?? request['Schedule'];
  const cron = typeof schedule === 'string' ? cronExpression.exec(schedule) : null;
  if (!cron) return false;
  const zone = request['timezone'] ?? request['Timezone'];
  const now = minutesOfDayIn(at, typeof zone === 'string' && zone.length > 0 ? zone : 'UTC');
  if (now === undefined) return false;
  const scheduled = Number(cron[2]) * 60 + Number(cron[1]);
  const apart = Math.abs(now - scheduled);
  return Math.min(apart, 24 * 60 - apart) <= FIRING_SLACK_MINUTES;
};

/**
 * Whether Application Auto Scaling made the change: its role is the actor, or CloudTrail names the
 * service as the caller (`sourceIPAddress`, `userAgent` or `invokedBy` of a call an AWS service made),
 * which still reads when the actor's ARN is masked.
 */
const madeByPlatform = (change: Change): boolean =>
  [change.actor, change.details?.['sourceIPAddress'], change.details?.['userAgent'], change.details?.['invokedBy']].some((who) => typeof who === 'string' && platformScaler.test(who));

/** A scheduled action someone put, and its name when the request gives one. */
export interface ScheduledAction {
  change: Change;
  name?: string;
}

/** The scheduled action behind a capacity change the platform made, if one put on the same service fired then. */
export const scheduledActionBehind = (board: EvidenceBoard, cut: Change): ScheduledAction | undefined => {
  if (!madeByPlatform(cut)) return undefined;
  return board.changes
    .filter((change) => change.service === cut.service && change.at < cut.at && cut.at - change.at <= REACH_MS)
    .sort((a, b) => b.at - a.at)
    .flatMap((change) => {
      const fired = requestsOf(change).find((request) => firesAt(request, cut.at));
      const name = fired?.['scheduledActionName'] ?? fired?.['ScheduledActionName'];
      return fired ? [{ change, ...(typeof name === 'string' ? { name } : {}) }] : [];
    })[0];
};
