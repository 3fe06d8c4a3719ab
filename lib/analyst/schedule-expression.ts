import { isRecord } from './change-notes.ts';
import type { Change } from './evidence-board.ts';
import { SAME_TIME_MS } from './signals.ts';

/**
 * What a change did to a schedule, in plain words, read from the expression it wrote. EventBridge
 * rules evaluate cron expressions in UTC, and a Scheduler schedule does too unless the request sets
 * `scheduleExpressionTimezone`: a cron expression written without one fires at its hour in UTC,
 * however the job's owners meant it.
 */

const cronExpression = /^cron\((\S+) (\S+) (\S+) (\S+) (\S+)(?: (\S+))?\)$/;
const rateExpression = /^rate\((\d+) (minutes?|hours?|days?)\)$/;

/**
 * The request parameters of the CloudTrail events a change carries: the change may be that event, or
 * carry it (or the events it made, as `cloudTrail` or `events`) beside its own account.
 */
export const requestsOf = (change: Change): Record<string, unknown>[] => {
  const events = [change.details, ...[change.details?.['cloudTrail']].flat(), ...[change.details?.['events']].flat()].filter(isRecord);
  return events.map((event) => event['requestParameters']).filter(isRecord);
};

/** The request parameters of a change's first CloudTrail event, or none. */
const requestOf = (change: Change): Record<string, unknown> => requestsOf(change)[0] ?? {};

const isNumber = (field: string) => /^\d+$/.test(field);
const everyDay = (dayOfMonth: string, dayOfWeek: string) => /^[*?]$/.test(dayOfMonth) && /^[*?]$/.test(dayOfWeek);

const cronWords = (fields: RegExpExecArray, zone: string): string => {
  const [, minutes, hours, dayOfMonth, , dayOfWeek] = fields as unknown as string[];
  if (!isNumber(minutes!) || !isNumber(hours!)) return `it fires on the pattern ${fields[0]} (${zone})`;
  const at = `${hours!.padStart(2, '0')}:${minutes!.padStart(2, '0')} ${zone}`;
  return everyDay(dayOfMonth!, dayOfWeek!) ? `it fires once a day, at ${at}` : `it fires at ${at} on the days ${fields[0]} names`;
};

/** The schedule a change wrote and when it makes the job run, or undefined when the change wrote no schedule expression. */
export const scheduleWrittenBy = (change: Change): string | undefined => {
  const request = requestOf(change);
  const expression = request['scheduleExpression'] ?? request['ScheduleExpression'];
  if (typeof expression !== 'string') return undefined;
  const timezone = request['scheduleExpressionTimezone'];
  const zone = typeof timezone === 'string' && timezone.length > 0 ? timezone : 'UTC';
  const cron = cronExpression.exec(expression);
  if (cron) {
    const when = cronWords(cron, zone);
    return typeof timezone === 'string' ? `the schedule now reads ${expression} in ${zone}: ${when}` : `the schedule now reads ${expression} with no time zone set, so it runs in UTC: ${when}`;
  }
  const rate = rateExpression.exec(expression);
  return rate ? `the schedule now reads ${expression}: it fires every ${rate[1]} ${rate[2]}` : `the schedule now reads ${expression}`;
};

const dayNames = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
/** An EventBridge day-of-week value as 0 (Sunday) to 6: a name, or 1 (Sunday) to 7. */
const dayIndex = (value: string): number => (/^\d+$/.test(value) ? (Number(value) - 1) % 7 : dayNames.indexOf(value.toUpperCase()));

/** Whether a cron day-of-week field (`?`, `*`, `TUE`, `MON-FRI`, `2,4`) admits day `day` (0 is Sunday). */
const admitsDay = (field: string, day: number): boolean =>
  /^[*?]$/.test(field) ||
  field.split(',').some((part) => {
    const [from, to] = part.split('-');
    if (to === undefined) return dayIndex(from!) === day;
    const [start, end] = [dayIndex(from!), dayIndex(to)];
    return start <= end ? day >= start && day <= end : day >= start || day <= end;
  });

/** The cron expression a change wrote: its request's, else the last one its summary names (the new side of "old -> new"). */
const cronWrittenBy = (change: Change): RegExpExecArray | null => {
  const request = requestOf(change);
  const requested = request['scheduleExpression'] ?? request['ScheduleExpression'];
  const written = typeof requested === 'string' ? requested : change.summary.match(/cron\([^)]*\)/g)?.at(-1);
  return written === undefined ? null : cronExpression.exec(written);
};

const DAY_MS = 24 * 60 * 60_000;

/** The time zone a change's schedule fires in: its request's, or its own account's, else UTC. */
const zoneOf = (change: Change): string => {
  const timezone = requestOf(change)['scheduleExpressionTimezone'] ?? change.details?.['timezone'];
  return typeof timezone === 'string' && timezone.length > 0 ? timezone : 'UTC';
};

/**
 * When the schedule a change wrote last fired at or before `at`, in UTC (or the request's time zone
 * when it names UTC), within the day before; undefined when the change wrote no cron expression with a
 * fixed hour and minute, or it did not fire in that day.
 */
export const lastFiringOf = (change: Change, at: number): number | undefined => {
  const cron = cronWrittenBy(change);
  if (!cron || !isNumber(cron[1]!) || !isNumber(cron[2]!)) return undefined;
  if (zoneOf(change) !== 'UTC') return undefined;
  const midnight = Math.floor(at / DAY_MS) * DAY_MS;
  const sameDay = midnight + (Number(cron[2]) * 60 + Number(cron[1])) * 60_000;
  const firing = sameDay <= at ? sameDay : sameDay - DAY_MS;
  return admitsDay(cron[5]!, new Date(firing).getUTCDay()) ? firing : undefined;
};

/** How far ahead of UTC a time zone's wall clock is at `at`, or undefined for a zone the runtime does not know. */
const zoneOffsetAt = (at: number, zone: string): number | undefined => {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' }).formatToParts(at);
    const part = (type: string) => Number(parts.find((item) => item.type === type)!.value);
    return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute')) - Math.floor(at / 60_000) * 60_000;
  } catch {
    return undefined;
  }
};

/** The instant a wall-clock time in a zone stands for, the zone's offset read at that instant (daylight saving moves it). */
const instantOf = (wallClock: number, zone: string): number | undefined => {
  const first = zoneOffsetAt(wallClock, zone);
  if (first === undefined) return undefined;
  const second = zoneOffsetAt(wallClock - first, zone)!;
  return wallClock - second;
};

/** A schedule that fires more than this long after a change did not fire in the change's time. */
const LOOK_AHEAD_DAYS = 8;

/**
 * When the schedule a change wrote first fires after the change, in the time zone its request names
 * (UTC when it names none): a schedule changed between firings shows when it next fires, however long
 * after. Undefined when the change wrote no cron expression with a fixed hour and minute on any day of the month.
 */
export const nextFiringAfter = (change: Change): number | undefined => {
  const cron = cronWrittenBy(change);
  if (!cron || !isNumber(cron[1]!) || !isNumber(cron[2]!) || !/^[*?]$/.test(cron[3]!)) return undefined;
  const zone = zoneOf(change);
  const offset = zoneOffsetAt(change.at, zone);
  if (offset === undefined) return undefined;
  const localMidnight = Math.floor((change.at + offset) / DAY_MS) * DAY_MS;
  for (let day = 0; day < LOOK_AHEAD_DAYS; day += 1) {
    const wallClock = localMidnight + day * DAY_MS + (Number(cron[2]) * 60 + Number(cron[1])) * 60_000;
    const firing = instantOf(wallClock, zone);
    if (firing !== undefined && firing > change.at && admitsDay(cron[5]!, new Date(wallClock).getUTCDay())) return firing;
  }
  return undefined;
};

/** When the schedule a change wrote first fired, when that was well after the change was made: the change lay quiet until then. */
export const laterFiringOf = (change: Change): number | undefined => {
  const firing = nextFiringAfter(change);
  return firing !== undefined && firing - change.at > SAME_TIME_MS ? firing : undefined;
};
