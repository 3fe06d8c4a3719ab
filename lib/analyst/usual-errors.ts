import { statusOf } from './access-log.ts';
import type { EvidenceBoard } from './evidence-board.ts';
import { onsetOfReadings } from './readings.ts';

/** A measure or alarm of server errors: a 5xx count. */
const serverErrorMeasure = /5xx|(?<![0-9])5\d\d(?![0-9])/i;

/**
 * Whether the service watches its server errors (a measure read, an alarm on them) and none of them
 * rose or fired.
 */
export const serverErrorsFlat = (board: EvidenceBoard, service: string): boolean => {
  const measures = board.series.filter((series) => series.service === service && serverErrorMeasure.test(series.name));
  const alarms = board.alarms.filter((alarm) => alarm.service === service && serverErrorMeasure.test(alarm.name));
  const rose = measures.some((series) => onsetOfReadings(series.points)?.direction === 'up');
  return measures.length + alarms.length > 0 && !rose && alarms.every((alarm) => alarm.state === 'OK');
};

/** Readings before the first line that show the level the service was at. */
const MIN_READINGS_BEFORE = 3;

/** Server errors a log shows: how many lines of one kind, over what stretch, and one of them. */
export interface LoggedErrors {
  from: number;
  to: number;
  count: number;
  example: string;
}

/** How many lines a minute the logged errors came at, over their own stretch (at least a minute). */
const linesPerMinuteOf = (logged: LoggedErrors): number => logged.count / Math.max(1, (logged.to - logged.from) / 60_000);

/**
 * Requests a service answered with a server error (5xx) at no more than the rate its own count of
 * them already showed are its background, however late in the evidence its logs begin to show them:
 * the service counts its server errors, that count held level across the evidence and no alarm on it
 * fired (serverErrorsFlat), and over the readings before the first of these lines it already counted
 * at least as many a minute as the lines show. Logs are a sample of what a count counts.
 */
export const withinUsualErrors = (board: EvidenceBoard, service: string, logged: LoggedErrors): boolean => {
  if ((statusOf(logged.example) ?? 0) < 500 || !serverErrorsFlat(board, service)) return false;
  const linesPerMinute = linesPerMinuteOf(logged);
  return board.series.some((series) => {
    if (series.service !== service || !serverErrorMeasure.test(series.name) || !series.periodSeconds) return false;
    const before = series.points.filter(([timestamp]) => Date.parse(timestamp) < logged.from).map(([, value]) => value);
    if (before.length < MIN_READINGS_BEFORE) return false;
    const perMinute = before.reduce((total, value) => total + value, 0) / before.length / (series.periodSeconds / 60);
    return perMinute >= linesPerMinute;
  });
};

/** Fewer server-error lines than this a minute are sparse: about one every ten minutes. */
const SPARSE_PER_MINUTE = 0.1;

/**
 * Server errors (5xx) a service logs only now and then, while its own alarm on them stayed OK from
 * before the first of them on, are under the rate its owners page on: background, not a failure.
 * Sparse only: a steady stream that an alarm missed proves nothing of the kind.
 */
export const underItsOwnAlarm = (board: EvidenceBoard, service: string, logged: LoggedErrors): boolean =>
  (statusOf(logged.example) ?? 0) >= 500 && serverErrorsFlat(board, service) && sparseUnderAlarmOn(board, service, logged, serverErrorMeasure);

/** An alarm on a service's failures of any kind: its errors, its failed work, its 5xx. */
const failureMeasure = /error|fail|5xx/i;

/**
 * The same for failed work that is no request (a job item that failed, a message left for retry):
 * errors logged only now and then, while the service's own alarm on its errors stayed OK from before
 * the first of them on, are under the rate its owners page on.
 */
export const sparseUnderItsErrorAlarm = (board: EvidenceBoard, service: string, logged: LoggedErrors, firing: ReadonlySet<string>): boolean =>
  sparseUnderAlarmOn(board, service, logged, failureMeasure, firing);

/** `firing`: alarms an alert says fired, whatever an older listing says of them. */
const sparseUnderAlarmOn = (board: EvidenceBoard, service: string, logged: LoggedErrors, measure: RegExp, firing: ReadonlySet<string> = new Set()): boolean => {
  const watched = board.alarms.some(
    (alarm) => alarm.service === service && measure.test(alarm.name) && !firing.has(alarm.name) && alarm.state === 'OK' && alarm.since !== undefined && Date.parse(alarm.since) <= logged.from,
  );
  return watched && linesPerMinuteOf(logged) <= SPARSE_PER_MINUTE;
};
