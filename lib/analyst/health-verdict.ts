import { severityOf } from '../analysis/log-templates.ts';
import type { Alarm, EvidenceBoard, LogRecord } from './evidence-board.ts';
import { iso, type Signal } from './signals.ts';

/**
 * A "no incident" verdict needs positive evidence: every alarm that fires is explained by something
 * benign, and nothing at an alarmed service logs errors after its alarm went off. Absence of
 * detected anomalies alone is not evidence of health: the detectors can miss sparse data.
 */

/** Words that announce load or work as planned: a load test, a maintenance window, a recurring job. */
const announcedWork =
  /load.?test|stress.?test|perf(ormance)? test|game.?day|chaos (test|experiment)|drill|maintenance|planned|scheduled|nightly|recurring|backfill|reindex|announced|approved change/i;
/** Words that say a resource was taken out of service on purpose. */
const retirement = /decommission|retir(ed|ing|ement)|sunset|end.of.life|torn down|tear(ing)? down|scaled? (in )?to zero|removed from service/i;

/** An announcement this long before an alarm still explains it (a test ramps up, a window opens). */
const ANNOUNCED_LEAD_MS = 3 * 60 * 60_000;
/** An alarm in ALARM since before the evidence begins, with nothing new in it, is a standing condition. */
const STANDING_MS = 24 * 60 * 60_000;
/** Lines this long before an alarm fired already belong to its breach. */
const EVALUATION_SLACK_MS = 5 * 60_000;

export interface AlarmExplanation {
  alarm: Alarm;
  why: string;
  ref: string;
}

export interface HealthVerdict {
  healthy: boolean;
  /** Positive evidence of health, one line each. */
  explained: AlarmExplanation[];
  /** Alarms in ALARM that nothing benign explains. */
  unexplained: Alarm[];
  /** ERROR-or-worse lines at an alarmed service after its alarm fired. */
  errorLines: LogRecord[];
}

const neighboursOf = (board: EvidenceBoard, service: string): Set<string> => {
  const services = board.services ?? [];
  const own = services.find((node) => node.name === service)?.dependsOn ?? [];
  const callers = services.filter((node) => node.dependsOn.includes(service)).map((node) => node.name);
  return new Set([service, ...own, ...callers]);
};

/** Why a firing alarm is benign, if the evidence says so. */
export const benignExplanation = (board: EvidenceBoard, alarm: Alarm, signals: readonly Signal[], windowStart: number | undefined): AlarmExplanation | undefined => {
  const since = alarm.since ? Date.parse(alarm.since) : undefined;
  const retired = board.changes.find((change) => change.service === alarm.service && retirement.test(change.summary));
  if (retired) return { alarm, ref: retired.ref, why: `${alarm.service} was taken out of service ("${retired.summary}")` };
  if (since !== undefined) {
    const near = neighboursOf(board, alarm.service);
    const announced = board.changes.find(
      (change) => near.has(change.service) && announcedWork.test(change.summary) && change.at <= since + EVALUATION_SLACK_MS && since - change.at <= ANNOUNCED_LEAD_MS,
    );
    if (announced) return { alarm, ref: announced.ref, why: `announced beforehand: "${announced.summary}" (${announced.service}, ${iso(announced.at)})` };
    const newTrouble = signals.some((signal) => signal.service === alarm.service && signal.substantial && signal.ongoing && signal.kind !== 'alarm');
    const longStanding = windowStart !== undefined && windowStart - since >= STANDING_MS;
    if (!newTrouble && longStanding) {
      return { alarm, ref: alarm.ref, why: `in ALARM since ${alarm.since}, long before the evidence begins, with nothing new at ${alarm.service}: a standing condition, not a new incident` };
    }
  }
  return undefined;
};

/** ERROR-or-worse lines at the service of a firing alarm, from shortly before it fired. */
export const errorsAfterAlarm = (board: EvidenceBoard, alarm: Alarm): LogRecord[] => {
  const since = alarm.since ? Date.parse(alarm.since) - EVALUATION_SLACK_MS : Number.NEGATIVE_INFINITY;
  return board.logs.filter((line) => line.service === alarm.service && severityOf(line.level) >= 3 && line.at >= since);
};

export const judgeHealth = (board: EvidenceBoard, signals: readonly Signal[], windowStart: number | undefined): HealthVerdict => {
  const firing = board.alarms.filter((alarm) => alarm.state === 'ALARM');
  const explained: AlarmExplanation[] = [];
  const unexplained: Alarm[] = [];
  for (const alarm of firing) {
    const explanation = benignExplanation(board, alarm, signals, windowStart);
    if (explanation) explained.push(explanation);
    else unexplained.push(alarm);
  }
  const errorLines = firing.filter((alarm) => !explained.some((item) => item.alarm === alarm && /taken out of service/.test(item.why))).flatMap((alarm) => errorsAfterAlarm(board, alarm));
  return { healthy: unexplained.length === 0 && errorLines.length === 0, explained, unexplained, errorLines };
};
