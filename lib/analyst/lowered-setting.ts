import { changeText } from './change-text.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { METRIC_PERIOD_MS } from './signals.ts';

/** The numbers a summary says changed ("rate 1000 -> 100", "MaxCapacity 40 to 4"), as written and as values. */
export const numbersChanged = (summary: string) =>
  [...summary.matchAll(/(\d+(?:[,.]\d+)*)\s*(?:->|→|=>|\bto\b)\s*(\d+(?:[,.]\d+)*)/g)]
    .map((match) => ({ from: match[1]!, to: match[2]!, was: Number(match[1]!.replace(/,/g, '')), is: Number(match[2]!.replace(/,/g, '')) }))
    .filter(({ was, is }) => Number.isFinite(was) && Number.isFinite(is));

/** A change that lowered a number: a tightened limit or a cut capacity. */
export const loweredBy = (summary: string): { from: string; to: string } | undefined => {
  const lowered = numbersChanged(summary).find(({ was, is }) => is < was);
  return lowered ? { from: lowered.from, to: lowered.to } : undefined;
};

/** Every number a summary says changed went up. */
const onlyRaised = (summary: string): boolean => {
  const changed = numbersChanged(summary);
  return changed.length > 0 && changed.every(({ was, is }) => is > was);
};

/** Words of a memory setting: a task's or container's memory, a function's memory size. */
const memoryKey = /^(memory|memorySize|memoryReservation)$/i;
const memorySaid = /\bmem(ory)?(\s?size)?\b[^0-9]{0,20}(\d+(?:[,.]\d+)*)\s*(?:->|→|=>|\bto\b)\s*(\d+(?:[,.]\d+)*)/i;
const priorPath = /previous|prior|\bold|before/i;

/**
 * The memory limit a change lowered: said in its summary ("memory 2048 -> 1024"), or given in its
 * details as the new setting beside the one it replaced (a task definition's `memory` beside its
 * previous revision's).
 */
export const memoryLoweredBy = (change: Change): { from: string; to: string } | undefined => {
  const said = memorySaid.exec(change.summary);
  if (said && Number(said[4]!.replace(/,/g, '')) < Number(said[3]!.replace(/,/g, ''))) return { from: said[3]!, to: said[4]! };
  const found: { value: number; prior: boolean }[] = [];
  const walk = (node: unknown, path: string): void => {
    if (Array.isArray(node)) node.forEach((item) => walk(item, path));
    else if (node && typeof node === 'object') for (const [key, value] of Object.entries(node)) walk(value, `${path}.${key}`);
    else if ((typeof node === 'string' || typeof node === 'number') && memoryKey.test(path.split('.').at(-1) ?? '') && Number.isFinite(Number(node))) found.push({ value: Number(node), prior: priorPath.test(path) });
  };
  walk(change.details ?? {}, '');
  const now = found.find((entry) => !entry.prior);
  const before = found.find((entry) => entry.prior);
  return now && before && now.value < before.value ? { from: String(before.value), to: String(now.value) } : undefined;
};

/** Words of a limit on how fast callers may go. */
const rateLimitWords = /throttl|rate.?limit|burst|usage.?plan|quota|provisioned|capacity/i;

/**
 * A change that only raised a limit on how fast callers may go (a burst or rate limit, a quota, a
 * usage plan, provisioned capacity): fewer of their requests are refused, none more. Concurrency is
 * not among them: more of it sends more load on to what the work calls.
 */
export const onlyRaisedRateLimit = (summary: string): boolean => rateLimitWords.test(summary) && !/concurren/i.test(summary) && onlyRaised(summary);

/** A change that only raised a capacity (more write units, more tasks): headroom, which runs nothing short. */
export const onlyRaisedCapacity = (summary: string): boolean => capacityWords.test(summary) && onlyRaised(summary);

/** Scaling that takes away the means to scale (a scalable target deregistered, a policy deleted, scaling suspended). */
const scalingRemoved = /deregister|delete|disabl|remov|suspend|detach/i;
/** A scaling activity setting a capacity ("Setting write capacity units to 6000", "desired count set to 8"). */
const capacitySet = /\bset(ting)?\b.{0,60}\bto \d/i;

/**
 * Scaling that only added room: a capacity raised, or set by a scaling activity to a value it does not
 * say is lower, with nothing taken away of the means to scale. It runs nothing short.
 */
export const scalingAddedRoom = (change: Change): boolean =>
  change.kind === 'scaling' &&
  capacityLoweredBy(change.summary) === undefined &&
  !scalingRemoved.test(changeText(change)) &&
  (onlyRaisedCapacity(change.summary) || capacitySet.test(change.summary));

/** A capacity set to nothing ("desiredCount=0", "Setting desired count to 0"): a cut, whatever it was before. */
const setToNone = /(desired.?count|capacity|tasks?|instances?|concurrency)\s*(?:[=:]|\bto\b)\s*0(?![\d.])/i;

/** A maximum set where there was none ("MaxConcurrency=50, was unset"): a cut from no limit at all. */
const noLimitBefore = /\b(previously|was|before)\W{0,3}(unset|none|not set|unlimited|no limit)\b/i;
const maximumSet = /\bmax\w*\s*[=:]\s*(\d+(?:,\d{3})*)/gi;

/** The lowest maximum a change set where there was none before it, as written. */
const limitSetWhereNone = (summary: string): string | undefined =>
  noLimitBefore.test(summary) ? [...summary.matchAll(maximumSet)].map((match) => match[1]!).sort((a, b) => Number(a.replace(/,/g, '')) - Number(b.replace(/,/g, '')))[0] : undefined;

/** What a change cut a capacity to, and from what when it says. */
export const capacityLoweredBy = (summary: string): { from?: string; to: string } | undefined => {
  const setWhereNone = limitSetWhereNone(summary);
  return loweredBy(summary) ?? (setToNone.test(summary) ? { to: '0' } : setWhereNone !== undefined ? { to: setWhereNone } : undefined);
};

/** How long before the trouble a capacity cut is still its cause. */
const CAPACITY_CUT_WINDOW_MS = 2 * 60 * 60_000;

/** Kinds of change that set a capacity. */
const capacityKinds: ReadonlySet<string> = new Set(['scaling', 'config', 'infrastructure']);

/** Words that say a change set a capacity: a count of tasks or instances, a provisioned or reserved amount, a concurrency. */
const capacityWords = /capacity|desired.?count|instances?|tasks?(?![ _-]?def)|concurren|provisioned|replicas?|pods?\b|nodes?|WCU|RCU|request.?units|throughput/i;

/**
 * A change that lowered a capacity setting at `root` shortly before its trouble (a scheduled
 * scale-in, a lowered maximum, a reserved concurrency cut): the service ran short because the
 * setting changed, not because the load did. Scaling that raised capacity is the platform reacting.
 */
export const capacityCutAt = (board: EvidenceBoard, root: string, onset: number): Change | undefined =>
  board.changes.find((change) => {
    const lowered = capacityLoweredBy(change.summary);
    // A cut takes effect at once; a trouble read on a series is dated by the period it first shows in, which may begin before the cut.
    // An API call that sets a resource's capacity may be recorded as infrastructure (CloudTrail's UpdateTable).
    if (change.service !== root || !capacityKinds.has(change.kind) || change.at > onset + METRIC_PERIOD_MS || !capacityWords.test(change.summary) || !lowered) return false;
    if (onset - change.at <= CAPACITY_CUT_WINDOW_MS) return true;
    // A summary may lower more than one number ("MinCapacity 2 -> 1, MaxCapacity 64 -> 16"): any of them may be the ceiling reached.
    const ceilings = [lowered.to, ...numbersChanged(change.summary).filter(({ was, is }) => is < was).map(({ to }) => to)].map((to) => Number(to.replace(/,/g, '')));
    return ceilings.some((ceiling) => scaledUpTo(board, root, ceiling, change.at, onset) || heldAtCeiling(board, root, ceiling, change.at, onset));
  });

/** A capacity cut to nothing at `service` before its trouble: with no task or instance left to run, it fails by itself. */
export const capacityRemovedAt = (board: EvidenceBoard, service: string, onset: number): Change | undefined => {
  const cut = capacityCutAt(board, service, onset);
  return cut && capacityLoweredBy(cut.summary)?.to === '0' ? cut : undefined;
};

/**
 * A lowered maximum waits for the load to reach it: capacity that later scaled up to exactly the new
 * ceiling, before the trouble, ran into it, however long after the cut that was.
 */
const scaledUpTo = (board: EvidenceBoard, root: string, ceiling: number, from: number, onset: number): boolean =>
  onset - from <= CEILING_WINDOW_MS &&
  board.changes.some((change) => change.service === root && change.kind === 'scaling' && change.at > from && change.at <= onset && numbersChanged(change.summary).some(({ was, is }) => is === ceiling && is > was));

/** How long a lowered ceiling can wait for the load that reaches it: a week of daily peaks, or a weekly one. */
const CEILING_WINDOW_MS = 8 * 24 * 60 * 60_000;

/** Readings at the ceiling it takes to say a capacity stayed there, not passed through it. */
const READINGS_AT_CEILING = 3;

/**
 * A capacity the platform reports itself (an Aurora Serverless writer's ACUs, a service's desired
 * tasks) that stood at exactly the new ceiling around the trouble ran into it, however long after
 * the cut that was.
 */
const heldAtCeiling = (board: EvidenceBoard, root: string, ceiling: number, from: number, onset: number): boolean =>
  ceiling > 0 &&
  onset - from <= CEILING_WINDOW_MS &&
  board.series.some(
    (series) =>
      series.service === root &&
      capacityWords.test(series.name) &&
      series.points.filter(([at, value]) => Date.parse(at) > from && Date.parse(at) <= onset + CAPACITY_CUT_WINDOW_MS && value === ceiling).length >= READINGS_AT_CEILING,
  );

/** A setting of how long something waits before it gives up on a request (not how long a queued message stays hidden). */
const timeoutSettingWords = /(?<!visibility.?)(idle.?timeout|timeout.?(seconds|ms|millis)|(read|request|connect|socket|response|gateway|client|upstream|proxy).?timeout|keep.?alive|deadline)/i;

/** In a summary, only a setting shown with the value it now has was written ("read_timeout 30 -> 5", "timeout=5s"), never one "(unchanged)". */
const timeoutWrittenInSummary = new RegExp(`([\\w./-]*(?:${timeoutSettingWords.source})[\\w./-]*)\\s*(?:[:=]\\s*|\\d+\\s*(?:->|→|=>|\\bto\\b)\\s*)(\\d+\\s*(?:ms|s|seconds)?)(?!\\s*\\(unchanged)`, 'i');

/** The timeout setting a change wrote, and the value it wrote, read from its request (`{key, value}` or `{name, value}` pairs). */
export const timeoutSettingOf = (change: Change): { name: string; value?: string } | undefined => {
  const pairs: { name: string; value?: string }[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    const name = typeof record.key === 'string' ? record.key : typeof record.name === 'string' ? record.name : undefined;
    if (name && timeoutSettingWords.test(name)) pairs.push({ name, ...(record.value === undefined ? {} : { value: String(record.value) }) });
    Object.values(record).forEach(visit);
  };
  visit(change.details);
  if (pairs[0]) return pairs[0];
  const written = timeoutWrittenInSummary.exec(change.summary);
  return written ? { name: written[1]!, value: written[written.length - 1]!.trim() } : undefined;
};
