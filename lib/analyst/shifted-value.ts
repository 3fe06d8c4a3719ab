import type { Change, EvidenceBoard, LogRecord, Series } from './evidence-board.ts';
import { latestBreakingChangeBefore } from './explaining-change.ts';
import { dataSourcesOf } from './service-map.ts';
import { iso, SAME_TIME_MS } from './signals.ts';
import { timedPoints } from './readings.ts';
import { quoteMessage } from '../text/quote.ts';

/**
 * A value that moved by an order of magnitude overnight was written wrong. Reference data (an
 * exchange rate, a price, a unit) that held steady and then came out ten, a hundred or a thousand
 * times off, or as its reciprocal, fails nothing: it shows as orders that surge or revenue that
 * drops. Its origin is whoever logged the new value first, usually the job that loaded it; the
 * services that quote it after read what that job wrote. The evidence is the value itself, said
 * four ways: a writer's own before and after (`X=0.086 prev=11.6`, `old=5699 new=56.99`), its
 * guard's percentage (`median change -99.0%`), the same guard published as a metric
 * (`MedianPriceChangePct` at -99), or the same keyed line (`ccy=JPY ... fx=`) read before and after.
 * A sum of money a service records (credits, amounts) that steps by an order of magnitude while
 * the count of what it records holds was written that way too: it came in so, and the code it
 * takes its data from that changed just before is what started writing it.
 */

/** Off by at least this factor either way: ten times, a hundredth, a reciprocal of a rate far from one. */
const ORDER_OF_MAGNITUDE = 10;
/** The readings on each side agree within this factor: the value held, then held at its new level. */
const STEADY_FACTOR = 2;
/** Readings each side of a series shift: fewer could be two different things keyed alike. */
const MIN_READINGS = 2;
/** A config or release at the writer up to a week before it wrote the value is what changed how it reads its source. */
const WRITER_CHANGE_REACH_MS = 7 * 24 * 60 * 60_000;
/** A recorded sum steps within this long of the release that sends it the new values: they flow through at once. */
const SENDER_CHANGE_REACH_MS = 60 * 60_000;
/** Points each side of a metric's step: fewer could be one busy period. */
const MIN_METRIC_POINTS = 3;
/** The count beside a shifted sum holds within this factor: as much was recorded, each worth far more or less. */
const HELD_FACTOR = 1.5;

const keyedValue = /([A-Za-z_][\w./-]*)=([^\s,;()]+)/g;
const plainNumber = /^[-+]?\d+(?:\.\d+)?$/;
/** What a value that varies by nature measures (time, size, counts, positions): its swings are not a shift. */
const varyingMeasure = /(^|_)(ms|id)$|duration|latency|took|elapsed|time|bytes|size|count|rows|items|written|skipped|attempt|retr|depth|lag|age|pending|queue|len|seq|offset|version|port|pid|status|code|hits|errors|orders|total|qty/i;
/** A key's value that names a moment or a run, not what the line is about. */
const momentOrRun = /^\d{4}-\d{2}-\d{2}|^[0-9a-f]{8}-[0-9a-f]{4}-/i;
const percentChange = /\b(?:delta|change|changed|moved|diff)\b[^\d%+-]{0,3}([+-]?\d+(?:\.\d+)?)%/i;
/** A metric that publishes how far values moved, in percent (`PriceChangePctMedian`, `MedianRateDeltaPercent`). */
const percentChangeMetric = /(change|delta|diff|moved).*(pct|percent)|(pct|percent).*(change|delta|diff)/i;
/** `0.0025 -> 0.2532 (+9870.6%)`: a value's before and after, with the move the writer computed from them. */
const arrowWithPercent = /([-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)\s*(?:->|→|=>)\s*([-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)\s*\(([-+]?\d+(?:\.\d+)?)%\)/i;
/** A metric that sums money: what it is worth, not how many. */
const moneyMetric = /amount|price|credit|revenue|balance|payout|charge|fee|cost|minor|EUR|USD|GBP|JPY/i;
/** A metric that counts what was done: the volume beside a sum. */
const countMetric = /invocations|count|written|messages|orders|entries|records|items|requests|published|processed/i;
const previousOf = /\b(?:prev|previous|was|old)=([-+]?\d+(?:\.\d+)?)\b/i;
const newOf = /\bnew=([-+]?\d+(?:\.\d+)?)\b/i;

export interface ShiftedValue {
  /** The service that logged the new value first. */
  origin: string;
  /** What moved: its key and the keys that say which one (`rate` of `ccy=JPY`). */
  what: string;
  before?: number;
  after?: number;
  /** A percentage the writer gave for the move, when it gave one. */
  percent?: number;
  at: number;
  /** How far `at` may be off: a metric point stands for its whole period, and what it is compared with may be dated to a neighbouring one. */
  datedWithinMs: number;
  /** Where the value was read: the line or the series point, as cited. */
  evidence: { ref: string; said: string };
  /** The service that recorded the value, when the origin sent it there (a sum its recorder publishes). */
  recordedBy?: string;
  /** Services that used the new value after the origin wrote it. */
  readers: string[];
  /** The change at the origin, up to a week before, that changed what it writes. */
  change?: Change;
}

const isShift = (before: number, after: number): boolean => before > 0 && after > 0 && (after / before >= ORDER_OF_MAGNITUDE || before / after >= ORDER_OF_MAGNITUDE);

const steady = (values: readonly number[]): boolean => Math.min(...values) > 0 && Math.max(...values) / Math.min(...values) <= STEADY_FACTOR;

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const pairsOf = (message: string) => [...message.matchAll(keyedValue)].map((match) => ({ key: match[1]!, value: match[2]! }));

/** The keys that say which thing a line is about (`ccy=JPY market=JP`), without the moment or run it was logged in. */
const identityOf = (message: string): string =>
  pairsOf(message)
    .filter((pair) => !plainNumber.test(pair.value) && !momentOrRun.test(pair.value))
    .map((pair) => `${pair.key}=${pair.value}`)
    .sort()
    .join(' ');

const templateOf = (message: string): string => message.replace(keyedValue, '$1=').replace(/\d+(?:\.\d+)?/g, '#');

interface Reading {
  value: number;
  line: LogRecord;
}

const saidBy = (line: LogRecord) => ({ ref: line.ref, said: line.message });

/** A percent move so large the values went an order of magnitude off: -90% and below is a tenth, +900% and above ten times. */
const orderOfMagnitudePercent = (moved: number): boolean => moved <= -(100 - 100 / ORDER_OF_MAGNITUDE) || moved >= (ORDER_OF_MAGNITUDE - 1) * 100;

type StatedShift = Omit<ShiftedValue, 'origin' | 'readers' | 'change'> & { service: string };

/** A value said with its previous one, or a guard's percentage, on one line. */
const statedShift = (line: LogRecord): StatedShift | undefined => {
  const previous = line.message.match(previousOf);
  if (previous) {
    const before = Number(previous[1]);
    const stated = line.message.match(newOf);
    const pairs = pairsOf(line.message);
    const at = pairs.findIndex((pair) => /^(prev|previous|was|old)$/i.test(pair.key));
    const valued = stated ? undefined : pairs.slice(0, at).reverse().find((pair) => plainNumber.test(pair.value));
    const after = stated ? Number(stated[1]) : valued ? Number(valued.value) : Number.NaN;
    if (isShift(before, after)) {
      const which = pairs.slice(0, at).filter((pair) => !plainNumber.test(pair.value) && !momentOrRun.test(pair.value)).map((pair) => `${pair.key}=${pair.value}`);
      return { what: valued ? valued.key : which.join(' ') || 'a value', before, after, at: line.at, datedWithinMs: 0, service: line.service, evidence: saidBy(line) };
    }
  }
  const arrow = line.message.match(arrowWithPercent);
  if (arrow) {
    const [before, after, moved] = [Number(arrow[1]), Number(arrow[2]), Number(arrow[3])];
    // The percentage agrees with the two values: it is their move, not another figure on the line.
    if (isShift(before, after) && Math.abs((after / before - 1) * 100 - moved) <= Math.max(1, Math.abs(moved) * 0.05)) {
      const what = line.message.slice(0, arrow.index).split(/[:;]/).pop()!.trim() || 'a value';
      return { what, before, after, at: line.at, datedWithinMs: 0, service: line.service, evidence: saidBy(line) };
    }
  }
  const percent = line.message.match(percentChange);
  if (percent) {
    const moved = Number(percent[1]);
    if (orderOfMagnitudePercent(moved)) return { what: identityOf(line.message) || 'its values', percent: moved, at: line.at, datedWithinMs: 0, service: line.service, evidence: saidBy(line) };
  }
  return undefined;
};

/** What a series measures, and of which thing (`SellerCredits of Environment=prod`). */
const seriesWhat = (series: Series): string => {
  const which = Object.entries(series.dimensions ?? {}).map(([key, value]) => `${key}=${value}`).join(' ');
  return which ? `${series.name} of ${which}` : series.name;
};

/** A guard's percentage published as a metric: its first point an order of magnitude off. */
const meteredShift = (series: Series): StatedShift | undefined => {
  if (!percentChangeMetric.test(series.name)) return undefined;
  const point = series.points.find(([, value]) => orderOfMagnitudePercent(value));
  if (!point) return undefined;
  const what = seriesWhat(series);
  return { what, percent: point[1], at: Date.parse(point[0]), datedWithinMs: (series.periodSeconds ?? 60) * 1000, service: series.service, evidence: { ref: series.ref, said: `${what} at ${point[1]} (${point[0]})` } };
};

/** The same keyed value, read on lines alike, steady at one level and then steady at another an order of magnitude away. */
const seriesShifts = (logs: readonly LogRecord[]) => {
  const readings = new Map<string, { service: string; key: string; identity: string; readings: Reading[] }>();
  for (const line of logs) {
    const identity = identityOf(line.message);
    if (!identity) continue;
    for (const pair of pairsOf(line.message)) {
      if (!plainNumber.test(pair.value) || varyingMeasure.test(pair.key)) continue;
      const id = [line.service, templateOf(line.message), identity, pair.key].join('|');
      const entry = readings.get(id) ?? { service: line.service, key: pair.key, identity, readings: [] };
      entry.readings.push({ value: Number(pair.value), line });
      readings.set(id, entry);
    }
  }
  return [...readings.values()].flatMap((entry) => {
    const ordered = [...entry.readings].sort((a, b) => a.line.at - b.line.at);
    for (let split = MIN_READINGS; split <= ordered.length - MIN_READINGS; split += 1) {
      const before = ordered.slice(0, split).map((reading) => reading.value);
      const after = ordered.slice(split).map((reading) => reading.value);
      if (steady(before) && steady(after) && isShift(median(before), median(after))) {
        return [{ key: entry.key, what: `${entry.key} of ${entry.identity}`, before: median(before), after: median(after), first: ordered[split]! }];
      }
    }
    return [];
  });
};

const within = (series: Series, from: number, to: number): number[] => timedPoints(series.points).filter((point) => point.t >= from && point.t < to).map((point) => point.v);

/**
 * A sum of money a service records that held one level and then another an order of magnitude
 * away (one point between may straddle the step), while a count it records held across the same step.
 */
const steppedSum = (board: EvidenceBoard) =>
  board.series.flatMap((series) => {
    if (!moneyMetric.test(series.name) || countMetric.test(series.name)) return [];
    const points = timedPoints(series.points);
    const values = points.map((point) => point.v);
    for (let split = MIN_METRIC_POINTS; split <= values.length - MIN_METRIC_POINTS; split += 1) {
      for (const straddle of [0, 1]) {
        const before = values.slice(0, split);
        const after = values.slice(split + straddle);
        if (after.length < MIN_METRIC_POINTS || !steady(before) || !steady(after) || !isShift(median(before), median(after))) continue;
        const stepAt = points[split]!.t;
        const firstAfter = points[split + straddle]!.t;
        const counted = board.series.filter((other) => other.service === series.service && countMetric.test(other.name)).some((other) => {
          const countBefore = within(other, points[0]!.t, stepAt);
          const countAfter = within(other, firstAfter, Number.POSITIVE_INFINITY);
          return countBefore.length >= MIN_METRIC_POINTS && countAfter.length >= MIN_METRIC_POINTS && Math.max(median(countBefore), median(countAfter)) / Math.min(median(countBefore), median(countAfter)) <= HELD_FACTOR;
        });
        if (!counted) continue;
        const what = seriesWhat(series);
        const [shownAt, shown] = series.points[split + straddle]!;
        return [{ recorder: series.service, what, before: median(before), after: median(after), at: stepAt, datedWithinMs: (series.periodSeconds ?? 60) * 1000, evidence: { ref: series.ref, said: `${what} at ${shown} (${shownAt})` } }];
      }
    }
    return [];
  });

/** Whoever changed, shortly before the step, the code whose data the recorder records: it sent the new values. Else the recorder wrote them. */
const senderOf = (board: EvidenceBoard, recorder: string, at: number): { origin: string; change?: Change } => {
  const sources = new Set([recorder, ...dataSourcesOf(board, recorder)]);
  const change = latestBreakingChangeBefore(board.changes, at, SENDER_CHANGE_REACH_MS, (candidate) => sources.has(candidate.service) && ['deploy', 'config', 'feature-flag'].includes(candidate.kind));
  return change ? { origin: change.service, change } : { origin: recorder };
};

/** A number written with enough digits that finding it again elsewhere is no coincidence. */
const distinctive = (value: string): boolean => value.replace(/[^\d]/g, '').replace(/^0+/, '').length >= 4;

const literalIn = (value: string) => new RegExp(`(^|[^\\d.])${value.replace('.', '\\.')}(?![\\d])`);

export const shiftedValueOf = (board: EvidenceBoard): ShiftedValue | undefined => {
  const logs = [...board.logs].sort((a, b) => a.at - b.at);
  const allStated = [...logs.flatMap((line) => statedShift(line) ?? []), ...board.series.flatMap((series) => meteredShift(series) ?? [])].sort((a, b) => a.at - b.at);
  // A guard's percentage and the writer's own before and after are one shift: the values say it best.
  const stated = allStated[0] && (allStated.find((shift) => shift.service === allStated[0]!.service && shift.before !== undefined && shift.at - allStated[0]!.at <= SAME_TIME_MS) ?? allStated[0]);
  const seen = seriesShifts(logs).sort((a, b) => a.first.line.at - b.first.line.at)[0];
  const earliest = stated && (!seen || stated.at <= seen.first.line.at) ? stated : undefined;
  let found: Omit<ShiftedValue, 'readers' | 'change'> | undefined;
  if (earliest) {
    const { service, ...shift } = earliest;
    found = { ...shift, origin: service };
  }
  if (!found && seen) {
    // The new value, found again in whoever logged it first, was written there: the series that shows it read it after.
    const token = pairsOf(seen.first.line.message).find((pair) => pair.key === seen.key)!.value;
    const first = distinctive(token) ? logs.find((line) => line.at <= seen.first.line.at && literalIn(token).test(line.message)) : undefined;
    const line = first ?? seen.first.line;
    const key = pairsOf(line.message).find((pair) => pair.value === token)?.key;
    const what = first && key ? `${key} of ${identityOf(line.message)}` : seen.what;
    found = { origin: line.service, what, before: seen.before, after: seen.after, at: line.at, datedWithinMs: 0, evidence: saidBy(line) };
  }
  if (!found) {
    const stepped = steppedSum(board).sort((a, b) => a.at - b.at)[0];
    if (!stepped) return undefined;
    const { recorder, ...shift } = stepped;
    const sender = senderOf(board, recorder, stepped.at + stepped.datedWithinMs);
    return { ...shift, origin: sender.origin, readers: [], ...(sender.origin === recorder ? {} : { recordedBy: recorder }), ...(sender.change ? { change: sender.change } : {}) };
  }
  const { origin, at } = found;
  const readers = [...new Set(logs.filter((line) => line.service !== origin && line.at > at && found.after !== undefined && literalIn(String(found.after)).test(line.message)).map((line) => line.service))];
  const change = latestBreakingChangeBefore(board.changes, at, WRITER_CHANGE_REACH_MS, (candidate) => candidate.service === origin && (candidate.kind === 'config' || candidate.kind === 'deploy'));
  return { ...found, readers, ...(change ? { change } : {}) };
};

/** How far off, in the words an operator uses: a hundredth, a thousand times, the reciprocal. */
export const factorWords = (before: number, after: number): string => {
  const product = before * after;
  if (Math.abs(before - 1) > 0.5 && product > 0.95 && product < 1.05) return 'the reciprocal (1/x) of';
  const ratio = after / before;
  const powers: Array<[number, string, string]> = [
    [10, 'ten times (10x)', 'a tenth (1/10) of'],
    [100, 'a hundred times (100x)', 'a hundredth (1/100) of'],
    [1000, 'a thousand times (1000x)', 'a thousandth (1/1000) of'],
  ];
  for (const [power, up, down] of powers) {
    if (ratio / power > 0.9 && ratio / power < 1.1) return up;
    if (ratio * power > 0.9 && ratio * power < 1.1) return down;
  }
  return ratio > 1 ? `${Math.round(ratio)} times` : `1/${Math.round(1 / ratio)} of`;
};

export const shiftedValueWords = (shift: ShiftedValue): string => {
  const moved =
    shift.before !== undefined && shift.after !== undefined
      ? `${shift.what} came out as ${shift.after}, ${factorWords(shift.before, shift.after)} the ${shift.before} it held before`
      : `${shift.what} moved ${shift.percent}%, to ${factorWords(1, 1 + (shift.percent ?? 0) / 100)} what it was`;
  const readers = shift.readers.length > 0 ? ` ${shift.readers.join(', ')} used the new value from then on.` : '';
  const wrote = shift.recordedBy ? `sent ${shift.recordedBy} values an order of magnitude off from ${iso(shift.at)}, which it recorded as they came` : `wrote a value an order of magnitude off at ${iso(shift.at)}`;
  return `${shift.origin} ${wrote}: ${moved} ("${quoteMessage(shift.evidence.said)}"). Nothing fails on such a value; it is priced, charged or counted as it is.${readers}`;
};
