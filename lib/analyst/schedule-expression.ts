import type { Change } from './evidence-board.ts';

/**
 * What a change did to a schedule, in plain words, read from the expression it wrote. EventBridge
 * rules evaluate cron expressions in UTC, and a Scheduler schedule does too unless the request sets
 * `scheduleExpressionTimezone`: a cron expression written without one fires at its hour in UTC,
 * however the job's owners meant it.
 */

const cronExpression = /^cron\((\S+) (\S+) (\S+) (\S+) (\S+)(?: (\S+))?\)$/;
const rateExpression = /^rate\((\d+) (minutes?|hours?|days?)\)$/;

/** The request parameters a change's CloudTrail event carries, or none. */
export const requestOf = (change: Change): Record<string, unknown> => {
  const request = change.details?.['requestParameters'];
  return typeof request === 'object' && request !== null ? (request as Record<string, unknown>) : {};
};

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
