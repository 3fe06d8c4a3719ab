import type { EvidenceBoard } from './evidence-board.ts';
import { measureClassesOf } from './metric-semantics.ts';

/**
 * A measure that the service's own alarm on it watched through its rise without firing stayed
 * under the level its owners chose to page on: the alarm, OK from before the rise to now, says the
 * rise is within what they accept (a couple of cache evictions, a DLQ message or two). The alarm is
 * the one named for the measure (`prod-sessions-evictions` for `Evictions`) or for what it measures
 * (`orders-dlq-depth` for a queue's visible messages), and the rise had time
 * to be evaluated: an alarm that has not yet seen a rise proves nothing. An alarm named in full for
 * another of the service's measures (`carts-write-throttle-events` for `WriteThrottleEvents`)
 * watches that one: its calm says nothing of a measure of the same kind (`ThrottledRequests`).
 */

/** An alarm evaluates a few periods before it fires: a rise younger than this may not have been judged. */
const JUDGED_AFTER_MS = 15 * 60_000;

/** The words of a metric's name (`ApproximateNumberOfMessagesVisible`: approximate, number, messages, visible), long enough to name it. */
const wordsOf = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 5 && !['count', 'total', 'approximate', 'number', 'average', 'maximum', 'minimum'].includes(word));

/** Whether an alarm's name carries every word of a measure's name. */
const namedInFull = (alarmName: string, measure: string): boolean => {
  const words = wordsOf(measure);
  return words.length > 0 && words.every((word) => alarmName.toLowerCase().includes(word));
};

export const heldUnderItsAlarm = (board: EvidenceBoard, series: { service: string; name: string }, risenAt: number, now: number): boolean => {
  if (now - risenAt < JUDGED_AFTER_MS) return false;
  // Alarms carry their service's name: a word the measure shares with it (`BasketRejections` at basket-api) names no measure.
  const words = wordsOf(series.name).filter((word) => !series.service.toLowerCase().includes(word));
  const classes = measureClassesOf(series.name);
  const others = [...new Set(board.series.filter((other) => other.service === series.service && other.name !== series.name).map((other) => other.name))];
  const watchesAnother = (alarmName: string) => !namedInFull(alarmName, series.name) && others.some((other) => namedInFull(alarmName, other));
  const watches = (alarmName: string) =>
    !watchesAnother(alarmName) && (words.some((word) => alarmName.toLowerCase().includes(word)) || [...measureClassesOf(alarmName)].some((measure) => classes.has(measure)));
  const alarms = board.alarms.filter((alarm) => alarm.service === series.service && watches(alarm.name));
  return alarms.length > 0 && alarms.every((alarm) => alarm.state === 'OK' && alarm.since !== undefined && Date.parse(alarm.since) <= risenAt);
};
