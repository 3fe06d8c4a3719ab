import { severityOf } from '../analysis/log-templates.ts';
import { fitTrend } from '../analysis/trend.ts';
import { alertsOf, type Alert } from './alerts.ts';
import { announcedWindowAround } from './announced-window.ts';
import { probingOf } from './client-error-probes.ts';
import type { EvidenceBoard, LogRecord, Series } from './evidence-board.ts';
import { meaningOf } from './metric-semantics.ts';
import type { Principle } from './principles.ts';
import { quoteMessage } from './quote.ts';
import { withSharedResourceUsers } from './service-map.ts';
import { iso, isFault, neighboursOf, type Signal } from './signals.ts';

/**
 * A "no incident" verdict needs positive evidence. Every alert (an alarm in ALARM, an open page, a
 * reported symptom) must be explained by something benign, and every ongoing, substantial fault
 * must be set aside by a benign explanation; absence of detected anomalies alone is not evidence of
 * health, because the detectors can miss sparse data.
 */

/** Words that announce load or work as planned: a load test, a maintenance window, a recurring job. */
const announcedWork =
  /load.?test|stress.?test|perf(ormance)? test|pen(etration)?.?test|security test|red.?team|game.?day|chaos (test|experiment)|drill|maintenance|planned|scheduled|nightly|recurring|backfill|reindex|announced|approved change/i;
/** Words that say a resource was taken out of service on purpose. */
const retirement = /decommission|retir(ed|ing|ement)|sunset|end.of.life|torn down|tear(ing)? down|scaled? (in )?to zero|removed from service/i;

/** An announcement this long before an alarm still explains it (a test ramps up, a window opens). */
const ANNOUNCED_LEAD_MS = 3 * 60 * 60_000;
/** An alarm in ALARM since before the evidence begins, with nothing new in it, is a standing condition. */
const STANDING_MS = 24 * 60 * 60_000;
/** Lines this long before an alarm fired already belong to its breach. */
const EVALUATION_SLACK_MS = 5 * 60_000;
/** A backlog that empties within this many hours at its current pace is being worked off. */
const DRAIN_HORIZON_HOURS = 12;

export interface Explanation {
  /** What is explained: an alert's name, or a signal's description. */
  subject: string;
  service?: string;
  why: string;
  /** The evidence ref that shows it, when a tool result carries it. */
  ref?: string;
  /** The time window an announcement stated for the work, when it is the explanation. */
  window?: { start: number; end: number };
  /** The principle that makes it benign (principles.ts). */
  principle: Principle;
}

export interface HealthVerdict {
  healthy: boolean;
  /** Everything that alerted and must be accounted for. */
  alerts: Alert[];
  /** Positive evidence of health, one line each. */
  explained: Explanation[];
  /** Alerts that nothing benign explains. */
  unexplained: Alert[];
  /** Ongoing, substantial faults that nothing benign explains. */
  harm: Signal[];
  /** Signals set aside as benign (announced load, a retired resource, probing, a draining backlog). */
  benign: Set<Signal>;
  /** ERROR-or-worse lines at an alerting service after it alerted. */
  errorLines: LogRecord[];
}


const round = (value: number): string => (Math.abs(value) >= 100 ? value.toFixed(0) : Number(value.toPrecision(3)).toString());

/** A resource taken out of service on purpose: nothing it shows, nor its alarms, is an incident. */
const retiredExplanation = (board: EvidenceBoard, service: string): Omit<Explanation, 'subject'> | undefined => {
  const retired = board.changes.find((change) => change.service === service && retirement.test(change.summary));
  if (retired) return { principle: 'retired-resource', service, ref: retired.ref, why: `${service} was taken out of service ("${quoteMessage(retired.summary)}")` };
  const tagged = board.services?.find((node) => node.name === service && Object.values(node.tags ?? {}).some((value) => retirement.test(value)));
  return tagged ? { principle: 'retired-resource', service, why: `${service} is tagged as taken out of service` } : undefined;
};

/**
 * Work announced shortly before `since` at or next to `service` (a load test, a window, a recurring
 * job), or at another user of a resource `service` uses: a replay into a stream is load on its readers.
 * An announcement that states its time window explains what happens inside it however early it came.
 */
const announcedExplanation = (board: EvidenceBoard, service: string, since: number, windowOnly = false): Omit<Explanation, 'subject'> | undefined => {
  const near = withSharedResourceUsers(board, service);
  for (const change of board.changes.filter((candidate) => near.has(candidate.service) && announcedWork.test(candidate.summary))) {
    const window = announcedWindowAround(change, since, EVALUATION_SLACK_MS);
    const recent = change.at <= since + EVALUATION_SLACK_MS && since - change.at <= ANNOUNCED_LEAD_MS;
    if (window || (recent && !windowOnly)) {
      return { principle: 'announced-work', service, ref: change.ref, why: `announced beforehand: "${quoteMessage(change.summary)}" (${change.service}, ${iso(change.at)})`, ...(window ? { window } : {}) };
    }
  }
  return undefined;
};

/** A backlog series: work waiting in a queue or stream, or how far a stream's reader is behind (not how old a queue's oldest item is). */
const backlogSeries = /visible|backlog|depth|pending|queue.?(size|length)|messages.?(available|waiting)|iterator.?age/i;
/** Signals about work waiting: how much, or for how long. */
const waitingSignal = /visible|backlog|depth|pending|oldest|(^|[^a-z])age([^a-z]|$)|iterator|queue/i;

/**
 * A backlog that is being worked off is not stuck: after a burst of work its size peaked and has
 * fallen steadily since, fast enough to empty soon. How old its oldest item is keeps growing while
 * a first-in-first-out backlog drains, so that is explained too.
 */
const drainingExplanation = (series: readonly Series[], service: string): Omit<Explanation, 'subject'> | undefined => {
  for (const candidate of series.filter((item) => item.service === service && backlogSeries.test(item.name))) {
    const points = candidate.points.map(([timestamp, value]) => ({ t: Date.parse(timestamp), v: value }));
    const peakIndex = points.reduce((best, point, index) => (point.v > points[best]!.v ? index : best), 0);
    const peak = points[peakIndex];
    const after = points.slice(peakIndex);
    const trend = fitTrend(after);
    if (!peak || !trend || peak.v <= 0 || trend.slopePerHour >= 0 || trend.r2 < 0.7 || trend.last > 0.95 * peak.v) continue;
    const hours = trend.last / -trend.slopePerHour;
    if (hours > DRAIN_HORIZON_HOURS) continue;
    return {
      principle: 'draining-backlog',
      service,
      ref: candidate.ref,
      why: `the backlog at ${service} is draining, not stuck: ${candidate.name} peaked at ${round(peak.v)} at ${iso(peak.t)} and has fallen steadily to ${round(trend.last)} (about ${round(-trend.slopePerHour / 60)} a minute); at this pace it is empty in about ${hours.toFixed(1)} hours`,
    };
  }
  return undefined;
};

const DAY_MS = 24 * 60 * 60_000;
/** How far from the same time of day an earlier occurrence may be and still count as the same schedule. */
const RECURRENCE_TOLERANCE_MS = 45 * 60_000;
/** Earlier days to look at: a daily job shows up a day before, a weekly one seven days before. */
const RECURRENCE_DAYS = 7;

const medianOf = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Whether `time` falls within `tolerance` of the same time of day as `reference`. */
const sameTimeOfDay = (time: number, reference: number, tolerance: number): boolean => {
  const offset = (((time - reference) % DAY_MS) + DAY_MS) % DAY_MS;
  return offset <= tolerance || DAY_MS - offset <= tolerance;
};

/**
 * A rise that happened at the same time of day on an earlier day, about as high, is a scheduled
 * job's load (a nightly reindex, a daily sweep), not a new fault: its series shows the schedule.
 * The usual level is what the series reads at other times of day; a series that publishes only
 * while the job runs (a count CloudWatch omits when it is zero) reads zero the rest of the day.
 */
const recurrenceOf = (series: readonly Series[], service: string, name: string, at: number, ref: string): Omit<Explanation, 'subject'> | undefined => {
  // Several series of one metric (a long look-back, a recent close-up, the same window on earlier days) are one record of it.
  const points = series
    .filter((candidate) => candidate.service === service && candidate.name === name)
    .flatMap((candidate) => [...candidate.points, ...(candidate.earlierDays ?? []).flatMap((day) => day.points)])
    .map(([timestamp, value]) => ({ t: Date.parse(timestamp), v: value }));
  const otherTimes = points.filter((point) => !sameTimeOfDay(point.t, at, 2 * RECURRENCE_TOLERANCE_MS));
  const usual = otherTimes.length > 0 ? medianOf(otherTimes.map((point) => point.v)) : 0;
  const peakOf = (from: number, to: number) =>
    points.filter((point) => point.t >= from && point.t <= to).reduce<{ t: number; v: number } | undefined>((best, point) => (best === undefined || point.v > best.v ? point : best), undefined);
  const now = peakOf(at, at + RECURRENCE_TOLERANCE_MS);
  if (!now || now.v <= usual) return undefined;
  for (let days = 1; days <= RECURRENCE_DAYS; days += 1) {
    const then = at - days * DAY_MS;
    const earlier = peakOf(then - RECURRENCE_TOLERANCE_MS, then + 2 * RECURRENCE_TOLERANCE_MS);
    if (earlier && earlier.v - usual >= 0.5 * (now.v - usual)) {
      return {
        principle: 'recurring-rise',
        service,
        ref,
        why: `it recurs on a schedule: ${name} at ${service} rose the same way at about the same time ${days === 1 ? 'a day' : `${days} days`} earlier (to ${round(earlier.v)} at ${iso(earlier.t)}), the load of a recurring job`,
      };
    }
  }
  return undefined;
};

const recurringExplanation = (series: readonly Series[], signal: Signal): Omit<Explanation, 'subject'> | undefined => {
  const own = series.find((candidate) => candidate.service === signal.service && candidate.ref === signal.ref && signal.text.startsWith(candidate.name));
  return own ? recurrenceOf(series, signal.service, own.name, signal.at, own.ref) : undefined;
};

/** Alerts about failures: failing work is never a schedule's known cost, however often it recurs. */
const failureAlert = /error|fault|fail|5xx|dead|dlq|timeout|crash|oom|kill|unhealthy/i;

/**
 * An alert whose service's own health metric (latency, throttles, saturation; not its demand or a
 * measure of unknown meaning, which say nothing about health) rose the same way at the same time of day on an
 * earlier day: a schedule's load, paging again.
 */
const recurringAlert = (series: readonly Series[], alert: Alert): Omit<Explanation, 'subject'> | undefined => {
  if (!alert.service || alert.since === undefined || failureAlert.test(alert.name)) return undefined;
  const own = series.filter((candidate) => candidate.service === alert.service && (meaningOf(candidate.name) === 'bad-up' || meaningOf(candidate.name) === 'bad-down'));
  for (const name of new Set(own.map((candidate) => candidate.name))) {
    const recurring = recurrenceOf(series, alert.service, name, alert.since - RECURRENCE_TOLERANCE_MS, own.find((candidate) => candidate.name === name)!.ref);
    if (recurring) return recurring;
  }
  return undefined;
};

/** Why a signal is benign, if the evidence says so. Errors and failures are never explained by announced load. */
const benignSignal = (board: EvidenceBoard, signal: Signal): Omit<Explanation, 'subject'> | undefined => {
  const retired = retiredExplanation(board, signal.service);
  if (retired) return retired;
  if (signal.kind !== 'errors' && signal.kind !== 'mentioned' && signal.kind !== 'trace') {
    const refused = signal.kind === 'metric' && meaningOf(signal.text) === 'bad-up' && /throttl|reject|denied|block|4xx/i.test(signal.text);
    const failing = signal.kind === 'metric' && meaningOf(signal.text) === 'bad-up' && /error|fault|fail|5xx|dead|dlq|timeout|crash|oom|kill/i.test(signal.text) && !/4xx/i.test(signal.text);
    // Requests refused (blocked, throttled) during work announced for that very window (a penetration test, a load test) are
    // that work being refused; announced load alone does not excuse refusing everyone else, and failures are never excused.
    const announced = failing ? undefined : announcedExplanation(board, signal.service, signal.at, refused);
    if (announced) return announced;
    // Throttling that came back with the same load on earlier days is that schedule's known cost, retried; errors never are.
    const recurring = failing ? undefined : recurringExplanation(board.series, signal);
    if (recurring) return recurring;
    if (waitingSignal.test(signal.text)) {
      const draining = drainingExplanation(board.series, signal.service);
      if (draining) return draining;
    }
  }
  return probingOf(board, signal);
};

/** Why an alert is benign, when the evidence at its service says so; `benign` are the signals already set aside. */
const benignAlert = (board: EvidenceBoard, alert: Alert, signals: readonly Signal[], benign: ReadonlyMap<Signal, Omit<Explanation, 'subject'>>, windowStart: number | undefined): Omit<Explanation, 'subject'> | undefined => {
  if (alert.recoveredAt !== undefined && !signals.some((signal) => signal.service === alert.service && isFault(signal) && signal.ongoing && signal.substantial && !benign.has(signal))) {
    return { principle: 'alarm-recovered', service: alert.service, ref: alert.ref, why: `it is back to OK since ${iso(alert.recoveredAt)}, with nothing failing at ${alert.service ?? 'its service'} now` };
  }
  if (!alert.service) return undefined;
  const retired = retiredExplanation(board, alert.service);
  if (retired) return retired;
  if (alert.since !== undefined) {
    const announced = announcedExplanation(board, alert.service, alert.since);
    if (announced) return announced;
  }
  const recurring = recurringAlert(board.series, alert);
  if (recurring) return recurring;
  const own = signals.filter((signal) => signal.service === alert.service && signal.kind !== 'alarm');
  // The alert's service shows something, and all of it is explained as benign: the explanation covers the alert.
  const ownTrouble = own.filter((signal) => isFault(signal) && signal.ongoing);
  const explainedBy = ownTrouble.map((signal) => benign.get(signal));
  if (ownTrouble.length > 0 && explainedBy.every((explanation) => explanation !== undefined)) return explainedBy[0];
  // Recovered on its own: what it watches spiked and came back, and nothing at its service is failing now.
  const transient = own.find((signal) => signal.kind === 'transient' || (isFault(signal) && !signal.ongoing));
  if (transient && ownTrouble.every((signal) => !signal.substantial)) return { principle: 'brief-spike-recovered', service: alert.service, ref: transient.ref, why: `it recovered: ${transient.description}` };
  const longStanding = alert.since !== undefined && windowStart !== undefined && windowStart - alert.since >= STANDING_MS;
  if (longStanding && !ownTrouble.some((signal) => signal.substantial)) {
    return { principle: 'standing-condition', service: alert.service, ref: alert.ref, why: `in ALARM since ${iso(alert.since!)}, long before the evidence begins, with nothing new at ${alert.service}: a standing condition, not a new incident` };
  }
  return undefined;
};

/** ERROR-or-worse lines at an alerting service, from shortly before it alerted. */
export const errorsAfterAlert = (board: EvidenceBoard, alert: Alert): LogRecord[] => {
  if (!alert.service) return [];
  const since = alert.since !== undefined ? alert.since - EVALUATION_SLACK_MS : Number.NEGATIVE_INFINITY;
  return board.logs.filter((line) => line.service === alert.service && severityOf(line.level) >= 3 && line.at >= since);
};

export const judgeHealth = (board: EvidenceBoard, signals: readonly Signal[], windowStart: number | undefined, symptom: string | undefined): HealthVerdict => {
  const benignWhy = new Map<Signal, Omit<Explanation, 'subject'>>();
  for (const signal of signals) {
    if (!isFault(signal) && signal.kind !== 'demand' && signal.kind !== 'transient') continue;
    const why = benignSignal(board, signal);
    if (why) benignWhy.set(signal, why);
  }
  const alerts = alertsOf(board, symptom);
  const explained: Explanation[] = [];
  const unexplained: Alert[] = [];
  for (const alert of alerts) {
    const why = benignAlert(board, alert, signals, benignWhy, windowStart);
    if (why) explained.push({ subject: alert.name, ...why });
    else unexplained.push(alert);
  }
  // Benign trouble worth naming: whatever was bad enough to count, anything at a retired resource (its
  // silence is expected), and a spike that recurs on a schedule (it will page again).
  for (const [signal, why] of benignWhy) {
    const worthNaming = signal.substantial || (isFault(signal) && retiredExplanation(board, signal.service) !== undefined) || recurringExplanation(board.series, signal) !== undefined;
    if (worthNaming && !explained.some((item) => item.why === why.why)) explained.push({ subject: signal.description, ...why });
  }
  const harm = signals.filter((signal) => isFault(signal) && signal.ongoing && signal.substantial && !benignWhy.has(signal));
  const retiredServices = new Set(explained.filter((item) => /taken out of service/.test(item.why)).map((item) => item.service));
  // Errors inside the window announced for the work that explains an alert (a failover in a maintenance window) are that work.
  const announcedWindows = explained.flatMap((item) => (item.window ? [item.window] : []));
  const inAnnouncedWindow = (line: LogRecord) => announcedWindows.some((window) => line.at >= window.start - EVALUATION_SLACK_MS && line.at <= window.end + EVALUATION_SLACK_MS);
  const errorLines = alerts
    .filter((alert) => alert.source !== 'report' && !retiredServices.has(alert.service))
    .flatMap((alert) => errorsAfterAlert(board, alert))
    .filter((line) => !inAnnouncedWindow(line));
  return {
    healthy: harm.length === 0 && unexplained.length === 0 && errorLines.length === 0,
    alerts,
    explained,
    unexplained,
    harm,
    benign: new Set(benignWhy.keys()),
    errorLines,
  };
};
