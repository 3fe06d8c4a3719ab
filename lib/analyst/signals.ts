import { answeredAsClientError } from './access-log.ts';
import { detectOnset, detectTransientSpike, type Onset } from '../analysis/onset.ts';
import { breaches, comparisonStatedIn, thresholdStatedIn, type Comparison } from '../domain/alarm-threshold.ts';
import { sumsPerPeriod } from '../domain/statistic.ts';
import { driftStartOf, fitTrend, hoursToLimit, type Trend } from '../analysis/trend.ts';
import { escapeRegExp } from '../masking/regex-text.ts';
import { mineTemplates, severityOf, templateOf } from '../analysis/log-templates.ts';
import type { EvidenceBoard, ServiceNode } from './evidence-board.ts';
import { causesIn } from './cause-signals.ts';
import { namesServiceHost, serviceHostsOf, type ServiceHosts } from './service-hosts.ts';
import { isBadShift, isEventCount, meaningOf, measureClassesOf, runningCapacity, waitingCount } from './metric-semantics.ts';
import { quoteMessage } from '../text/quote.ts';
import { movedBetweenItsOwnSeries, retiredAfterItsRequestsLeft } from './moved-requests.ts';
import { underItsOwnAlarm, withinUsualErrors } from './usual-errors.ts';
import { timedPoints } from './readings.ts';
import { heldUnderItsAlarm } from './watched-by-alarm.ts';

/** One thing that went wrong (or moved) at one service, with the evidence ref that shows it. */
export interface Signal {
  service: string;
  kind: 'errors' | 'metric' | 'mentioned' | 'trace' | 'alarm' | 'demand' | 'transient' | 'trend';
  at: number;
  /** For a shift read on a series: the last point before it. A coarse series dates a shift to its first changed point; it may have begun any time after this one. */
  earliest?: number;
  strength: number;
  ongoing: boolean;
  ref: string;
  /** What it says, for the report (masked view). */
  description: string;
  /** Text to read causes from: error messages, metric names. */
  text: string;
  /** For `mentioned` and `trace` signals: the caller whose errors or traces point here. */
  from?: string;
  /** Bad enough to call an incident on its own (not a few warnings, not a dent well inside normal limits). */
  substantial: boolean;
  /** For `errors` signals: how many lines of its kind were logged. */
  count?: number;
}

export interface Window {
  start: number;
  end: number;
}

/** The span the evidence covers: from the oldest to the newest timestamp seen. */
export const windowOf = (board: EvidenceBoard): Window | undefined => {
  const times = [
    ...board.logs.map((line) => line.at),
    ...board.series.flatMap((series) => series.points.map(([timestamp]) => Date.parse(timestamp))),
  ].filter((time) => Number.isFinite(time));
  if (times.length === 0) return undefined;
  return { start: Math.min(...times), end: Math.max(...times) };
};

/** Whether `text` names `service` as a whole name ("api" is not named by "search-api"). */
export const namesService = (text: string, service: string): boolean => new RegExp(`(^|[^a-z0-9-])${escapeRegExp(service)}([^a-z0-9-]|$)`, 'i').test(text);

/** Onsets this close count as simultaneous: a sampling period, plus clock skew. */
export const SAME_TIME_MS = 2 * 60_000;

/** The period CloudWatch's basic monitoring reads most measures over: a point of a measure stands for the period from its time. */
export const METRIC_PERIOD_MS = 5 * 60_000;

/** An epoch-ms time as ISO-8601, without the noise of zero milliseconds. */
export const iso = (time: number): string => new Date(time).toISOString().replace('.000Z', 'Z');

/** Words that say something failed, whatever level the line was logged at. */
const failureStated = /\b(error|exception|fail(s|ed|ure)?|refused|denied|expired|timed out|unable to|cannot|could not|still waiting|OutOfMemory\w*|OOMKilled|evicted)\b/i;

/** Words by which a line says the failure it reports was got past ("retried ok", "client retried with a new URL", "3 rows skipped; continuing"). */
const recoveryStated = /\b(retried|retry) (ok|succeeded|successfully)\b|\b(succeeded|ok) (on|after) (a |the )?(retry|retries|attempt \d+)\b|\bretried with (a )?(new|fresh|refreshed)\b|[;,:]\s*continuing\b/i;

/** Words by which a warning says what it measured is still inside what was allowed ("clock skew 11s within tolerance"). */
const withinAllowance = /(?<!\bnot )\bwithin (the |its )?(tolerance|allowance|limits?|SLA|SLO)\b/i;

/**
 * The level a log line deserves: its own, or ERROR when its words state a failure with a cause
 * (a TLS handshake error on an expired certificate that a server logs at INFO), unless they also
 * say it was got past or the line is a request answered as the client's fault; a warning that says its reading is within what is allowed reports no trouble.
 * A level is what the code's author chose; the words say what happened.
 */
const levelOfLine = (line: { level: string; message: string }): string => {
  const below = severityOf(line.level) < severityOf('ERROR');
  if (below && failureStated.test(line.message) && !recoveryStated.test(line.message) && causesIn(line.message).length > 0 && !answeredAsClientError(line.message)) return 'ERROR';
  return below && withinAllowance.test(line.message) ? 'INFO' : line.level;
};

/** How severe a log line is, by the level it deserves (levelOfLine). */
export const severityOfLine = (line: { level: string; message: string }): number => severityOf(levelOfLine(line));

/**
 * A login refused for its credentials, which a database logs as FATAL (the session ends before it
 * begins): one such line is one client mistyping or holding an old password, not the database failing.
 */
const refusedLogin = (message: string): boolean => causesIn(message).some((hit) => hit.label === 'credentials');

/** A burst of errors this long past, with the service's work logged clean since, is over. */
const BURST_OVER_MS = 30 * 60_000;
const CLEAN_LINES_AFTER_BURST = 5;

/**
 * Whether a service logged its work without a complaint from shortly after `since` to the end of
 * the evidence, at least half an hour, in several lines: errors that stopped then (a deploy's
 * connections cut as it rolled) have passed. Without its routine lines read, nothing shows that.
 */
const workedCleanSince = (board: EvidenceBoard, service: string, since: number, end: number): boolean => {
  if (end - since < BURST_OVER_MS) return false;
  const after = board.logs.filter((line) => line.service === service && line.at > since);
  return after.length >= CLEAN_LINES_AFTER_BURST && after.every((line) => severityOfLine(line) < 2) && end - Math.max(...after.map((line) => line.at)) < BURST_OVER_MS / 2;
};

/** An alarm that watches a service's failures (errors, 5xx, faults, timeouts), by its name. */
const failureAlarm = /error|fault|fail|5xx|timeout|crash/i;
/** How soon after a burst's last line its alarm's return to OK still says the burst ended it. */
const RECOVERY_AFTER_BURST_MS = 15 * 60_000;

/** How long an alarm must have stayed OK, by the end of the evidence, for its OK to hold: one of minutes may flap back. */
export const OK_HELD_MS = 10 * 60_000;

/**
 * Whether the service's own alarm on its failures went back to OK after a burst (its OK dated after
 * the burst began and within a few evaluation periods of its last line), stayed OK for a while
 * since, and the service logged no error since: the alarm saw the burst end.
 */
const alarmSawItEnd = (board: EvidenceBoard, service: string, burst: { from: number; to: number }, end: number): boolean =>
  board.alarms.some((alarm) => {
    const since = alarm.since === undefined ? Number.NaN : Date.parse(alarm.since);
    return (
      alarm.service === service &&
      alarm.state === 'OK' &&
      failureAlarm.test(alarm.name) &&
      since > burst.from &&
      since >= burst.to &&
      since - burst.to <= RECOVERY_AFTER_BURST_MS &&
      end - since >= OK_HELD_MS &&
      !board.logs.some((line) => line.service === service && line.at > burst.to && severityOfLine(line) >= 3)
    );
  });

/** Bursts of errors: templates that were absent (or much rarer) early in the window and show up later. */
const errorSignals = (board: EvidenceBoard, window: Window): Signal[] => {
  const span = Math.max(window.end - window.start, 1);
  const earlyEnd = window.start + span / 3;
  const lateStart = window.end - span / 3;
  const byService = new Map<string, typeof board.logs>();
  for (const line of board.logs) {
    if (severityOfLine(line) < 2) continue;
    byService.set(line.service, [...(byService.get(line.service) ?? []), line]);
  }
  const signals: Signal[] = [];
  for (const [service, lines] of byService) {
    const mine = (subset: typeof lines) => mineTemplates(subset.map((line) => ({ t: line.at, level: levelOfLine(line), message: line.message, service })));
    const countsIn = (subset: typeof lines) => new Map(mine(subset).map((template) => [template.template, template.count]));
    const early = countsIn(lines.filter((line) => line.at < earlyEnd));
    const late = countsIn(lines.filter((line) => line.at >= lateStart));
    for (const template of mine(lines)) {
      const earlyCount = early.get(template.template) ?? 0;
      const lateCount = late.get(template.template) ?? 0;
      // Errors there from the start of the evidence, at a steady rate, are the service's background noise; so are server
      // errors its own count of them already showed at that rate before the logs did.
      const fromTheStart = template.firstSeen < window.start + span * 0.1 && lateCount <= Math.max(3 * earlyCount, earlyCount + 2);
      const logged = { from: template.firstSeen, to: template.lastSeen, count: template.count, example: template.example };
      if (fromTheStart || withinUsualErrors(board, service, logged) || underItsOwnAlarm(board, service, logged)) continue;
      const worst = Math.max(...Object.keys(template.levels).map(severityOf));
      // One stray line is not a failure, unless it is fatal; warnings count only when they repeat.
      if ((worst < 3 && template.count < 3) || (worst < 4 && template.count < 2)) continue;
      const ongoing = template.lastSeen >= window.end - Math.max(span * 0.25, 10 * 60_000) && !workedCleanSince(board, service, template.lastSeen, window.end) && !alarmSawItEnd(board, service, { from: template.firstSeen, to: template.lastSeen }, window.end);
      signals.push({
        service,
        kind: 'errors',
        at: template.firstSeen,
        strength: (worst >= 3 ? 1 : 0.4) * Math.min(1, Math.log2(1 + template.count) / 3),
        ongoing,
        substantial: (worst >= 4 && !(template.count < 2 && refusedLogin(template.example))) || (worst >= 3 && template.count >= 3),
        count: template.count,
        ref: lines.find((line) => line.message === template.example)?.ref ?? lines[0]!.ref,
        description: `${template.count}× "${quoteMessage(template.example)}" at ${service} from ${iso(template.firstSeen)} to ${iso(template.lastSeen)}`,
        text: template.example,
      });
    }
  }
  return signals;
};

const levelOf = (series: EvidenceBoard['series'][number]): number => {
  const recent = series.points.slice(-Math.max(3, Math.floor(series.points.length / 4))).map(([, value]) => value);
  return recent.sort((a, b) => a - b)[Math.floor(recent.length / 2)] ?? 0;
};

/**
 * Whether a bad shift matters: saturation near the limit, latency at least doubled, errors at
 * least 1% of the service's demand (or a large jump where demand is not measured). Throttles,
 * failures and restarts always matter.
 */
const isSubstantialShift = (series: EvidenceBoard['series'][number], onset: Onset, demandLevel: number | undefined, earlier: Points): boolean => {
  const name = series.name;
  const waiting = /backlog|visible|lag|depth/i.test(name) || ageWord.test(name);
  // Fewer than one event a period, on average, is a stray one; and a count at a level it already reached in
  // several earlier periods is its usual scatter. Neither is a shift. (How much work waits is a level, not a count.)
  const counted = !waiting && (/count/i.test(name) || series.unit === 'Count' || series.stat === 'Sum');
  const stray = counted && (onset.level < 1 || earlier.filter((point) => point.t < onset.at && point.v >= onset.level).length >= USUAL_SCATTER_PERIODS);
  if (/throttl|fail|dead|dlq|restart|oom|kill|unhealthy|evict|reject|block|denied|filtered|discard|crash/i.test(name) || waiting) return !stray && onset.relativeChange >= 0.5;
  if (/utili[sz]ation|cpu|memory|mem\b|disk|storage|percent/i.test(name) && onset.direction === 'up') return onset.level >= 80;
  if (/latency|duration|response.?time|p9\d|wait/i.test(name)) return onset.relativeChange >= 1;
  // Connections held open rise and fall with the work a few tens of percent; a pool filling up at least doubles them.
  if (/connection/i.test(name) && onset.direction === 'up') return onset.relativeChange >= 1;
  if (/error|fault|5xx|4xx|timeout|exception/i.test(name)) {
    if (stray) return false;
    // A server error rate is already a share of the requests: only a count is measured against them. (A client error
    // rate is the clients' doing as often as the service's: it stays measured as before.)
    const share = !/4xx|4\d\d/i.test(name) && (/rate|percent|ratio/i.test(name) || series.unit === 'Percent');
    return !share && demandLevel !== undefined && demandLevel > 0 ? onset.level / demandLevel >= 0.01 : onset.relativeChange >= 1;
  }
  return onset.relativeChange >= 0.5;
};

/** How old the oldest waiting item is (IteratorAge, ApproximateAgeOfOldestMessage, message_age), as a word of its own: not the "age" in usage or percentage. */
const ageWord = /(^|[^a-zA-Z])age(?![a-z])|Age(?![a-z])/;

/** Earlier periods at the new level that make it the usual scatter, not a shift. */
const USUAL_SCATTER_PERIODS = 2;

/** Within this many hours of running out, a steady decline is an incident in the making. */
const EXHAUSTION_HORIZON_HOURS = 48;

/** The share of what was free that a run toward the limit took, at least, for its own line to be extrapolated. */
const RAMP_SHARE = 0.05;

/** Readings at each end of a stretch whose medians tell how much it grew. */
const END_READINGS = 5;
/** Utilization that grew no more than this many times as fast as demand (in relative terms) is that demand's work. */
const FOLLOWS_DEMAND_SHARE = 0.5;

/** How many times over a series grew across a stretch: the median of its last readings over that of its first. */
const growthOf = (points: readonly { t: number; v: number }[]): number | undefined => {
  if (points.length < 2 * END_READINGS) return undefined;
  const first = medianOf(points.slice(0, END_READINGS).map((point) => point.v));
  const last = medianOf(points.slice(-END_READINGS).map((point) => point.v));
  return first > 0 ? last / first : undefined;
};

/**
 * Whether a processor's utilization rose with its service's own demand over the stretch it rose: it
 * is busier with more work, and it falls when the work does; CPU does not fill up and run out the
 * way memory, a disk or a pool does.
 */
const cpuFollowsDemand = (board: EvidenceBoard, series: EvidenceBoard['series'][number], points: readonly { t: number; v: number }[], from: number): boolean => {
  if (!measureClassesOf(series.name).has('cpu')) return false;
  const used = growthOf(points.filter((point) => point.t >= from));
  if (used === undefined || used <= 1) return false;
  return board.series
    .filter((other) => other.service === series.service && meaningOf(other.name) === 'demand')
    .some((demand) => {
      const grew = growthOf(timedPoints(demand.points).filter((point) => point.t >= from).sort((a, b) => a.t - b.t));
      return grew !== undefined && grew - 1 >= FOLLOWS_DEMAND_SHARE * (used - 1);
    });
};

/** Free space or memory falling steadily, or a utilization climbing toward 100%: when will it run out? */
const exhaustionOf = (board: EvidenceBoard, series: EvidenceBoard['series'][number], points: readonly { t: number; v: number }[]): Omit<Signal, 'service' | 'ref' | 'text'> | undefined => {
  const meaning = meaningOf(series.name);
  const percent = /percent|utili[sz]ation/i.test(`${series.name} ${series.unit ?? ''}`);
  const freeSpace = meaning === 'bad-down' && /free|available/i.test(series.name);
  const hoursLeft = (trend: Trend): number | undefined =>
    freeSpace
      ? hoursToLimit(trend, { floor: 0 })
      : meaning === 'bad-up' && percent
        ? hoursToLimit(trend, { ceiling: 100 })
        : undefined;
  // A level that held, then a run toward the limit (free space falling from the moment something began writing more):
  // the run alone is the line to extrapolate, and it dates the trouble. Space taken stays taken; a utilization that
  // climbs with the morning's work falls with it, so only a whole window's climb is a run toward its limit.
  const rampFrom = freeSpace ? driftStartOf(points) : undefined;
  const ramp = rampFrom === undefined ? undefined : fitTrend(points.filter((point) => point.t >= rampFrom));
  // A run that took a sliver of what was free (memory a cache settles into) is no run toward the limit, whatever its line says.
  const ran = ramp !== undefined && ramp.first - ramp.last >= RAMP_SHARE * ramp.first;
  const trend = ramp && ran && hoursLeft(ramp) !== undefined ? ramp : fitTrend(points);
  if (!trend || cpuFollowsDemand(board, series, points, trend.from)) return undefined;
  const hours = hoursLeft(trend);
  if (hours === undefined || hours > EXHAUSTION_HORIZON_HOURS) return undefined;
  const since = driftStartBefore(series, points, trend.from) ?? trend.from;
  return {
    kind: 'metric',
    at: since,
    strength: Math.min(1, trend.r2),
    ongoing: true,
    substantial: true,
    description: `${series.name} at ${series.service} is ${trend.slopePerHour < 0 ? 'falling' : 'rising'} steadily (${round(trend.first)} to ${round(trend.last)} since ${iso(since)}); at this rate it is exhausted in about ${hours.toFixed(1)} hours`,
  };
};

/** A drift read as one only when the line it has followed since it began fits it this well. */
const DRIFT_FIT = 0.9;

/**
 * Where a steady drift the window shows began, when its series was also read from further back (its
 * history) and the drift began before `seenAt`: the level it left, then the line it has followed
 * since (a disk filling from the moment a setting made something write more). A step to a new level
 * is no drift: the line after it is flat.
 */
const driftStartBefore = (series: EvidenceBoard['series'][number], points: readonly { t: number; v: number }[], seenAt: number): number | undefined => {
  const first = points[0]?.t;
  if (!series.history || first === undefined) return undefined;
  const combined = [...timedPoints(series.history).filter((point) => point.t < first), ...points];
  const start = driftStartOf(combined);
  if (start === undefined || start >= seenAt) return undefined;
  const line = fitTrend(combined.filter((point) => point.t >= start));
  return line && line.r2 >= DRIFT_FIT && isBadShift(series.name, line.slopePerHour > 0 ? 'up' : 'down') ? start : undefined;
};

/** A bad metric drifting steadily the wrong way: no incident by itself, but it says what is building up. */
const steadyDrift = (series: EvidenceBoard['series'][number], points: readonly { t: number; v: number }[]): Omit<Signal, 'service' | 'ref' | 'text'> | undefined => {
  const trend = fitTrend(points);
  if (!trend || trend.r2 < 0.9 || Math.abs(trend.last - trend.first) < 0.05 * Math.max(Math.abs(trend.first), 1e-9)) return undefined;
  if (!isBadShift(series.name, trend.slopePerHour > 0 ? 'up' : 'down')) return undefined;
  return {
    kind: 'trend',
    at: trend.from,
    strength: 0,
    ongoing: true,
    substantial: false,
    description: `${series.name} at ${series.service} ${trend.slopePerHour > 0 ? 'rising' : 'falling'} steadily from ${round(trend.first)} to ${round(trend.last)} since ${iso(trend.from)}`,
  };
};

/** How many silent periods before an event count's first point read as zeros: enough for a baseline. */
const SILENCE_AS_BASELINE = 12;
/** A finer series than this is left as published: filling it would cost more than it tells. */
const MAX_FILLED_PERIODS = 10_000;

/**
 * An event count (errors, throttles, target errors) that CloudWatch publishes only while events
 * happen reads zero where it is silent within the span its service's metrics were read over: before its first point
 * (a few periods, enough for a baseline), in its gaps and after its last point. Without that,
 * errors that begin from nothing have no baseline to rise from, and errors that stopped look ongoing.
 */
const withSilenceAsZero = (series: EvidenceBoard['series'][number], points: readonly { t: number; v: number }[], span: Window): { t: number; v: number }[] => {
  // The points' own spacing: a long window comes back thinned, wider apart than the period.
  const spacing = points.length >= 3 ? medianOf(points.slice(1).map((point, index) => point.t - points[index]!.t)) : (series.periodSeconds ?? 0) * 1000;
  // A series that reports zeros is published whether events happen or not: its silence is missing data.
  const publishedOnlyOnEvents = isEventCount(series.name) && meaningOf(series.name) === 'bad-up' && points.length > 0 && points.every((point) => point.v > 0);
  if (!publishedOnlyOnEvents || spacing <= 0 || (span.end - span.start) / spacing > MAX_FILLED_PERIODS) return [...points];
  /** Zeros at `count` steps after `from`. */
  const silence = (from: number, count: number): { t: number; v: number }[] => Array.from({ length: Math.max(0, count) }, (_, index) => ({ t: from + (index + 1) * spacing, v: 0 }));
  const stepsBetween = (from: number, to: number) => Math.ceil((to - from) / spacing) - 1;
  const first = points[0]!.t;
  const leading = Math.min(SILENCE_AS_BASELINE, Math.floor((first - span.start) / spacing));
  const before = silence(first - (leading + 1) * spacing, leading);
  const gaps = points.slice(1).flatMap((point, index) => (point.t - points[index]!.t > 1.5 * spacing ? silence(points[index]!.t, stepsBetween(points[index]!.t, point.t)) : []));
  const after = silence(points.at(-1)!.t, Math.floor((span.end - points.at(-1)!.t) / spacing));
  return [...before, ...points, ...gaps, ...after].sort((a, b) => a.t - b.t);
};

/**
 * The span the metrics an event count is published beside were read over: an event count silent inside it had no
 * events there. Those are its namespace's others at its service (the balancer's request count beside its 4xx count):
 * an application's own metrics kept for days say nothing of when the balancer's were read. Alone in its namespace,
 * or of no known namespace, it goes by all its service's metrics.
 */
const publishedSpanOf = (board: EvidenceBoard, series: EvidenceBoard['series'][number]): Window => {
  const atService = board.series.filter((candidate) => candidate.service === series.service);
  const siblings = atService.filter((candidate) => candidate !== series && series.namespace !== undefined && candidate.namespace === series.namespace);
  return spanOf(siblings.length > 0 ? [series, ...siblings] : atService);
};

/** The span some series were read over. */
const spanOf = (series: readonly EvidenceBoard['series'][number][]): Window => {
  const times = series.flatMap((item) => item.points.map(([timestamp]) => Date.parse(timestamp))).filter(Number.isFinite);
  return { start: Math.min(...times), end: Math.max(...times) };
};

/** The earlier points within its threshold that a breach at a series' newest points must follow. */
const BREACH_AFTER_POINTS = 3;
const COMPARISON_WORDS: Record<Comparison, string> = { gt: 'above', ge: 'at or above', lt: 'below', le: 'at or below' };

type Points = readonly { t: number; v: number }[];

/** Where `points` newly crossed a threshold for good: the first of its newest points past it, after earlier points all within it. */
const crossingOf = (points: Points, threshold: number, comparison: Comparison): number | undefined => {
  let first = points.length;
  while (first > 0 && breaches(points[first - 1]!.v, threshold, comparison)) first -= 1;
  const earlier = points.slice(0, first);
  return first < points.length && earlier.length >= BREACH_AFTER_POINTS && !earlier.some((point) => breaches(point.v, threshold, comparison)) ? first : undefined;
};

/**
 * An alarm in ALARM evaluates its metric at its own period, often finer than the series read back,
 * and states the threshold it crossed. Where no onset shows in a series at the alarm's service, the
 * series' newest points past that threshold, after earlier points all within it, are the breach the
 * alarm saw: a lone newest datapoint, which alone could be a partial period or noise, is a breach
 * by the alarm's own reading. Only when that series is the one at the service that crossed so: the
 * reason names a threshold, not the metric.
 */
const alarmedBreach = (board: EvidenceBoard, series: EvidenceBoard['series'][number], points: Points, pointsOf: (series: EvidenceBoard['series'][number]) => Points): Omit<Signal, 'service' | 'ref' | 'text'> | undefined => {
  for (const alarm of board.alarms.filter((candidate) => candidate.state === 'ALARM' && candidate.service === series.service)) {
    const threshold = thresholdStatedIn(alarm.reason);
    const comparison = comparisonStatedIn(alarm.reason);
    if (threshold === undefined || !comparison) continue;
    const direction = comparison === 'gt' || comparison === 'ge' ? 'up' : 'down';
    const crossed = (candidate: EvidenceBoard['series'][number]) => isBadShift(candidate.name, direction) && crossingOf(pointsOf(candidate), threshold, comparison) !== undefined;
    const first = crossingOf(points, threshold, comparison);
    if (first === undefined || !isBadShift(series.name, direction) || board.series.some((other) => other !== series && other.service === series.service && crossed(other))) continue;
    return {
      kind: 'metric',
      at: points[first]!.t,
      strength: 0.5,
      ongoing: true,
      substantial: true,
      description: `${series.name} at ${series.service} went ${COMPARISON_WORDS[comparison]} the threshold of alarm ${alarm.name} (${round(threshold)}) at ${iso(points[first]!.t)}: ${round(points.at(-1)!.v)}`,
    };
  }
  return undefined;
};

/** Words of a change that takes a resource away: an instance terminated or replaced, a target deregistered, a resource deleted. */
const removal = /terminat|delet|replac|deregister|decommission|retir|removed/i;

/**
 * Whether a series stopped publishing because its resource was taken away: a change names one of
 * its dimension values (an instance id) with a removal word, before the series' last point or soon
 * after, and the series is silent from then on while its service's others go on. Its last reading
 * is the resource's last word, not how things stand now.
 */
const removedBefore = (board: EvidenceBoard, series: EvidenceBoard['series'][number], points: Points, span: Window): boolean => {
  const last = points.at(-1)?.t;
  const spacing = points.length >= 2 ? (points.at(-1)!.t - points[0]!.t) / (points.length - 1) : undefined;
  if (last === undefined || spacing === undefined || span.end - last < 3 * spacing) return false;
  const names = Object.values(series.dimensions ?? {}).filter((value) => value.length >= 6);
  return board.changes.some((change) => change.at <= last + 3 * spacing && removal.test(change.summary) && names.some((name) => change.summary.includes(name)));
};

/** A series published with no dimensions at all is the account's total for its metric, not any one resource's. */
export const isAccountWide = (series: EvidenceBoard['series'][number]): boolean => series.dimensions !== undefined && Object.keys(series.dimensions).length === 0;

/** How a metric signal names its series: the metric and its dimension values, or the whole account's when published without any. */
export const seriesLabel = (series: EvidenceBoard['series'][number]): string => {
  if (!series.dimensions) return series.name;
  return isAccountWide(series) ? `${series.name} (account-wide)` : `${series.name} ${Object.values(series.dimensions).join('/')}`;
};

const metricSignals = (board: EvidenceBoard): Signal[] => {
  const spans = new Map([...new Set(board.series.map((series) => series.service))].map((service) => [service, spanOf(board.series.filter((series) => series.service === service))]));
  // A series' points are read once: an alarm's breach is looked for in its service's other series too.
  const read = new Map<EvidenceBoard['series'][number], Points>();
  const pointsOf = (series: EvidenceBoard['series'][number]): Points => {
    const known = read.get(series);
    if (known) return known;
    const points = withSilenceAsZero(series, timedPoints(series.points).sort((a, b) => a.t - b.t), publishedSpanOf(board, series));
    read.set(series, points);
    return points;
  };
  return board.series.flatMap((series): Signal[] => {
    const points = pointsOf(series);
    const onset = detectOnset(points, { newestMayBePartial: sumsPerPeriod(series.stat) });
    const label = seriesLabel(series);
    const base = { service: series.service, ref: series.ref, text: label };
    const exhaustion = exhaustionOf(board, series, points);
    // A run toward a limit that began partway through the window (flat, then a ramp) dates from the ramp, not from the window's start;
    // one its longer history shows began before the window dates from there.
    const beganBefore = points.length > 0 && exhaustion !== undefined && exhaustion.at < points[0]!.t;
    if (exhaustion) return [{ ...base, ...exhaustion, ...(onset && isBadShift(series.name, onset.direction) && !beganBefore ? { at: onset.at } : {}) }];
    if (onset) {
      // A ramp the window caught partway is dated from where its longer history shows it began.
      const driftFrom = isBadShift(series.name, onset.direction) && onset.recoveredAt === undefined ? driftStartBefore(series, points, onset.at) : undefined;
      const change =
        driftFrom === undefined
          ? `${series.name} at ${series.service} went ${onset.direction} from ${round(onset.baseline)} to ${round(onset.level)} at ${iso(onset.at)}${onset.recoveredAt ? `, back by ${iso(onset.recoveredAt)}` : ''}`
          : `${series.name} at ${series.service} has gone ${onset.direction} steadily since ${iso(driftFrom)}, to ${round(onset.level)}`;
      const common = { ...base, at: driftFrom ?? onset.at, ...(onset.after !== undefined ? { earliest: onset.after } : {}), strength: Math.min(1, onset.score / 8), ongoing: onset.recoveredAt === undefined && !removedBefore(board, series, points, spans.get(series.service)!), description: change };
      // Copies running that fell to none: the work stopped, however a fall in their number otherwise reads (scaling in with the load).
      const stopped = runningCapacity.test(series.name) && onset.direction === 'down' && onset.level < 0.5;
      // A target emptied after its requests had left it (the old side of a blue/green switch) was retired.
      if (onset.direction === 'down' && retiredAfterItsRequestsLeft(board, series, onset.at)) return [];
      if (isBadShift(series.name, onset.direction) || stopped) {
        const demand = board.series.filter((other) => other.service === series.service && meaningOf(other.name) === 'demand').map(levelOf);
        // Earlier days and a longer history are earlier periods too: a count's usual scatter shows there as well.
        const before = timedPoints([...(series.earlierDays ?? []).flatMap((day) => day.points), ...(series.history ?? [])]);
        const substantial = isSubstantialShift(series, onset, demand.length > 0 ? Math.max(...demand) : undefined, [...points, ...before]) && !heldUnderItsAlarm(board, series, onset.at, points.at(-1)!.t);
        return [{ ...common, kind: 'metric', substantial }];
      }
      // A surge is demand at least doubled; a rise of a few tens of percent is ordinary variation.
      // Requests moved onto one series from another of the service's own (blue to green) are no more requests.
      // More copies running is a scaler answering the load (or a backlog), not load of its own.
      if (meaningOf(series.name) === 'demand' && onset.direction === 'up' && !runningCapacity.test(series.name)) return [{ ...common, kind: 'demand', substantial: onset.relativeChange >= 1 && !movedBetweenItsOwnSeries(board, series, onset.at) }];
      return [];
    }
    const breach = alarmedBreach(board, series, points, pointsOf);
    if (breach) return [{ ...base, ...breach }];
    const trend = steadyDrift(series, points);
    if (trend) return [{ ...base, ...trend }];
    const spike = detectTransientSpike(points);
    if (spike && isBadShift(series.name, spike.direction)) {
      return [{
        ...base,
        kind: 'transient',
        at: spike.at,
        strength: 0,
        ongoing: false,
        substantial: false,
        description: `${series.name} at ${series.service} spiked to ${round(spike.peak)} at ${iso(spike.at)} and recovered by ${iso(spike.until)}`,
      }];
    }
    return [];
  });
};

/** A throughput this far below its usual level has stopped. */
const STOPPED_SHARE = 0.05;
/** A series silent for this many of its periods, while the others go on, has stopped publishing. */
const SILENT_PERIODS = 3;

const medianOf = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Where a throughput series stops: its first point at about zero for good, or just after its last
 * working point when a silence of several periods follows (up to the end, or up to a zero reading).
 */
const stopOf = (points: readonly { t: number; v: number }[], evidenceEnd: number): number | undefined => {
  const period = medianOf(points.slice(1).map((point, index) => point.t - points[index]!.t));
  // Read on the readings with work in them: a stop longer than the work before it leaves a median of zero.
  const usual = medianOf(points.map((point) => point.v).filter((value) => value > 0));
  if (period <= 0 || usual <= 0) return undefined;
  let firstZero = points.length;
  while (firstZero > 0 && points[firstZero - 1]!.v <= STOPPED_SHARE * usual) firstZero -= 1;
  const lastWorking = points[firstZero - 1];
  if (!lastWorking) return undefined;
  const silenceEnds = points[firstZero]?.t ?? evidenceEnd;
  if (silenceEnds - lastWorking.t >= SILENT_PERIODS * period) return lastWorking.t + period;
  return points.length - firstZero >= 2 ? points[firstZero]!.t : undefined;
};

/** A count of work that succeeded: throughput, though its fall is also bad. */
const successCount = /success(ful)?.?(count|events|requests|invocations)|(count|requests|events).?success|2xx/i;

/** A count of what consumers took off a queue or stream: what stops when nothing is left, unlike what arrives. */
const takenOff = /received|deleted|consumed|processed/i;
/** A backlog held this small beside its own peak is empty but for what keeps arriving. */
const EMPTY_SHARE = 0.01;

/**
 * Work done stops when nothing is left to do: a backlog worked off to empty leaves only the trickle
 * that keeps arriving. A service whose every waiting count stayed near nothing since, beside the peak
 * it was worked down from, did not stop its work.
 */
const workedOff = (board: EvidenceBoard, service: string, since: number): boolean => {
  const waiting = board.series.filter((series) => series.service === service && waitingCount.test(series.name));
  return (
    waiting.length > 0 &&
    waiting.every((series) => {
      const points = timedPoints(series.points);
      const peak = Math.max(...points.map((point) => point.v));
      const after = points.filter((point) => point.t >= since);
      return after.length > 0 && peak > 0 && Math.max(...after.map((point) => point.v)) <= EMPTY_SHARE * peak;
    })
  );
};

/**
 * Work that stops is harm even when nothing errors: a throughput (invocations, messages received,
 * requests) that ran steadily drops to zero or stops publishing. It matters when the work it serves
 * keeps coming, shown by a neighbour's throughput going on (a consumer stops while its source still
 * publishes); without that, it may be quiet hours or a job that finished, worth a look but no incident.
 */
const stoppedWork = (board: EvidenceBoard): Signal[] => {
  // Work done is counted as demand (invocations, messages received) or as its successes (PutEvents successes, 2xx).
  const demand = board.series.filter((series) => (meaningOf(series.name) === 'demand' || successCount.test(series.name)) && series.points.length >= 6);
  const pointsOf = (series: EvidenceBoard['series'][number]) => timedPoints(series.points).sort((a, b) => a.t - b.t);
  const evidenceEnd = Math.max(...board.series.map((series) => Date.parse(series.points.at(-1)?.[0] ?? '')).filter(Number.isFinite));
  const evidenceStart = Math.min(...board.series.map((series) => Date.parse(series.points[0]?.[0] ?? '')).filter(Number.isFinite));
  const stops = new Map(demand.map((series) => [series, stopOf(pointsOf(series), evidenceEnd)]));
  const measured = new Set(demand.map((series) => series.service));
  return demand.flatMap((series): Signal[] => {
    const points = pointsOf(series);
    const stoppedAt = stops.get(series);
    if (stoppedAt === undefined) return [];
    const before = points.filter((point) => point.t < stoppedAt);
    const steady = before.length >= 6 && before.filter((point) => point.v > 0).length >= 0.8 * before.length && before[0]!.t - evidenceStart <= 0.2 * (evidenceEnd - evidenceStart);
    if (!steady) return [];
    const usual = medianOf(before.map((point) => point.v));
    /** Another series' values before and since this one stopped. */
    const around = (other: EvidenceBoard['series'][number]) => {
      const otherPoints = pointsOf(other);
      return { earlier: otherPoints.filter((point) => point.t < stoppedAt).map((point) => point.v), later: otherPoints.filter((point) => point.t >= stoppedAt).map((point) => point.v) };
    };
    // Work that moved to another series of the same measure at the same service (the new writer after a failover, another
    // node after a rebalance) did not stop: that series took up about as much as this one did.
    const tookOver = demand.some((other) => {
      if (other === series || other.service !== series.service || other.name !== series.name || stops.get(other) !== undefined) return false;
      const { earlier, later } = around(other);
      return medianOf(later) - medianOf(earlier) >= 0.5 * usual;
    });
    if (tookOver) return [];
    // A neighbour that publishes no throughput of its own (an event bus, a topic read through its rules) is seen through its
    // own neighbours: the producers writing to the bus show whether the work still arrives.
    const near = new Set([...neighboursOf(board, series.service)].flatMap((name) => (name === series.service || measured.has(name) ? [name] : [...neighboursOf(board, name)])));
    if (takenOff.test(series.name) && workedOff(board, series.service, stoppedAt)) return [];
    const goingOn = demand.find((other) => {
      if (other === series || stops.get(other) !== undefined || !near.has(other.service)) return false;
      const { earlier, later } = around(other);
      return later.length >= 2 && earlier.length > 0 && medianOf(later) >= 0.5 * medianOf(earlier);
    });
    return [{
      service: series.service,
      kind: 'metric',
      at: stoppedAt,
      strength: goingOn ? 0.8 : 0.2,
      ongoing: true,
      substantial: goingOn !== undefined,
      ref: series.ref,
      description: `${series.name} at ${series.service} stopped at ${iso(stoppedAt)} (usually about ${round(usual)} a period)${goingOn ? `, while ${goingOn.name} at ${goingOn.service} kept going: the work still arrives but is no longer done` : ''}`,
      text: `${series.name} stopped`,
    }];
  });
};

const round = (value: number): string => (Math.abs(value) >= 100 ? value.toFixed(0) : Number(value.toPrecision(3)).toString());

/** A service, the services it calls and the services that call it. */
export const neighboursOf = (board: EvidenceBoard, service: string): Set<string> => {
  const services = board.services ?? [];
  const own = services.find((node) => node.name === service)?.dependsOn ?? [];
  const callers = services.filter((node) => node.dependsOn.includes(service)).map((node) => node.name);
  return new Set([service, ...own, ...callers]);
};

/** Whether one of two services calls the other, directly or not. */
export const callsEitherWay = (services: readonly ServiceNode[], a: string, b: string): boolean => calleesOf(services, a).has(b) || calleesOf(services, b).has(a);

/** Everything a service calls, directly or not. */
export const calleesOf = (services: readonly ServiceNode[], service: string): Set<string> => {
  const found = new Set<string>();
  const queue = [service];
  while (queue.length > 0) {
    const current = queue.shift();
    const node = services.find((candidate) => candidate.name === current);
    for (const callee of node?.dependsOn ?? []) {
      if (!found.has(callee) && callee !== service) {
        found.add(callee);
        queue.push(callee);
      }
    }
  }
  return found;
};

const ofKind =
  (kind: string) =>
  (node: ServiceNode): boolean =>
    node.kind === kind;

/** An in-memory cache (ElastiCache, MemoryDB) is modelled as `other`: its ARN or its engine says what it is. */
export const isCache = (node: ServiceNode): boolean => /:(elasticache|memorydb):/.test(node.arn ?? '') || /redis|valkey|memcache/i.test(Object.values(node.tags ?? {}).join(' '));

/** A KMS key, whatever kind the map gives it: its ARN or its tags say what it is. */
const isKey = (node: ServiceNode): boolean => node.kind === 'kms' || /:kms:/.test(node.arn ?? '') || /\bkms\b|key management/i.test(Object.values(node.tags ?? {}).join(' '));

/** KMS's own words in an error: its exceptions, or a key's ARN. */
const keyRefusal = /\bKMS\b|DisabledException|KMSInvalidStateException|:key\/[0-9a-f-]{8,}/;

/** Words in an error that say which kind of datastore it is about. */
const datastoreWords: readonly [RegExp, (node: ServiceNode) => boolean][] = [
  [/jdbc|\bsql|postgres|mysql|aurora|mariadb|hikari|psycopg|pgbouncer|connection to server|database|\brds\b/i, ofKind('rds')],
  [/dynamo/i, ofKind('dynamodb')],
  [/\bsqs\b|queue/i, ofKind('sqs')],
  [/\bsns\b|topic/i, ofKind('sns')],
  [/\bs3\b|bucket/i, ofKind('s3')],
  // Replies only a Redis-protocol server gives (ReplyError, OOM ... 'maxmemory', WRONGTYPE, MOVED, CLUSTERDOWN), or the engine named.
  [/redis|valkey|memcache|elasticache|ReplyError|'maxmemory'|\bWRONGTYPE\b|\bMOVED \d+|\bCLUSTERDOWN\b/i, isCache],
];
/** A consumer's note of what it did with a message it could not handle: the queue keeps it, as it should. */
const messageFate = /\b(returned|put back|sent back|released|back)\s+(on|to|in|into)\s+(the\s+)?queue\b|\brequeue(d|ing)?\b/gi;
const outboundWords = /<(HOST|URL|IP)_\d+>|upstream|third.?party|provider|vendor|external|partner|https?:\/\//i;

const sharedKinds = new Set(['sqs', 'sns', 's3', 'dynamodb', 'kinesis']);

/**
 * Whether `text` names a third party by its brand: the first word of its name ("telvio" for
 * `telvio-sms`), as callers' logs call a provider, when that word is no part of another service's
 * name. Our own services are named in full; a provider's suffix is the map's, not the caller's.
 */
const namesBrand = (services: readonly ServiceNode[], text: string, service: string): boolean => {
  if (services.find((node) => node.name === service)?.kind !== 'external') return false;
  const brand = service.split(/[-_.]/)[0]!;
  if (brand.length < 4 || brand === service) return false;
  const wordsOf = (name: string) => name.toLowerCase().split(/[-_.]/);
  if (services.some((node) => node.name !== service && wordsOf(node.name).includes(brand.toLowerCase()))) return false;
  // A word inside a dotted or hyphenated compound (a package, a class, a host, a thread name) is the caller’s code naming a concept, not the provider.
  return new RegExp(`(^|[^a-z0-9.-])${escapeRegExp(brand)}([^a-z0-9.-]|$)`, 'i').test(text);
};

/** Services that use the same queue, topic, bucket or table as `service`: producers and consumers of its input. */
const coClientsOf = (services: readonly ServiceNode[], service: string): Set<string> => {
  const shared = (services.find((node) => node.name === service)?.dependsOn ?? []).filter((name) =>
    sharedKinds.has(services.find((node) => node.name === name)?.kind ?? ''),
  );
  return new Set(services.filter((node) => node.name !== service && node.dependsOn.some((name) => shared.includes(name))).map((node) => node.name));
};

/**
 * A rejection of the caller's own identity is not a failure of the callee: the callee works and
 * enforces its rules. A TLS alert received from the peer (alert 42 bad certificate, 45 certificate
 * expired) or an error about this side's client certificate says the peer refused the certificate
 * this side presented; "<caller's role> is not authorized to perform" or a refused password says
 * the caller's identity lacks the right. What to fix is the caller's credential or a policy on the
 * path (found by the change that altered it), so the error is no evidence against the callee.
 */
export const ownIdentityRejected =
  /alert number 4[25]\b|sslv3 alert (certificate|bad certificate)|received fatal alert: (certificate_expired|bad_certificate)|client certificate|is not authori[sz]ed to perform|password authentication failed|Access denied for user/i;

/** A field that lists what worked (`carriers_ok=shipwise`, `succeeded=eu-1`): what it names is not what failed. */
const saidToWork = /(?<![a-z])(?:ok|succeeded|success|healthy)=\S+/gi;

/**
 * A proxy's report of a client session pinned to a database connection is about its own pool and the
 * clients' sessions, not a failure of the database behind it.
 *
 * Which dependency a service's error is about: one it names, not as one that worked; else, with masked hosts hiding the
 * name, the only datastore of the kind the error is about, or the only third party on the path
 * when the error is about an outbound call.
 */
const blamedDependencies = (services: readonly ServiceNode[], hosts: ServiceHosts, caller: string, text: string): string[] => {
  if (ownIdentityRejected.test(text) || causesIn(text).some((hit) => hit.label === 'pinning')) return [];
  const callees = services.length > 0 ? calleesOf(services, caller) : new Set<string>();
  const nodeOf = (name: string): ServiceNode => services.find((node) => node.name === name) ?? { name, dependsOn: [], calledBy: [] };
  const only = (candidates: string[]) => (candidates.length === 1 ? candidates : []);
  const blamed = text.replace(saidToWork, ' ');
  const names = (candidates: Iterable<string>) =>
    [...candidates].filter((name) => name !== caller && (namesService(blamed, name) || namesBrand(services, blamed, name) || namesServiceHost(hosts, blamed, name)));
  const named = names(callees);
  // An object or secret that cannot be decrypted names its bucket or store, but the key refused, wherever it sits on the
  // path: the complaint is against both, so the search reaches the key through the store that encrypts with it.
  const keys = keyRefusal.test(text) ? only([...callees].filter((callee) => isKey(nodeOf(callee)))) : [];
  if (keys.length > 0) return [...new Set([...keys, ...named])];
  if (named.length > 0) return named;
  // Work that reaches a service through a queue, topic or bucket names where it came from.
  const namedSources = names(coClientsOf(services, caller));
  if (namedSources.length > 0) return namedSources;
  const direct = services.find((node) => node.name === caller)?.dependsOn ?? [];
  // What became of a message ("returned to queue", requeued) says nothing against the queue.
  const aboutStores = text.replace(messageFate, '');
  for (const [pattern, isStore] of datastoreWords) {
    const stores = pattern.test(aboutStores) ? only(direct.filter((callee) => isStore(nodeOf(callee)))) : [];
    if (stores.length > 0) return stores;
  }
  return outboundWords.test(text) ? only([...callees].filter((callee) => nodeOf(callee).kind === 'external')) : [];
};

/** A service's errors that point at one of its dependencies are evidence against that dependency. */
const mentionSignals = (board: EvidenceBoard, errors: readonly Signal[]): Signal[] => {
  const services = board.services ?? [];
  const hosts = serviceHostsOf(services);
  return errors.flatMap((signal) =>
    blamedDependencies(services, hosts, signal.service, signal.text).map((callee) => ({
      ...signal,
      service: callee,
      kind: 'mentioned' as const,
      from: signal.service,
      strength: signal.strength * 0.8,
      description: `${signal.service} reports failures calling ${callee}: ${signal.description}`,
    })),
  );
};

const traceSignals = (board: EvidenceBoard): Signal[] =>
  board.traces.flatMap((trace) =>
    trace.downstream
      .filter((segment) => segment.errors > 0 && segment.service !== trace.service)
      .map((segment) => ({
        service: segment.service,
        kind: 'trace' as const,
        from: trace.service,
        // A call can fail inside a request the caller still answered (a conditional write refused, then handled): no fault dates it, its own error does.
        at: Date.parse(trace.firstFault ?? segment.firstErrorAt ?? '') || Number.POSITIVE_INFINITY,
        strength: Math.min(1, segment.errors / Math.max(segment.calls, 1) + 0.3),
        ongoing: true,
        substantial: segment.errors / Math.max(segment.calls, 1) >= 0.2,
        ref: trace.ref,
        description: `traces of ${trace.service}: ${segment.errors} of ${segment.calls} calls to ${segment.service} failed${segment.sampleError ? ` ("${quoteMessage(segment.sampleError)}")` : ''}`,
        text: segment.sampleError ?? '',
      })),
  );

const alarmSignals = (board: EvidenceBoard): Signal[] =>
  board.alarms
    .filter((alarm) => alarm.state === 'ALARM')
    .map((alarm) => ({
      service: alarm.service,
      kind: 'alarm' as const,
      at: alarm.since ? Date.parse(alarm.since) : Number.POSITIVE_INFINITY,
      strength: 0.3,
      ongoing: true,
      substantial: false,
      ref: alarm.ref,
      description: `alarm ${alarm.name} is in ALARM${alarm.since ? ` since ${alarm.since}` : ''}${alarm.reason ? `: ${quoteMessage(alarm.reason)}` : ''}`,
      text: `${alarm.name} ${alarm.reason ?? ''}`,
    }));

/** Verbs of writing; what is loaded from somewhere (rules loaded from S3 into a cache) was read. */
const writeVerbs = /\b(committed|inserted|upserted|exported|loaded(?! from\b)|wrote|written|charged|captured|refunded|published|applied|credited|debited)\b/i;
const durations = /\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds|minutes|min)\b/gi;

/** A counter a line reports (`received=13`, `failed=0`, `window=60s`). */
const counters = /\b[a-z_.-]+[=:]\s?\d+(?:\.\d+)?[a-z%]{0,3}\b/gi;

/** The status an HTTP access line gives its request (`POST /webhooks/ups 202`): a code, not a name. */
const requestStatus = /\b((?:GET|POST|PUT|PATCH|DELETE|HEAD)\s+\S+)\s+[1-5]\d\d\b/g;

/**
 * A line whose only numbers are counters, durations and a request's status ("stats received=13
 * upserted=13 failed=0", "POST /webhooks/ups 202 18ms accepted=11") tallies work; it names no unit
 * of work, so two alike are the same tally, not the same write done twice.
 */
const isTally = (message: string): boolean => !/\d/.test(message.replace(requestStatus, '$1').replace(durations, '').replace(counters, ''));

/**
 * A couple of repeats among a message's siblings, or at most this share of them, are duplicates;
 * more say the values it names are too few to identify the work (a batch size, a shard number).
 */
const CHANCE_REPEAT_SHARE = 0.1;
const FEW_REPEATS = 2;

/**
 * The same unit of work written twice: a write message that normally names a different batch,
 * order or window each time shows up again with the very same one (a retry after a timeout that
 * had in fact succeeded). Nothing errors, but the data is now wrong. A repeat means something only
 * where repeats are otherwise absent: a message naming a batch size or a shard out of a handful
 * repeats by chance, and many repeats say the message does not identify the work at all.
 */
const duplicateWrites = (board: EvidenceBoard): Signal[] => {
  const writes = board.logs.filter((line) => writeVerbs.test(line.message) && !isTally(line.message));
  const byKey = new Map<string, typeof writes>();
  for (const line of writes) {
    const key = `${line.service}|${line.message.replace(durations, '')}`;
    byKey.set(key, [...(byKey.get(key) ?? []), line]);
  }
  return [...byKey.values()].flatMap((lines): Signal[] => {
    const [first, second] = lines;
    if (!first || !second || lines.length > 3) return [];
    const template = templateOf(first.message);
    const siblingLines = writes.filter((line) => line.service === first.service && templateOf(line.message) === template);
    const siblings = new Set(siblingLines.map((line) => line.message.replace(durations, '')));
    if (siblings.size < 3 || siblingLines.length - siblings.size > Math.max(FEW_REPEATS, CHANCE_REPEAT_SHARE * siblingLines.length)) return [];
    return [{
      service: first.service,
      kind: 'errors',
      at: second.at,
      strength: 0.8,
      ongoing: true,
      substantial: true,
      ref: second.ref,
      description: `the same write ran twice at ${first.service} (${iso(first.at)} and ${iso(second.at)}), a duplicate: "${quoteMessage(first.message)}"`,
      text: `duplicate write, done twice: ${first.message}`,
    }];
  });
};

export const collectSignals = (board: EvidenceBoard): Signal[] => {
  const window = windowOf(board);
  const errors = [...(window ? errorSignals(board, window) : []), ...duplicateWrites(board)];
  return [...errors, ...mentionSignals(board, errors), ...metricSignals(board), ...stoppedWork(board), ...traceSignals(board), ...alarmSignals(board)];
};

/** Signals that say something is broken (not demand, not a recovered blip). */
export const isFault = (signal: Signal): boolean => signal.kind !== 'demand' && signal.kind !== 'transient' && signal.kind !== 'alarm' && signal.kind !== 'trend';
