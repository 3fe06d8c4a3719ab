import { templateOf } from '../analysis/log-templates.ts';
import { detectOnset, type Onset } from '../analysis/onset.ts';
import { fitTrend } from '../analysis/trend.ts';
import { alertsOf, triggerAlarmName, type Alert } from './alerts.ts';
import { announcedStretchOf, announcedWindowAround, announcedWindowOf } from './announced-window.ts';
import { causesIn } from './cause-signals.ts';
import { documentedRoutineAt, namesFailure } from './documented-routine.ts';
import { countsClientErrors, probingOf, refusedProbe } from './client-error-probes.ts';
import { oneCallerRefused } from './one-caller-refused.ts';
import { scaledInByPolicy } from './scaled-in.ts';
import { nothingWaiting, scalingPolicyAtWork } from './scaling-alarm.ts';
import type { Change, EvidenceBoard, LogRecord, Runbook, Series } from './evidence-board.ts';
import { isEventCount, isFullnessMeasure, meaningOf, measureClassesOf, measuresFailure } from './metric-semantics.ts';
import type { Principle } from './principles.ts';
import { foldReadings } from '../domain/statistic.ts';
import { quoteMessage } from '../text/quote.ts';
import { dependenciesOf, withSharedResourceUsers, workReachOf } from './service-map.ts';
import { sparseUnderItsErrorAlarm, withinUsualErrors } from './usual-errors.ts';
import { reportedDirection, reportNames, wordsOf } from './measure-words.ts';
import { iso, isFault, namesService, seriesLabel, severityOfLine, windowOf, type Signal } from './signals.ts';
import { timedPoints } from './readings.ts';
import { changeText } from './change-text.ts';

/**
 * A "no incident" verdict needs positive evidence. Every alert (an alarm in ALARM, an open page, a
 * reported symptom) must be explained by something benign, and every ongoing, substantial fault
 * must be set aside by a benign explanation; absence of detected anomalies alone is not evidence of
 * health, because the detectors can miss sparse data. ERROR lines at an alerting service after it
 * alerted keep the verdict an incident whatever explains the alert, unless they fall inside a window
 * announced for the work or come from a retired resource.
 *
 * Each excuse, and the evidence it needs (an excuse that almost fits explains nothing):
 * - alarm recovered: the alarm's own OK transition, after it went to ALARM (for a page, that of the
 *   alarm it relays, held for a while), and nothing failing at its service now;
 * - retired resource: a change recorded at the resource whose retirement clause names it (or no other
 *   resource), or a retirement tag on it;
 * - announced work: an announcement about this service (recorded at or next to it, naming no services
 *   only away from it); a stated UTC window must hold the onset (refusals and failures need one), and
 *   an alarm still in ALARM after the window closed outlasted it; without a stated window, only load
 *   measures, shortly after the announcement;
 * - recurring rise: earlier days that rose at the same time, as high, came back and started where
 *   today started (recurrenceOf); never failures, never a how-full measure creeping toward its limit,
 *   and for an alarm only through the measure it watches;
 * - draining backlog: the backlog fell steadily since its peak, is still at its lowest, and empties soon;
 *   an alarm on its consumer's throttling meanwhile watches that work paced, its throttled batches taken again;
 * - automated probing (client-error-probes.ts): most refused requests are scanners' or crawlers', while
 *   other requests keep being served; never a 5xx;
 * - one caller refused (one-caller-refused.ts): nearly all refused requests come from one caller, while
 *   other callers keep being served and nothing that decides who gets in changed before; never a 5xx;
 * - brief spike recovered: for a page, a report or an unlisted alarm only, a spike at its service from
 *   about its onset that came back, with nothing substantial failing now;
 * - back as its alarm saw (for a fault, not an alert): the measure's newest reading is back at its
 *   level, and an alarm of its service went back to OK after the rise;
 * - standing condition: in ALARM since a day before the evidence begins, or since well before the
 *   readings of what it watches, which then held one level (never what is left of a resource), with
 *   nothing substantial new;
 * - alarm redefined: its definition changed (PutMetricAlarm) within a week before it fired, and no
 *   measure it watches was worse since the change than on some reading before it; on a count of
 *   errors, no more error lines a period at its service than that count are then its usual ones.
 */

/** Words that announce load or work as planned: a load test, a maintenance window, a recurring job. A scheduled scaling action only sets capacity: it announces no work. */
const announcedWork =
  /load.?test|stress.?test|perf(ormance)? test|pen(etration)?.?test|security test|red.?team|game.?day|chaos (test|experiment)|drill|maintenance|planned|scheduled(?! (action|scaling|scale))|nightly|recurring|backfill|reindex|announced|approved change|\bapproved\b|change calendar|status page notice/i;
/** Words that say a resource was taken out of service on purpose. */
const retirement = /decommission|retir(e|ed|es|ing|ement)\b|sunset|end.of.life|torn down|tear(ing)? down|scaled? (in )?to zero|removed from service/i;

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
  /** The runbook that documents the routine, when it is the explanation: only the failures it names are that routine's. */
  documented?: Runbook;
  /** The principle that makes it benign (principles.ts). */
  principle: Principle;
  /** For an alarm redefined on a count of errors at its usual level: as many error lines a period as it counted before are its usual ones. */
  usualCount?: { most: number; periodMs: number };
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

/** Names of resources in a text: hyphenated or numbered identifiers (legacy-search, reports-v1, db_2), not durations (14-day) nor tickets (FIN-2231). */
const resourceNames = /\b[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+/gi;
const ticket = /^[A-Z]{2,}-\d+$/;
const resourceNamesIn = (text: string): string[] => (text.match(resourceNames) ?? []).filter((name) => !ticket.test(name));

/**
 * A resource taken out of service on purpose: nothing it shows, nor its alarms, is an incident. The
 * evidence must say so of this resource: a change recorded at it whose retirement clause names it, or
 * names no other resource ("legacy-search decommissioned; its traffic now goes to api" retires
 * legacy-search, not api), or a tag on it.
 */
const retiredExplanation = (board: EvidenceBoard, service: string): Omit<Explanation, 'subject'> | undefined => {
  const retiresThis = (summary: string) =>
    summary
      .split(/[;:,()]|\s[-–—]\s/)
      .some((clause) => retirement.test(clause) && (namesService(clause, service) || resourceNamesIn(clause).every((name) => name.toLowerCase() === service.toLowerCase())));
  const retired = board.changes.find((change) => change.service === service && retiresThis(change.summary));
  if (retired) return { principle: 'retired-resource', service, ref: retired.ref, why: `${service} was taken out of service ("${quoteMessage(retired.summary)}")` };
  const tagged = board.services?.find((node) => node.name === service && Object.values(node.tags ?? {}).some((value) => retirement.test(value)));
  return tagged ? { principle: 'retired-resource', service, why: `${service} is tagged as taken out of service` } : undefined;
};

/**
 * Work announced at or next to `service` (a load test, a window, a recurring job), or at another user
 * of a resource `service` uses: a replay into a stream is load on its readers. The evidence it needs:
 * - it is about this service: recorded at it or next to it, and when it names services the evidence
 *   knows, one of them is near it (a load test "against search-api" recorded at api is about search-api);
 *   or recorded anywhere, naming this service (a campaign's send "for booking-api to absorb");
 * - when it states a UTC window, `since` falls inside that window, however early it was announced; a
 *   stated window that does not hold `since` explains nothing, however recent the announcement;
 * - when it states no window, it came shortly before `since` (the work starting), and only where a
 *   window is not required (`windowOnly`: refusals and failures need the stated window), or where it
 *   says which refusal it will give and that is the one given (`refusedWith`: the 4xx statuses the
 *   refused requests got; "legacy /v1 answers 426" announced, 426 answered).
 */
const announcedExplanation = (
  board: EvidenceBoard,
  service: string,
  since: number,
  windowOnly = false,
  refusedWith: ReadonlySet<string> = new Set(),
): Omit<Explanation, 'subject'> | undefined => {
  const near = withSharedResourceUsers(board, service);
  const known = [...new Set([...(board.services ?? []).map((node) => node.name), ...board.changes.map((item) => item.service), ...board.alarms.map((alarm) => alarm.service)])];
  const aboutNear = (summary: string) => {
    const named = known.filter((name) => namesService(summary, name));
    return named.length === 0 || named.some((name) => near.has(name));
  };
  // Recorded elsewhere (a campaign's sender), an announcement that names this service is about it.
  const about = (candidate: Change) => (near.has(candidate.service) && aboutNear(candidate.summary)) || namesService(candidate.summary, service);
  for (const change of board.changes.filter((candidate) => about(candidate) && announcedWork.test(candidate.summary))) {
    const window = announcedWindowAround(change, since, EVALUATION_SLACK_MS);
    const stated = announcedWindowOf(change.summary) !== undefined || announcedStretchOf(change.summary) !== undefined;
    const recent = !stated && change.at <= since + EVALUATION_SLACK_MS && since - change.at <= ANNOUNCED_LEAD_MS;
    const statesRefusal = [...change.summary.matchAll(clientErrorStatus)].some(([status]) => refusedWith.has(status));
    if (window || (recent && (!windowOnly || statesRefusal))) {
      return { principle: 'announced-work', service, ref: change.ref, why: `announced beforehand: "${quoteMessage(change.summary)}" (${change.service}, ${iso(change.at)})`, ...(window ? { window } : {}) };
    }
  }
  return undefined;
};

/**
 * What the service's runbook documents as the routine of this time (documented-routine.ts): a failure
 * only when the runbook names it, and an alarm still in ALARM after the routine's window closed
 * outlasted it.
 */
const routineExplanation = (board: EvidenceBoard, service: string, at: number, failure?: string): Omit<Explanation, 'subject'> | undefined => {
  const routine = documentedRoutineAt(board, service, at, EVALUATION_SLACK_MS);
  if (!routine || (failure !== undefined && !namesFailure(routine.runbook, failure))) return undefined;
  return {
    principle: 'documented-routine',
    service,
    ref: routine.runbook.ref,
    window: routine.window,
    documented: routine.runbook,
    why: `the runbook "${routine.runbook.title}" documents it as expected at this time (${iso(routine.window.start)} to ${iso(routine.window.end)})`,
  };
};

/** A backlog series: work waiting in a queue or stream, or how far a stream's reader is behind (not how old a queue's oldest item is). */
const backlogSeries = /visible|backlog|depth|pending|waiting|queued|queue.?(size|length)|messages.?available|iterator.?age/i;
/** Signals about work waiting: how much, or for how long. */
const waitingSignal = /visible|backlog|depth|pending|waiting|queued|oldest|(^|[^a-z])age([^a-z]|$)|iterator|queue/i;

/** A backlog read coarsely (a point per several minutes) shows its fall on a few points; four falling in line are a drain. */
const FEWEST_DRAINING_POINTS = 4;

/**
 * A backlog that is being worked off is not stuck: after a burst of work its size peaked and has
 * fallen steadily since, is still at its lowest since the peak, and falls fast enough to empty soon.
 * How old its oldest item is keeps growing while a first-in-first-out backlog drains, so that is
 * explained too.
 */
const drainingExplanation = (series: readonly Series[], service: string): Omit<Explanation, 'subject'> | undefined => {
  for (const candidate of series.filter((item) => item.service === service && backlogSeries.test(item.name))) {
    const points = timedPoints(candidate.points);
    const peakIndex = points.reduce((best, point, index) => (point.v > points[best]!.v ? index : best), 0);
    const peak = points[peakIndex];
    const after = points.slice(peakIndex);
    const trend = fitTrend(after, FEWEST_DRAINING_POINTS);
    if (!peak || !trend || peak.v <= 0 || trend.slopePerHour >= 0 || trend.r2 < 0.7 || trend.last > 0.95 * peak.v) continue;
    // Still draining at the end: a backlog that fell for a while and grows again is stuck again, however it fell before.
    if (trend.last - Math.min(...after.map((point) => point.v)) > 0.05 * peak.v) continue;
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

/**
 * A consumer throttled at its limit while the queue it takes its work from drains: throttled work
 * goes back to the queue and is taken again, and the backlog is worked off at the pace the limit allows.
 */
const pacedConsumer = (board: EvidenceBoard, consumer: string): Omit<Explanation, 'subject'> | undefined => {
  const consumed = dependenciesOf(board, consumer)
    .map((queue) => drainingExplanation(board.series, queue))
    .find((found) => found !== undefined);
  return consumed && { ...consumed, service: consumer, why: `${consumer} is throttled at its limit while it works off the backlog it consumes, which goes back to the queue and is taken again: ${consumed.why}` };
};

const DAY_MS = 24 * 60 * 60_000;
/** How far from the same time of day an earlier occurrence may be and still count as the same schedule. */
const RECURRENCE_TOLERANCE_MS = 45 * 60_000;
/** Earlier days to look at: a daily job shows up a day before, a weekly one seven days before. */
const RECURRENCE_DAYS = 7;
/** Where a day's rise starts from: its level over these hours before the rise. */
const BASELINE_SPAN_MS = 6 * 60 * 60_000;
/** "Came back" and "the same level" allow this share of the rise: a level that stays up by more did not come back. */
const RETURN_SHARE = 0.25;
/** Today may exceed the highest earlier rise by this share and still be "as high"; beyond it, it is something new. */
const RANGE_SLACK = 0.1;

const medianOf = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

interface Reading {
  t: number;
  /** The value turned so that up is worse: free space read as its shortage. */
  v: number;
  raw: number;
}

/** One day's rise around a reference time: where it started, how high it went, and how low it came back before the next day's. */
interface DayRise {
  start?: number;
  peak?: Reading;
  /** The lowest level after the peak, up to just before the same time the next day; undefined when the record does not show it. */
  cameBackTo?: number;
}

/** A series' readings with those of the same window on earlier days (compareDaysBefore): one record of it. */
const recordOf = (series: Series): Series['points'] => [...series.points, ...(series.earlierDays ?? []).flatMap((day) => day.points)];

/**
 * Readings over different periods (a week read per 5 minutes beside today per minute) compare only
 * over the same period: finer readings are folded into the coarsest one's periods the way CloudWatch
 * would have read them (sums added, maxima and minima kept, averages and percentiles averaged), which
 * also smooths a short burst as the coarser reading did on earlier days. A one-minute p99 peaks
 * higher than the five-minute p99 of the same load.
 */
const foldedInto = (points: readonly [number, number][], periodMs: number, stat: string | undefined): [number, number][] => {
  const buckets = new Map<number, number[]>();
  for (const [t, value] of points) {
    const bucket = Math.floor(t / periodMs) * periodMs;
    buckets.set(bucket, [...(buckets.get(bucket) ?? []), value]);
  }
  return [...buckets].map(([bucket, values]) => [bucket, foldReadings(values, stat)]);
};

/**
 * A rise that happened at the same time of day on earlier days is a scheduled job's load (a nightly
 * reindex, a daily sweep), not a new fault, only when the record shows all of this:
 * - on an earlier day the measure rose the bad way at the same time, by at least half as much as today;
 * - that day it came back down: its lowest level after the peak, before the next day's rise (seen later that
 *   day or at the start of the next day's window), is back near where it started; a level that stays up (a
 *   volume filling, free space or memory shrinking, a backlog that never empties) is a trend that steps
 *   at the same time every day, not a recurrence;
 * - that day started from the level today started from (no creep day over day);
 * - today's level is within what the earlier days reached: a rise beyond them is new, whatever the schedule;
 * - for a measure of how full a finite resource is, no earlier day on record started from a level further
 *   from the limit than today did by more than the allowed share: a resource creeping toward its limit
 *   runs out however regularly it breathes.
 * Several series of one metric (a long look-back, a recent close-up, the same window on earlier days)
 * are one record of it. Where a day shows nothing before its rise, it starts from the lowest level it
 * shows around it; a count of events that is silent reads zero there, and where it falls silent after
 * its peak it came back to zero.
 */
const recurrenceOf = (series: readonly Series[], service: string, name: string, at: number, ref: string, worse: 'up' | 'down' = meaningOf(name) === 'bad-down' ? 'down' : 'up'): Omit<Explanation, 'subject'> | undefined => {
  const orientation = worse === 'down' ? -1 : 1;
  const byTime = new Map<number, Reading>();
  const measured = series.filter((item) => item.service === service && item.name === name);
  const coarsest = Math.max(0, ...measured.map((item) => item.periodSeconds ?? 0)) * 1000;
  for (const candidate of measured) {
    const points = recordOf(candidate).map(([timestamp, value]): [number, number] => [Date.parse(timestamp), value]);
    const finer = coarsest > 0 && (candidate.periodSeconds ?? 0) * 1000 < coarsest;
    for (const [t, value] of finer ? foldedInto(points, coarsest, candidate.stat) : points) byTime.set(t, { t, v: orientation * value, raw: value });
  }
  const readings = [...byTime.values()].sort((a, b) => a.t - b.t);
  const between = (from: number, to: number) => readings.filter((reading) => reading.t >= from && reading.t <= to);
  const highest = (items: readonly Reading[]) => items.reduce<Reading | undefined>((best, reading) => (best === undefined || reading.v > best.v ? reading : best), undefined);
  const today = highest(between(at, Number.POSITIVE_INFINITY));
  if (!today) return undefined;
  // The rise today has lasted this long: on earlier days the same stretch of the day is compared.
  const stretch = Math.max(2 * RECURRENCE_TOLERANCE_MS, today.t - at + RECURRENCE_TOLERANCE_MS);
  // A count of events CloudWatch publishes only while they happen (throttles during a nightly job) is zero where it is silent.
  const silenceIsZero = isEventCount(name);
  const spacing = medianOf(readings.slice(1).map((reading, index) => reading.t - readings[index]!.t));
  const silentWithin = (from: number, to: number): boolean => {
    const times = [from, ...between(from + 1, to).map((reading) => reading.t), ...(readings.some((reading) => reading.t > to) ? [to] : [])];
    return times.slice(1).some((time, index) => time - times[index]! > 3 * spacing);
  };
  const startOf = (reference: number): number | undefined => {
    const before = between(reference - BASELINE_SPAN_MS, reference - 1);
    const during = between(reference - RECURRENCE_TOLERANCE_MS, reference + stretch);
    if (before.length > 0) return medianOf(before.map((reading) => reading.v));
    if (silenceIsZero) return 0;
    return during.length > 0 ? Math.min(...during.map((reading) => reading.v)) : undefined;
  };
  const todayStart = startOf(at)!;
  const todayRise = today.v - todayStart;
  if (todayRise <= 0) return undefined;
  const dayRise = (days: number): DayRise & { days: number } => {
    const then = at - days * DAY_MS;
    const peak = highest(between(then - RECURRENCE_TOLERANCE_MS, then + stretch));
    if (!peak) return { days, start: startOf(then) };
    const after = [...between(peak.t + 1, then + DAY_MS - 1).map((reading) => reading.v), ...(silenceIsZero && silentWithin(peak.t, then + DAY_MS - 1) ? [0] : [])];
    return { days, start: startOf(then), peak, cameBackTo: after.length > 0 ? Math.min(...after) : undefined };
  };
  const days = Array.from({ length: RECURRENCE_DAYS }, (_, index) => dayRise(index + 1));
  const recurred = days.filter(({ start, peak, cameBackTo }) => {
    if (start === undefined || !peak || cameBackTo === undefined) return false;
    const rise = peak.v - start;
    const rose = rise >= 0.5 * todayRise;
    const cameBack = cameBackTo - start <= RETURN_SHARE * rise;
    const sameStart = Math.abs(start - todayStart) <= RETURN_SHARE * rise;
    return rose && cameBack && sameStart;
  });
  const reached = Math.max(...recurred.map(({ start, peak }) => peak!.v - start!));
  if (recurred.length === 0 || todayRise > (1 + RANGE_SLACK) * reached) return undefined;
  const creeping = isFullnessMeasure(name) && days.some(({ start }) => start !== undefined && todayStart - start > RETURN_SHARE * todayRise);
  if (creeping) return undefined;
  const nearest = recurred[0]!;
  return {
    principle: 'recurring-rise',
    service,
    ref,
    why: `it recurs on a schedule: ${name} at ${service} ${worse === 'down' ? 'fell' : 'rose'} the same way at about the same time ${nearest.days === 1 ? 'a day' : `${nearest.days} days`} earlier (to ${round(nearest.peak!.raw)} at ${iso(nearest.peak!.t)}) and came back, ${worse === 'down' ? 'the usual shape of the day' : 'the load of a recurring job'}`,
  };
};

/** Whether a measure's record at a service reaches back to the same time a day earlier. */
const recordedADayBefore = (series: readonly Series[], service: string, name: string, at: number): boolean =>
  series.some(
    (candidate) =>
      candidate.service === service &&
      candidate.name === name &&
      recordOf(candidate).some(([timestamp]) => Date.parse(timestamp) <= at - DAY_MS + RECURRENCE_TOLERANCE_MS),
  );

/**
 * A rise that recurs at this time of day (recurrenceOf). A measure read only today cannot show that
 * itself: it rose with its service's recurring load when another measure there, read over earlier
 * days too and measuring no failure, rose at the same time today and on those days.
 */
const recurringExplanation = (series: readonly Series[], signal: Signal): Omit<Explanation, 'subject'> | undefined => {
  const own = series.find((candidate) => candidate.service === signal.service && candidate.ref === signal.ref && signal.text.startsWith(candidate.name));
  if (!own) return undefined;
  // An onset is dated where the rise shows clearly, which can be a period into it: today's rise is measured, as an alarm's is, from a little before.
  const from = signal.at - RECURRENCE_TOLERANCE_MS;
  if (recordedADayBefore(series, signal.service, own.name, signal.at)) return recurrenceOf(series, signal.service, own.name, from, own.ref);
  const siblings = new Set(series.filter((candidate) => candidate.service === signal.service && candidate.name !== own.name && !measuresFailure(candidate.name)).map((candidate) => candidate.name));
  for (const name of siblings) {
    if (!recordedADayBefore(series, signal.service, name, signal.at)) continue;
    const recurring = recurrenceOf(series, signal.service, name, from, series.find((candidate) => candidate.service === signal.service && candidate.name === name)!.ref);
    if (recurring) return { ...recurring, why: `it rose with ${name} at ${signal.service}, which ${recurring.why.replace(/^it /, '')}` };
  }
  return undefined;
};

/** Alerts about failures: failing work is never a schedule's known cost, however often it recurs. */
const failureAlert = /error|fault|fail|5xx|dead|dlq|timeout|crash|oom|kill|unhealthy/i;

/** A measure or alarm of a replica's lag: how stale what its readers get is. */
const leftBehind = (text: string): boolean => causesIn(text).some((hit) => hit.label === 'replication lag');

/** The health measures at an alert's service: latency, throttles, saturation; not demand, nor a measure of unknown meaning. */
const healthMeasuresAt = (series: readonly Series[], service: string): Series[] =>
  series.filter((candidate) => candidate.service === service && (meaningOf(candidate.name) === 'bad-up' || meaningOf(candidate.name) === 'bad-down'));

/**
 * The health measures an alert's name says it watches: those sharing a word with it beyond its
 * service's name, or what they are about (a backlog, latency, storage...).
 */
const watchedBy = (series: readonly Series[], alert: Alert): Series[] => {
  if (!alert.service) return [];
  const serviceWords = wordsOf(alert.service);
  const alertWords = [...wordsOf(alert.name)].filter((word) => !serviceWords.has(word));
  const alertClasses = measureClassesOf(alertWords.join(' '));
  const shared = (candidate: Series) => alertWords.filter((word) => wordsOf(candidate.name).has(word)).length;
  const named = healthMeasuresAt(series, alert.service).filter(
    (candidate) => shared(candidate) > 0 || [...measureClassesOf(candidate.name)].some((label) => alertClasses.has(label)),
  );
  // An alarm on how much of a capacity is used ("write-capacity-high" on ConsumedWriteCapacityUnits) watches that
  // demand measure when its name says more of it than of any health measure.
  const mostNamed = Math.max(0, ...named.map(shared));
  const demand = series.filter((candidate) => candidate.service === alert.service && meaningOf(candidate.name) === 'demand' && shared(candidate) >= 2 && shared(candidate) > mostNamed);
  return demand.length > 0 ? demand : named;
};

/**
 * A measure's move a person reports ("sign-ups look way down since this morning") that it makes at
 * this time of day on earlier days too (recurrenceOf, in the direction reported) is the day's usual
 * shape, not a fault. The measure is the one at the service the report names by its words (a
 * hyphenated "sign-ups" names SignupsStarted); a report saying no direction, or both, is not read.
 */
const reportedMoveRecurs = (series: readonly Series[], alert: Alert): Omit<Explanation, 'subject'> | undefined => {
  const worse = reportedDirection(alert.said ?? '');
  if (!worse) return undefined;
  const named = new Set(series.filter((candidate) => candidate.service === alert.service && reportNames(alert.said ?? '', candidate.name)).map((candidate) => candidate.name));
  for (const name of named) {
    const ref = series.find((candidate) => candidate.service === alert.service && candidate.name === name)!.ref;
    const seenAt = alert.since ?? latestExcursionOf(series, alert.service!, name, worse);
    if (seenAt === undefined) continue;
    const recurring = recurrenceOf(series, alert.service!, name, seenAt - RECURRENCE_TOLERANCE_MS, ref, worse);
    if (recurring) return recurring;
  }
  return undefined;
};

/**
 * When a person reports a measure high or low without saying since when ("CPU was so high last
 * night"), what they saw is its furthest reading the reported way over the last day of its record.
 */
const latestExcursionOf = (series: readonly Series[], service: string, name: string, worse: 'up' | 'down'): number | undefined => {
  const points = series.filter((candidate) => candidate.service === service && candidate.name === name).flatMap((candidate) => timedPoints(candidate.points));
  const end = Math.max(...points.map((point) => point.t));
  const lastDay = points.filter((point) => point.t > end - DAY_MS);
  const orientation = worse === 'down' ? -1 : 1;
  return lastDay.reduce<(typeof lastDay)[number] | undefined>((best, point) => (best === undefined || orientation * point.v > orientation * best.v ? point : best), undefined)?.t;
};

/**
 * An alert whose service's own health measure recurs (recurrenceOf): a schedule's load, paging
 * again. When the alert's name says which measure it watches, only that measure's recurrence
 * explains it: a nightly CPU rise does not excuse a disk that fills. When it does not say, a
 * recurring measure explains it only while no other measure at the service moves the bad way
 * unexplained (`moving`). Failure alarms are never a schedule's known cost. A person's report is
 * read by the measure it names (reportedMoveRecurs).
 */
const recurringAlert = (series: readonly Series[], alert: Alert, watched: readonly Series[], moving: readonly Signal[]): Omit<Explanation, 'subject'> | undefined => {
  if (!alert.service || failureAlert.test(alert.name)) return undefined;
  if (alert.source === 'report') return reportedMoveRecurs(series, alert);
  if (alert.since === undefined) return undefined;
  const candidates = watched.length > 0 ? watched : healthMeasuresAt(series, alert.service);
  for (const name of new Set(candidates.map((candidate) => candidate.name))) {
    if (watched.length === 0 && moving.some((signal) => !signal.text.startsWith(name))) continue;
    const recurring = recurrenceOf(series, alert.service, name, alert.since - RECURRENCE_TOLERANCE_MS, candidates.find((candidate) => candidate.name === name)!.ref);
    if (recurring) return recurring;
  }
  return undefined;
};

/** An HTTP status that refuses the client's request. */
const clientErrorStatus = /\b4\d\d\b/g;

/** The 4xx statuses `service` logged from `since` on: what its refused requests were answered. */
const refusalsLoggedAt = (board: EvidenceBoard, service: string, since: number): Set<string> =>
  new Set(board.logs.filter((line) => line.service === service && line.at >= since - EVALUATION_SLACK_MS).flatMap((line) => [...line.message.matchAll(clientErrorStatus)].map(([status]) => status)));

/** Why a signal is benign, if the evidence says so. Errors and failures are never explained by announced load. */
const benignSignal = (board: EvidenceBoard, signal: Signal): Omit<Explanation, 'subject'> | undefined => {
  const retired = retiredExplanation(board, signal.service);
  if (retired) return retired;
  const fails = signal.kind === 'errors' || signal.kind === 'mentioned' || signal.kind === 'trace' || measuresFailure(signal.text);
  // Failures another service reports against this one are the reporter's routine when its runbook documents them.
  const routine = routineExplanation(board, signal.service, signal.at, fails ? signal.text : undefined) ?? (signal.from ? routineExplanation(board, signal.from, signal.at, signal.text) : undefined);
  if (routine) return routine;
  if (signal.kind !== 'errors' && signal.kind !== 'mentioned' && signal.kind !== 'trace') {
    const refused = signal.kind === 'metric' && meaningOf(signal.text) === 'bad-up' && /throttl|reject|denied|block|4xx/i.test(signal.text);
    const failing = signal.kind === 'metric' && meaningOf(signal.text) === 'bad-up' && /error|fault|fail|5xx|dead|dlq|timeout|crash|oom|kill/i.test(signal.text) && !/4xx/i.test(signal.text);
    // Requests refused (blocked, throttled) during work announced for that very window (a penetration test, a load test) are
    // that work being refused; announced load alone does not excuse refusing everyone else, and failures are never excused.
    // A replica left behind serves its readers stale data: like a refusal, only a window announced for it excuses that.
    const announced = failing ? undefined : announcedExplanation(board, signal.service, signal.at, refused || leftBehind(signal.text), refused ? refusalsLoggedAt(board, signal.service, signal.at) : undefined);
    // What is left still running out after the announced window closed is no longer that work's doing.
    const room = signal.kind === 'metric' ? seriesOf(board, signal).filter(isRoomLeft) : [];
    const closed = announced?.window !== undefined && (windowOf(board)?.end ?? 0) > announced.window.end + EVALUATION_SLACK_MS;
    const stillRunningOut = closed && room.length > 0 && !roomHeldSince(room, announced!.window!.end);
    if (announced && !stillRunningOut) return announced;
    // Throttling that came back with the same load on earlier days is that schedule's known cost, retried; errors never are.
    const recurring = failing ? undefined : recurringExplanation(board.series, signal);
    if (recurring) return recurring;
    if (waitingSignal.test(signal.text)) {
      const draining = drainingExplanation(board.series, signal.service);
      if (draining) return draining;
    }
  }
  return probingOf(board, signal) ?? oneCallerRefused(board, signal);
};

/** A shift whose newest readings are this close to where it started, as a share of its peak, has come back. */
const MOSTLY_BACK_SHARE = 0.25;
const NEWEST_READINGS = 3;

/** A metric signal's readings and the shift read on them. */
interface Shift {
  points: { t: number; v: number }[];
  onset: Onset;
}

/** The shift a metric signal was read from, when its series is on the board. */
const shiftOf = (board: EvidenceBoard, signal: Signal): Shift | undefined => {
  if (signal.kind !== 'metric') return undefined;
  const series = board.series.find((candidate) => candidate.service === signal.service && candidate.ref === signal.ref && seriesLabel(candidate) === signal.text);
  const points = timedPoints(series?.points ?? []);
  const onset = detectOnset(points);
  return onset ? { points, onset } : undefined;
};

/** Whether `value` is back near where the shift started, as a share of how far it went since. */
const backFrom = ({ points, onset }: Shift, value: number): boolean => {
  const since = points.filter((point) => point.t >= onset.at).map((point) => point.v);
  const peak = onset.direction === 'up' ? Math.max(...since) : Math.min(...since);
  return Math.abs(value - onset.baseline) <= MOSTLY_BACK_SHARE * Math.abs(peak - onset.baseline);
};

/**
 * Whether a metric's shift has come most of the way back: its newest readings sit within a quarter of
 * its peak's distance from its baseline. At a service whose alarm is back to OK, such a measure agrees
 * with the alarm, though it has not settled at its old level (other work raises it a little) and its
 * detector still reads the excursion as ongoing.
 */
const mostlyBack = (board: EvidenceBoard, signal: Signal): boolean => {
  const shift = shiftOf(board, signal);
  if (!shift || shift.points.length < NEWEST_READINGS) return false;
  return backFrom(shift, medianOf(shift.points.slice(-NEWEST_READINGS).map((point) => point.v)));
};

/**
 * A measure whose newest reading is back where it started, at a service whose own alarm went back to
 * OK after the measure rose: the alarm saw the trouble end, and the newest reading agrees, however
 * few readings a sparse series has published since.
 */
const backAsItsAlarmSaw = (board: EvidenceBoard, signal: Signal): boolean => {
  const shift = shiftOf(board, signal);
  const seenEnding = board.alarms.some((alarm) => alarm.service === signal.service && alarm.state === 'OK' && alarm.since !== undefined && Date.parse(alarm.since) > signal.at);
  if (!shift || !seenEnding) return false;
  const newest = shift.points.at(-1)!;
  return newest.t > shift.onset.at && backFrom(shift, newest.v);
};

/** A measure of what is left of a capacity: free storage, available memory. */
const isRoomLeft = (series: Series): boolean => meaningOf(series.name) === 'bad-down' && /free|available/i.test(series.name);

/** The series a metric signal was read from. */
const seriesOf = (board: EvidenceBoard, signal: Signal): Series[] =>
  board.series.filter((candidate) => candidate.service === signal.service && candidate.ref === signal.ref && signal.text.startsWith(candidate.name));

/** Readings after announced work ended that tell a level held from one still moving. */
const HELD_READINGS = 6;
/** A level that moved less than this share of itself since the work ended has held. */
const HELD_SHARE = 0.02;

/**
 * Room announced work used stays used: an alarm on what is left (free storage) that the work pushed
 * past its threshold, and that has held level since the work ended, shows the work's lasting result,
 * not something still taking room. Each measure of what is left that it watches must have been read
 * often enough since the end to show it held.
 */
const roomHeldSince = (watched: readonly Series[], ended: number): boolean => {
  const room = watched.filter(isRoomLeft);
  return room.length > 0 && room.every((series) => {
    const after = series.points.filter(([timestamp]) => Date.parse(timestamp) > ended).map(([, value]) => value);
    if (after.length < HELD_READINGS) return false;
    const level = medianOf(after);
    return level > 0 && Math.max(...after) - Math.min(...after) <= HELD_SHARE * level;
  });
};

/** An alarm that fired this long before the first reading of what it watches fired on something older than those readings. */
const FIRED_BEFORE_READINGS_MS = 60 * 60_000;

/**
 * An alarm that fired well before the readings of what it watches begin, on a measure that then
 * held one level on every reading (the same two messages in a dead-letter queue all night): what it
 * reports is old and unchanged. Never a measure of room left: one held at nothing has run out.
 */
const heldSinceFiring = (watched: readonly Series[], firedAt: number): (Series & { level: number }) | undefined => {
  if (watched.length === 0 || watched.some(isRoomLeft)) return undefined;
  const levels = watched.map((series) => {
    const points = timedPoints(series.points);
    const values = points.map((point) => point.v);
    const level = medianOf(values);
    const heldLevel = points.length >= HELD_READINGS && points[0]!.t - firedAt >= FIRED_BEFORE_READINGS_MS && Math.max(...values) - Math.min(...values) <= HELD_SHARE * Math.abs(level);
    return heldLevel ? { ...series, level } : undefined;
  });
  return levels.every((level) => level !== undefined) ? levels[0] : undefined;
};

/** How long after an alarm was redefined its firing is still read against the level before. */
const REDEFINED_HORIZON_MS = 7 * DAY_MS;

/** The latest change that redefined the alarm (CloudTrail's PutMetricAlarm naming it) before it fired. */
const redefinitionOf = (board: EvidenceBoard, alarmName: string, since: number): Change | undefined =>
  board.changes
    .filter((change) => {
      const said = changeText(change);
      return change.at <= since && since - change.at <= REDEFINED_HORIZON_MS && /PutMetricAlarm/.test(said) && said.includes(alarmName);
    })
    .sort((a, b) => a.at - b.at)
    .at(-1);

/**
 * An alarm redefined shortly before it fired (a threshold lowered, an evaluation shortened) on
 * measures that were never worse since the redefinition than they had already been before it: what
 * is new is the alarm, not the system. Every measure it watches must show that, on the readings of
 * earlier days and further back the investigation fetched.
 */
const redefinedAlarm = (board: EvidenceBoard, alert: Alert, watched: readonly Series[]): Omit<Explanation, 'subject'> | undefined => {
  if (alert.source !== 'alarm' || !alert.service || alert.since === undefined || watched.length === 0) return undefined;
  const redefined = redefinitionOf(board, alert.name.replace(/^alarm /, ''), alert.since);
  if (!redefined) return undefined;
  // The new definition names the measure it watches (CloudTrail's request parameters, or the event read into the change's details).
  const parameters = (redefined.details?.['requestParameters'] ?? redefined.details) as { metricName?: unknown } | undefined;
  const metricName = parameters?.metricName;
  const defined = watched.filter((candidate) => candidate.name === metricName);
  const levels = (defined.length > 0 ? defined : watched).map((candidate) => {
    const worse = meaningOf(candidate.name) === 'bad-down' ? -1 : 1;
    const readings = [...recordOf(candidate), ...(candidate.history ?? [])].map(([timestamp, value]) => ({ t: Date.parse(timestamp), v: worse * value }));
    const since = readings.filter((reading) => reading.t >= redefined.at);
    const breach = since.length > 0 ? Math.max(...since.map((reading) => reading.v)) : undefined;
    const asBad = breach === undefined ? [] : readings.filter((reading) => reading.t < redefined.at && reading.v >= breach);
    return { candidate, breach: worse * (breach ?? 0), asBad };
  });
  if (!levels.every(({ asBad }) => asBad.length > 0)) return undefined;
  const shown = levels.map(({ candidate, breach, asBad }) => `${candidate.name} at ${round(breach)}, as high as on ${asBad.length} ${asBad.length === 1 ? 'reading' : 'readings'} before it`).join('; ');
  const counted = levels.find(({ candidate }) => isEventCount(candidate.name) && measuresFailure(candidate.name) && candidate.periodSeconds);
  return {
    principle: 'alarm-redefined',
    service: alert.service,
    ref: redefined.ref,
    ...(counted ? { usualCount: { most: counted.breach, periodMs: counted.candidate.periodSeconds! * 1000 } } : {}),
    why: `the alarm was redefined at ${iso(redefined.at)} ("${quoteMessage(redefined.summary)}") and what it watches is at its usual level: ${shown}`,
  };
};

/**
 * Another alarm, already in ALARM before any of the evidence begins, at a service other than the one
 * the trigger is about (the alarm that fired, the page's or the question's service): it was standing
 * when this trouble was asked about. A sweep is about every service, so nothing is aside from it.
 */
const firingBeforeEvidence = (board: EvidenceBoard, alert: Alert, windowStart: number | undefined, subject: string | undefined): boolean =>
  subject !== undefined &&
  alert.source === 'alarm' &&
  alert.service !== subject &&
  alert.name !== `alarm ${triggerAlarmName(board.brief)}` &&
  alert.since !== undefined &&
  windowStart !== undefined &&
  alert.since < windowStart;

/** Why an alert is benign, when the evidence at its service says so; `benign` are the signals already set aside. */
const benignAlert = (
  board: EvidenceBoard,
  alert: Alert,
  signals: readonly Signal[],
  benign: ReadonlyMap<Signal, Omit<Explanation, 'subject'>>,
  windowStart: number | undefined,
  symptom: string | undefined,
): Omit<Explanation, 'subject'> | undefined => {
  // Recovered needs the OK transition itself, after the alert began: an OK from before a new ALARM is history.
  const recovered = alert.recoveredAt !== undefined && (alert.since === undefined || alert.recoveredAt >= alert.since);
  if (recovered && !signals.some((signal) => signal.service === alert.service && isFault(signal) && signal.ongoing && signal.substantial && !benign.has(signal) && !mostlyBack(board, signal))) {
    return { principle: 'alarm-recovered', service: alert.service, ref: alert.ref, why: `it is back to OK since ${iso(alert.recoveredAt!)}, with nothing failing at ${alert.service ?? 'its service'} now` };
  }
  if (!alert.service) return undefined;
  const retired = retiredExplanation(board, alert.service);
  if (retired) return retired;
  const listedInAlarm = board.alarms.some((alarm) => alarm.state === 'ALARM' && `alarm ${alarm.name}` === alert.name);
  if (alert.since !== undefined) {
    // Failures are that work's only inside a window announced for it (a failover in a maintenance window); an alarm
    // still in ALARM after its window closed outlasted the work, whatever began inside it.
    const outlasted = (window: { end: number } | undefined) => window !== undefined && listedInAlarm && (windowOf(board)?.end ?? 0) > window.end + EVALUATION_SLACK_MS;
    const announced = announcedExplanation(board, alert.service, alert.since, failureAlert.test(alert.name) || leftBehind(alert.name));
    if (announced && (!outlasted(announced.window) || roomHeldSince(watchedBy(board.series, alert), announced.window!.end))) return announced;
    const routine = routineExplanation(board, alert.service, alert.since);
    if (routine && !outlasted(routine.window)) return routine;
  }
  const moving = signals.filter((signal) => signal.service === alert.service && (signal.kind === 'metric' || signal.kind === 'trend') && signal.ongoing && !benign.has(signal));
  const watched = watchedBy(board.series, alert);
  const recurring = recurringAlert(board.series, alert, watched, moving);
  if (recurring) return recurring;
  const redefined = redefinedAlarm(board, alert, watched);
  if (redefined) return redefined;
  // An alarm on a consumer's throttling watches its limit pacing the work it drains.
  const paced = measureClassesOf(alert.name).has('throttles') ? pacedConsumer(board, alert.service) : undefined;
  if (paced) return paced;
  const own = signals.filter((signal) => signal.service === alert.service && signal.kind !== 'alarm');
  // The alert's service shows something, and all of it is explained as benign: the explanation covers the alert,
  // provided that, when the alert's name says which measure it watches, that measure is among what is explained.
  // Trouble too slight to count (a few slow-job warnings, CPU busy but short of its limit) neither makes harm nor keeps the alert open.
  const ownTrouble = own.filter((signal) => isFault(signal) && signal.ongoing);
  const isWatched = (signal: Signal) => watched.some(({ name }) => signal.text.startsWith(name));
  const counted = ownTrouble.filter((signal) => signal.substantial || isWatched(signal));
  const explainedBy = counted.map((signal) => benign.get(signal));
  const coversWatched = watched.length === 0 || ownTrouble.some(isWatched);
  if (counted.length > 0 && coversWatched && explainedBy.every((explanation) => explanation !== undefined)) return explainedBy[0];
  const atWork = scalingPolicyAtWork(board, alert);
  if (atWork) return { principle: 'scaling-policy-at-work', service: alert.service, ref: alert.ref, why: atWork };
  const idle = nothingWaiting(board, alert);
  if (idle) return { principle: 'scaling-policy-at-work', service: alert.service, ref: alert.ref, why: idle };
  const scaledIn = scaledInByPolicy(board, alert);
  if (scaledIn) return { principle: 'scaling-policy-at-work', service: alert.service, ref: scaledIn.change.ref, why: scaledIn.why };
  // A page, a report, or a fired alarm no listing shows stays open after what set it off has passed: a spike at its
  // service, from about when it began, that came back, with nothing failing there now, is its recovery. An alarm
  // listed in ALARM now says what it watches still breaches, so only its own OK transition shows it recovered,
  // never some measure's spike; and a spike that came and went before the alert began is not what it is about.
  const transient =
    listedInAlarm
      ? undefined
      : own.find((signal) => (signal.kind === 'transient' || (isFault(signal) && !signal.ongoing)) && (alert.since === undefined || signal.at >= alert.since - RECURRENCE_TOLERANCE_MS));
  if (transient && ownTrouble.every((signal) => !signal.substantial)) return { principle: 'brief-spike-recovered', service: alert.service, ref: transient.ref, why: `it recovered: ${transient.description}` };
  const longStanding = alert.since !== undefined && windowStart !== undefined && windowStart - alert.since >= STANDING_MS;
  if (longStanding && !ownTrouble.some((signal) => signal.substantial)) {
    return { principle: 'standing-condition', service: alert.service, ref: alert.ref, why: `in ALARM since ${iso(alert.since!)}, long before the evidence begins, with nothing new at ${alert.service}: a standing condition, not a new incident` };
  }
  if (firingBeforeEvidence(board, alert, windowStart, symptom) && !own.some((signal) => signal.substantial)) {
    return { principle: 'standing-condition', service: alert.service, ref: alert.ref, why: `in ALARM since ${iso(alert.since!)}, before any of the evidence begins, at ${alert.service}, which the ${triggerAlarmName(board.brief) ? 'alarm that called for this investigation' : 'trigger'} is not about, with nothing of substance there since: a condition already standing, not the incident asked about` };
  }
  const held = alert.since !== undefined && !ownTrouble.some((signal) => signal.substantial) ? heldSinceFiring(watched.length > 0 ? watched : healthMeasuresAt(board.series, alert.service), alert.since) : undefined;
  if (held) {
    return { principle: 'standing-condition', service: alert.service, ref: held.ref, why: `in ALARM since ${iso(alert.since!)}, before its readings begin, and ${held.name} held at ${round(held.level)} on every reading since: a standing condition, not a new incident` };
  }
  return undefined;
};

/** ERROR-or-worse lines at an alerting service, from shortly before it alerted. `alerts`: all that fired, this one among them. */
export const errorsAfterAlert = (board: EvidenceBoard, alert: Alert, alerts: readonly Alert[] = [alert]): LogRecord[] => {
  if (!alert.service) return [];
  const since = alert.since !== undefined ? alert.since - EVALUATION_SLACK_MS : Number.NEGATIVE_INFINITY;
  const errors = board.logs.filter((line) => line.service === alert.service && severityOfLine(line) >= 3 && line.at >= since && !refusedProbe(line));
  // One record refused once (a unique-key violation) is not the service failing: such an error counts when its kind repeats.
  const byKind = new Map<string, LogRecord[]>();
  for (const line of errors) {
    const kind = templateOf(line.message);
    byKind.set(kind, [...(byKind.get(kind) ?? []), line]);
  }
  const evidenceEnds = windowOf(board)?.end;
  const firing = new Set(alerts.map((fired) => fired.name.replace(/^alarm /, '')));
  const oneRecordRefused = (line: LogRecord) => {
    const causes = causesIn(line.message);
    return severityOfLine(line) < 4 && causes.length > 0 && causes.every((hit) => hit.label === 'bad data');
  };
  return [...byKind.values()].flatMap((kind) => {
    const logged = { from: kind[0]!.at, to: kind.at(-1)!.at, count: kind.length, example: kind[0]!.message };
    // Now and then is judged over all the time since the alert: a single line has no stretch of its own.
    const sinceAlert = { ...logged, from: Math.min(logged.from, since), to: Math.max(logged.to, evidenceEnds ?? logged.to) };
    const usual = withinUsualErrors(board, alert.service!, logged) || sparseUnderItsErrorAlarm(board, alert.service!, sinceAlert, firing);
    return usual ? [] : kind.filter((line) => !oneRecordRefused(line) || kind.length > 1);
  }).sort((a, b) => a.at - b.at);
};

export const judgeHealth = (board: EvidenceBoard, signals: readonly Signal[], windowStart: number | undefined, symptom: string | undefined): HealthVerdict => {
  const benignWhy = new Map<Signal, Omit<Explanation, 'subject'>>();
  for (const signal of signals) {
    if (!isFault(signal) && signal.kind !== 'demand' && signal.kind !== 'transient') continue;
    const why = benignSignal(board, signal);
    if (why) benignWhy.set(signal, why);
  }
  // A share of the client errors already found to be probing (the 403s of the 4xx a scanner got) is that probing, though
  // the lines read since it rose are too few to tell on their own.
  for (const signal of signals) {
    if (benignWhy.has(signal) || !isFault(signal) || signal.kind !== 'metric' || !countsClientErrors(signal.text)) continue;
    const probing = [...benignWhy].find(([other, why]) => other.service === signal.service && why.principle === 'automated-probing' && other.at <= signal.at + RECURRENCE_TOLERANCE_MS);
    if (probing) benignWhy.set(signal, probing[1]);
  }
  const alerts = alertsOf(board, symptom);
  const explained: Explanation[] = [];
  const unexplained: Alert[] = [];
  for (const alert of alerts) {
    const why = benignAlert(board, alert, signals, benignWhy, windowStart, symptom);
    if (why) explained.push({ subject: alert.name, ...why });
    else unexplained.push(alert);
  }
  // What rose at the same moment as a load already explained as benign (a recurring job, a backlog being worked off, announced
  // work), at the client that sends it, the resource it lands on or what that work's consumer uses to do it, without failing
  // anything (the work taking longer, more of it), is that load: a consumer at its full concurrency while its queue drains is
  // the draining, and the database connections its scaled-out tasks open are that work's.
  const loadKinds: Partial<Record<Principle, string>> = { 'recurring-rise': 'recurring load', 'draining-backlog': 'backlog being worked off', 'announced-work': 'announced work', 'documented-routine': 'documented routine' };
  const benignLoads = [
    ...alerts.flatMap((alert) => {
      const why = explained.find((item) => item.subject === alert.name && loadKinds[item.principle] !== undefined);
      return alert.service && alert.since !== undefined && why ? [{ service: alert.service, at: alert.since, kind: loadKinds[why.principle]! }] : [];
    }),
    ...[...benignWhy].flatMap(([signal, why]) => (loadKinds[why.principle] !== undefined ? [{ service: signal.service, at: signal.at, kind: loadKinds[why.principle]! }] : [])),
  ];
  for (const signal of signals) {
    if (benignWhy.has(signal) || !isFault(signal) || !signal.ongoing || signal.kind !== 'metric' || measuresFailure(signal.text)) continue;
    const load = benignLoads.find((item) => item.service !== signal.service && workReachOf(board, item.service).has(signal.service) && Math.abs(signal.at - item.at) <= RECURRENCE_TOLERANCE_MS);
    if (load) benignWhy.set(signal, { principle: 'rose-with-benign-load', service: signal.service, ref: signal.ref, why: `it rose with ${load.service}'s ${load.kind}, at the same time (${iso(load.at)}), and fails nothing: the same work` });
  }
  // Benign trouble worth naming: whatever was bad enough to count, anything at a retired resource (its
  // silence is expected), and a spike that recurs on a schedule (it will page again).
  for (const [signal, why] of benignWhy) {
    const worthNaming = signal.substantial || (isFault(signal) && retiredExplanation(board, signal.service) !== undefined) || recurringExplanation(board.series, signal) !== undefined;
    if (worthNaming && !explained.some((item) => item.why === why.why)) explained.push({ subject: signal.description, ...why });
  }
  const linesAfter = new Map(alerts.map((alert) => [alert, errorsAfterAlert(board, alert, alerts)]));
  // A redefined alarm on a count of errors at its usual level: the error lines at its service are what it counts, when there are
  // no more of them a period than it counted.
  const usualBreaches = new Set<Alert>();
  for (const alert of alerts) {
    const why = explained.find((item) => item.subject === alert.name && item.usualCount !== undefined);
    const lines = linesAfter.get(alert)!;
    if (!why?.usualCount || lines.length === 0) continue;
    if (lines.length > why.usualCount.most * Math.max(1, Math.ceil((lines.at(-1)!.at - lines[0]!.at) / why.usualCount.periodMs))) continue;
    usualBreaches.add(alert);
    for (const signal of signals.filter((candidate) => candidate.service === alert.service && candidate.kind === 'errors' && candidate.at >= alert.since! - EVALUATION_SLACK_MS)) benignWhy.set(signal, why);
  }
  const recoveredServices = new Set(explained.filter((item) => item.principle === 'alarm-recovered').map((item) => item.service));
  const harm = signals.filter(
    (signal) =>
      isFault(signal) && signal.ongoing && signal.substantial && !benignWhy.has(signal) && !(recoveredServices.has(signal.service) && mostlyBack(board, signal)) && !backAsItsAlarmSaw(board, signal),
  );
  const retiredServices = new Set(explained.filter((item) => /taken out of service/.test(item.why)).map((item) => item.service));
  // Errors inside the window announced for the work that explains an alert (a failover in a maintenance window) are that work.
  const inWindow = (line: LogRecord, window: { start: number; end: number }) => line.at >= window.start - EVALUATION_SLACK_MS && line.at <= window.end + EVALUATION_SLACK_MS;
  // A documented routine's window holds only the failures its runbook names.
  const inAnnouncedWindow = (line: LogRecord) =>
    explained.some((item) => item.window !== undefined && inWindow(line, item.window) && (item.documented === undefined || namesFailure(item.documented, line.message)));
  // An alarm back to OK has had its breach end: the errors of that breach are over, only those since the recovery count.
  const recoveredAt = (alert: Alert) => (explained.some((item) => item.subject === alert.name && item.principle === 'alarm-recovered') ? alert.recoveredAt : undefined);
  const errorLines = alerts
    .filter((alert) => alert.source !== 'report' && !retiredServices.has(alert.service) && !usualBreaches.has(alert))
    .flatMap((alert) => linesAfter.get(alert)!.filter((line) => line.at > (recoveredAt(alert) ?? Number.NEGATIVE_INFINITY)))
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
