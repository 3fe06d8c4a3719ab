import type { RootCauseCategory } from '../domain/vocabulary.ts';
import { causesIn } from './cause-signals.ts';
import { settingWithEffect } from './change-effects.ts';
import { capacityCutAt, capacityLoweredBy, loweredBy, memoryLoweredBy, timeoutSettingOf } from './lowered-setting.ts';
import { scheduledActionBehind } from './scheduled-action.ts';
import { severityOf } from '../analysis/log-templates.ts';
import type { Change, EvidenceBoard, Series } from './evidence-board.ts';
import type { IncidentCause } from './infer-cause.ts';
import type { Principle } from './principles.ts';
import { quoteMessage } from '../text/quote.ts';
import { computeKinds, dependenciesOf, kindOf, withSharedResourceUsers } from './service-map.ts';
import { iso, neighboursOf, SAME_TIME_MS, type Signal } from './signals.ts';
import { roseBy } from './readings.ts';
import { changeText, withdrawal } from './change-text.ts';
import { networkAcl } from './rule-ports.ts';
import { hotPartitionAtTableWords, keyRangeThrottling, seriesThrottledByKeyRange } from './hot-partition.ts';

/**
 * How the fault works, in plain words, read from the evidence at the root: what ran out, what was
 * rejected, what changed. The category follows from the mechanism, not from where it shows.
 */
export interface Mechanism {
  /** The evidence label it rests on (cause-signals labels), or the change kind. */
  label: string;
  category: RootCauseCategory;
  /** One sentence for the summary. */
  words: string;
  /** The words only say that the change broke it: the change sentence of the summary says more. */
  restatesChange?: boolean;
  /** The principle whose words these are (principles.ts). */
  principle: Principle;
}

/** The principle that words each evidence label's mechanism. */
const mechanismPrinciples: Readonly<Record<string, Principle>> = {
  memory: 'mechanism-memory',
  connections: 'mechanism-connections',
  // Pinned sessions hold a proxy's connections until its limit is reached.
  pinning: 'mechanism-connections',
  disk: 'mechanism-disk',
  threads: 'mechanism-threads',
  'burst credits': 'mechanism-burst-credits',
  'IP addresses': 'mechanism-ip-addresses',
  'replication lag': 'mechanism-replication-lag',
  'table scan': 'mechanism-table-scan',
  locks: 'mechanism-locks',
  throttling: 'mechanism-throttling',
  certificate: 'mechanism-certificate',
  'disabled key': 'mechanism-disabled-key',
  credentials: 'mechanism-credentials',
  'access denied': 'mechanism-access-denied',
  network: 'mechanism-network',
  'bad data': 'mechanism-bad-data',
  'code defect': 'mechanism-code-defect',
  'AWS infrastructure': 'mechanism-infrastructure',
  configuration: 'mechanism-configuration',
  // The image a task definition names is one of its settings.
  'missing image': 'mechanism-configuration',
};

/** The measures that went up or keep rising. */
const risingMeasures = (signals: readonly Signal[]): Signal[] => signals.filter((signal) => (signal.kind === 'trend' || signal.kind === 'metric') && /rising|went up/.test(signal.description));

const rises = (signals: readonly Signal[], pattern: RegExp): boolean => risingMeasures(signals).some((signal) => pattern.test(signal.text));

/** A measure of what is stored (a log's disk usage, a slot's retained size, bytes kept): requests, errors and CPU fill no volume. */
const storedMeasure = /usage|size|bytes|disk|storage|binlog|\bwal\b|slot|temp|\blogs?\b/i;

/** A measure of how full the volume is: it rises as the volume fills, so it says nothing of what fills it. */
const fullness = /utili[sz]ation|percent/i;

/** A measure of room left: it falls as a volume fills, so it says nothing of what fills it. */
const roomLeft = /free|available|remaining|left/i;

/**
 * What a filling volume fills with: the measures at its resource that grow with it (the write-ahead
 * log kept for a replication slot, binary logs, a cache, a log directory), in plain words.
 */
const fillingWith = (signals: readonly Signal[], series: readonly Series[]): string[] => [
  ...new Set(
    [...risingMeasures(signals).map((signal) => signal.text.split(' ')[0]!).filter((name) => storedMeasure.test(name) && !fullness.test(name)), ...growingAsFreeFalls(series)]
      .filter((name) => !roomLeft.test(name))
      .map((name) => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.]+/g, ' ').toLowerCase()),
  ),
];

/** Change per hour from a series' first point to its last. */
const ratePerHour = (item: Series): number | undefined => {
  const first = item.points[0];
  const last = item.points.at(-1);
  if (!first || !last || last[0] === first[0]) return undefined;
  return ((last[1] - first[1]) / (Date.parse(last[0]) - Date.parse(first[0]))) * 3_600_000;
};

/**
 * What takes the space: a measure at the resource that grows about as fast as its free space falls
 * (between half and twice the rate), however small that growth is beside its own size (write-ahead
 * log held for a replication slot, 8 GB more on 170 GB, is all of the free space).
 */
const growingAsFreeFalls = (series: readonly Series[]): string[] => {
  const falls = series.filter((item) => roomLeft.test(item.name)).map(ratePerHour).filter((rate): rate is number => rate !== undefined && rate < 0);
  if (falls.length === 0) return [];
  const fall = -Math.min(...falls);
  return series
    .filter((item) => !roomLeft.test(item.name))
    .filter((item) => {
      const rise = ratePerHour(item);
      return rise !== undefined && rise >= 0.5 * fall && rise <= 2 * fall;
    })
    .map((item) => item.name);
};

/** Labels the evidence at `root` shows, strongest first (errors and metrics count double). */
export const labelsAt = (rootSignals: readonly Signal[]): string[] => {
  const votes = new Map<string, number>();
  for (const signal of rootSignals) {
    const weight = signal.kind === 'errors' || signal.kind === 'metric' ? 2 : 1;
    for (const hit of causesIn(signal.text)) votes.set(hit.label, (votes.get(hit.label) ?? 0) + weight);
  }
  return [...votes.entries()].sort((a, b) => b[1] - a[1]).map(([label]) => label);
};

/**
 * A client refused connections by a shared database whose connection count climbed: the client holds
 * what it opened, and the database refuses everyone once its limit is reached.
 */
export const heldConnectionsWords = (client: string, resource: string, resourceSignals: readonly Signal[]): string | undefined =>
  rises(resourceSignals, /connection/i)
    ? `${client} holds connections to ${resource} that it does not release (a connection leak): the connections ${resource} holds keep climbing until its limit is reached, and then every client of ${resource} is refused new ones.`
    : undefined;

/** A client whose sessions a proxy pins to its database connections, as the proxy reports them pinned. */
export const pinnedSessionsWords = (client: string, proxy: string): string =>
  `${client}'s sessions are pinned to ${proxy}'s database connections: a session that sets session state (a SET statement, a temporary table, a prepared statement) keeps its connection until it ends, so ${proxy} cannot reuse it. Its pool fills with pinned connections, and every client's new sessions wait for a borrow and time out.`;

/** The exceptions an AWS SDK raises when the service it called refused the call for its rate (not a status a server answered with). */
const refusedCall = /ThrottlingException|TooManyRequestsException|RequestLimitExceeded|exceeded the rate at which/i;

const rotation = /rotat|new (secret|password|key) version|PutSecretValue|UpdateSecret/i;
const revocation = /revoke|remov|delet|deny|replac/i;

const phrase = (label: string, root: string, signals: readonly Signal[], text: string, change: Change | undefined, series: readonly Series[] = []): string => {
  const changed = change ? changeText(change) : '';
  switch (label) {
    case 'memory': {
      // A Redis-protocol cache answers writes with OOM only when its eviction policy lets it evict nothing.
      if (/OOM command not allowed|used memory > 'maxmemory'/i.test(text)) return `${root} is full: its memory reached maxmemory and it refuses writes instead of evicting keys (its eviction policy lets it evict nothing).`;
      const limitCut = change ? memoryLoweredBy(change) : undefined;
      if (change && limitCut)
        return `${root} runs out of memory: the ${change.kind} change lowered its memory limit from ${limitCut.from} to ${limitCut.to}, and under load its memory use reaches the new limit and the process is killed.`;
      return rises(signals, /mem|heap/i)
        ? `${root} runs out of memory: its memory use climbs steadily until the process is killed, the pattern of a memory leak.`
        : `${root} runs out of memory: the process is killed at its memory limit.`;
    }
    case 'pinning':
      return `${root} pins client sessions to its database connections: a session that sets session state (a SET statement, a temporary table, a prepared statement) keeps its connection until it ends, so the proxy cannot reuse it. Its pool fills with pinned connections, and new sessions wait for a borrow and time out.`;
    case 'connections':
      return rises(signals, /connection|pool|checked.?out/i)
        ? `${root} exhausts its connections: the connections it holds keep growing and are not released (a connection leak), until the limit is reached.`
        : `The connection limit at ${root} is reached, so new connections are refused.`;
    case 'disk': {
      const takers = fillingWith(signals, series);
      // A change that made it log more (a verbose log level) fills the volume with its log files, whatever else it changed.
      const verbose = change && settingWithEffect(change, 'disk');
      const by = verbose && /log|appender|debug/i.test(verbose) ? ` The ${change.kind} change set ${verbose}: the log files it writes fill the volume.` : '';
      return `A storage volume at ${root} is filling: free space keeps falling toward zero${takers.length > 0 ? `, taken by what grows with it (${takers.join(', ')})` : ''}.${by}`;
    }
    case 'threads':
      return `${root} runs out of threads or file descriptors.`;
    case 'IP addresses':
      return `${root} is running out of IP addresses: its free addresses fall to zero, so new network interfaces (pods, tasks, functions in the VPC) cannot get one.`;
    case 'burst credits':
      if (/cpu/i.test(text)) return `${root} spent its CPU credits: it is held to its baseline CPU, so work queues behind it.`;
      // A file system in bursting mode (EFS) spends credits on throughput, not on IOPS.
      if (/BurstCreditBalance|PermittedThroughput/i.test(text)) return `${root} spent its burst credits (BurstCreditBalance down to zero): its throughput is held to the file system's baseline, so reads and writes queue.`;
      return `${root} spent its storage burst credits (BurstBalance down to zero): its disk I/O is held to the volume's baseline IOPS, so reads and writes queue.`;
    case 'replication lag':
      return `Replication lag at ${root}: the replica cannot keep up with the write load it is sent.`;
    case 'locks':
      return `Sessions at ${root} are blocked waiting for locks that another transaction holds and does not release, so the work queued behind them stalls.`;
    case 'table scan':
      return `A query at ${root} scans far more rows than it returns (a missing index), saturating the database.`;
    case 'throttling': {
      const lowered = change ? loweredBy(change.summary) : undefined;
      if (lowered) return `A lowered limit: ${root}'s limit went from ${lowered.from} to ${lowered.to}, so requests above it are throttled (refused with 429 or a throttling error).`;
      // A table that counts its throttles per key range throttles one hot partition, not the table.
      if (seriesThrottledByKeyRange(series) || signals.some((signal) => signal.kind === 'metric' && keyRangeThrottling.test(signal.text))) return hotPartitionAtTableWords(root);
      // An SDK's throttling exception in the root's own log is a call it made being refused: the service it called set the rate.
      const ownErrors = signals.filter((signal) => signal.kind === 'errors').map((signal) => signal.text).join(' ');
      if (refusedCall.test(ownErrors) && !/concurren/i.test(ownErrors)) {
        return `${root}'s calls are throttled: its call volume exceeds the request rate the service it calls allows (a request-rate quota), so calls are refused and retried.`;
      }
      return /concurren/i.test(text)
        ? `${root} is throttled: requests exceed its concurrency limit.`
        : `${root} is throttled: requests exceed its provisioned capacity or rate limit.`;
    }
    case 'certificate': {
      // A days-to-expiry measure (ACM's DaysToExpiry) that reached zero says the certificate lapsed where no line does.
      const runOut = series.some((measure) => /expir/i.test(measure.name) && (measure.points.at(-1)?.[1] ?? 1) <= 0);
      return runOut || /expir|lapsed|not ?after/i.test(text) ? `An expired TLS certificate at ${root} makes handshakes fail.` : `TLS handshakes with ${root} fail on its certificate.`;
    }
    case 'disabled key': {
      const state = /pending deletion/i.test(text) ? 'is pending deletion' : 'is disabled';
      // A key keeps no log of its own: when all its evidence is what its callers report, the root is the key itself.
      return signals.every((signal) => signal.kind === 'mentioned' || signal.kind === 'alarm')
        ? `${root}, the KMS key its callers encrypt and decrypt with, ${state}, so their calls that need it fail.`
        : `A KMS key that ${root} needs ${state}, so encrypt and decrypt calls fail.`;
    }
    case 'credentials':
      return rotation.test(`${text} ${changed}`)
        ? `${root} authenticates with a secret that was rotated: the credentials it presents are no longer valid.`
        : `${root} authenticates with credentials that are no longer valid.`;
    case 'access denied':
      return change?.kind === 'iam' || /policy/i.test(changed)
        ? `Calls by ${root} are denied: a permission change removed an action it needs.`
        : `Calls by ${root} are denied: a permission it needs is missing.`;
    case 'network':
      if (/ENOTFOUND|NXDOMAIN|resolve|DNS|unknown host|getaddrinfo/i.test(text)) return `A DNS name ${root} depends on no longer resolves.`;
      // A function attached to a VPC leaves by its subnets' routes: to a public endpoint only through a NAT gateway.
      if (/vpc.?config/i.test(changed) && /timed? ?out|timeout|ETIMEDOUT/i.test(text)) {
        return `${root} was attached to a VPC: from its subnets it reaches the internet only through a NAT gateway on their route table, so without one its outbound connections to public endpoints time out.`;
      }
      // A network ACL is stateless: the replies to connections its subnet opens come back to ephemeral ports, which its inbound
      // rules must pass too. An entry that says it denies or removes is worded as the revoked rule below.
      if (networkAcl.test(changed) && !withdrawal.test(changed)) {
        return `A network ACL rule changed on ${root}'s subnet: network ACLs are stateless, so the replies to connections the subnet opens come back to ephemeral ports (1024-65535) and need an inbound rule of their own; without it those connections time out.`;
      }
      if (/security group|ingress|egress|NACL|network acl/i.test(`${text} ${changed}`)) {
        return revocation.test(changed) ? `A network rule that let traffic reach ${root} was revoked, so connections time out.` : `A security-group or network ACL rule no longer lets traffic reach ${root}.`;
      }
      return `Connections to ${root} time out at the network level.`;
    case 'bad data':
      return /duplicate|twice|double/i.test(text) ? `${root} writes the same data twice (duplicate records).` : `${root} receives bad data (malformed or invalid records) that it cannot process.`;
    case 'code defect':
      return change?.kind === 'deploy'
        ? `The new release of ${root} has a code defect: it fails on values it does not expect (${/NullPointer|null|undefined/i.test(text) ? 'a null dereference' : 'a type error'}).`
        : `${root}'s code fails on values it does not expect (${/NullPointer|null|undefined/i.test(text) ? 'a null dereference' : 'a type error'}).`;
    case 'AWS infrastructure':
      return `The AWS infrastructure under ${root} is impaired.`;
    case 'configuration':
      return `A configuration of ${root} is wrong.`;
    case 'missing image':
      return `New tasks of ${root} cannot start: the container image its task definition names is ${/lifecycle|expir/i.test(changed) ? 'no longer in the registry (expired by a lifecycle policy)' : 'not in the registry'}, so pulling it fails (image not found).`;
    default:
      return '';
  }
};

const changeWords: Readonly<Record<string, string>> = {
  deploy: 'a new release',
  config: 'a configuration change',
  'feature-flag': 'a feature-flag change',
  iam: 'a permission change',
  certificate: 'a certificate change',
  network: 'a network change',
  infrastructure: 'an infrastructure event',
};

/** The mechanism at `root`: from its evidence, or failing that from the change that started it. */
export const mechanismOf = (
  root: string,
  rootSignals: readonly Signal[],
  change: Change | undefined,
  changeCategory: RootCauseCategory | undefined,
  rootSeries: readonly Series[] = [],
): Mechanism | undefined => {
  const labels = labelsAt(rootSignals);
  const text = rootSignals.map((signal) => signal.text).join(' ');
  const label = labels[0];
  if (label) {
    const category = causesIn(text).find((hit) => hit.label === label)?.category ?? 'dependency';
    const words = phrase(label, root, rootSignals, text, change, rootSeries);
    if (words) return { label, category, words, principle: mechanismPrinciples[label]! };
  }
  if (change && changeCategory) {
    // What the change itself touched (a network ACL entry, a limit) can name the mechanism when the evidence does not.
    // A timeout setting the change wrote cuts off what takes longer: the setting and its value say how.
    const timeout = change.kind === 'deploy' ? undefined : timeoutSettingOf(change);
    if (timeout) {
      const set = timeout.value === undefined ? timeout.name : `${timeout.name} set to ${timeout.value}`;
      return { label: 'cut off', category: changeCategory, words: `A timeout of ${change.service} changed (${set}): requests that take longer are cut off before their answer comes.`, principle: 'mechanism-timeout-setting' };
    }
    const touched = causesIn(changeText(change))[0]?.label;
    const touchedWords = touched ? phrase(touched, root, rootSignals, `${text} ${change.summary}`, change) : '';
    if (touched && touchedWords) return { label: touched, category: changeCategory, words: touchedWords, principle: 'mechanism-from-change' };
    const what = changeWords[change.kind] ?? 'a change';
    return { label: change.kind, category: changeCategory, words: `${what.charAt(0).toUpperCase()}${what.slice(1)} of ${change.service} broke it.`, restatesChange: true, principle: 'mechanism-from-change' };
  }
  return undefined;
};

const timeoutWords = /timed? ?out|timeout|ETIMEDOUT|deadline/i;
const unavailableWords = /\b50[234]\b|unavailable|bad gateway|server error/i;
const rateLimitWords = /\b429\b|rate.?limit|too many requests|throttl/i;

/** A third party whose calls fail: what its callers see, in plain words. */
const providerWords = (board: EvidenceBoard, cause: IncidentCause): string | undefined => {
  if (board.services?.find((node) => node.name === cause.root)?.kind !== 'external') return undefined;
  const seen = cause.rootSignals.map((signal) => `${signal.text} ${signal.description}`).join(' ');
  const callers = [...new Set(cause.rootSignals.flatMap((signal) => (signal.from ? [signal.from] : [])))];
  const what = [
    rateLimitWords.test(seen) && 'are rate limited',
    timeoutWords.test(seen) && 'time out',
    unavailableWords.test(seen) && 'fail with server errors',
    cause.rootSignals.some((signal) => signal.kind === 'metric' && /latency|duration|response.?time|p9\d/i.test(signal.text)) && 'are slow',
  ].filter(Boolean);
  if (what.length === 0) return undefined;
  return `${cause.root} is a third-party provider: calls${callers.length > 0 ? ` from ${callers.join(', ')}` : ''} to it ${what.join(' and ')}; our services fail where they depend on it.`;
};

/** Where a poison record waits, and who fails on it. */
export interface PoisonRecord {
  /** The queue or stream that holds the record. */
  carrier?: string;
  /** The service that fails on it again and again. */
  reader: string;
  /** Read in order, so it holds back what comes after it. */
  inOrder?: 'fifo' | 'stream';
  /** A queue can drop or park one message; a stream cannot, its reader must move past it. */
  carrierIsQueue: boolean;
}

const streamArn = /:kinesis:|:kafka:/i;
/** How a reader or writer of a FIFO queue speaks of it: its `.fifo` name, its message groups, its order. */
const fifoWords = /MessageGroupId|\bmessage group\b|\w\.fifo\b|\bFIFO order\b/i;
/** A field that names one record: a message or order id, a key, a sequence number or offset (not a request id, new on every attempt). */
const recordIdentifier = /\b((?!request)\w*(?:id|key|sequence|seq|offset))[=:]\s*"?([\w.:-]{4,})/gi;
const isCarrier = (board: EvidenceBoard, name: string): boolean => {
  const node = board.services?.find((candidate) => candidate.name === name);
  return node?.kind === 'sqs' || streamArn.test(node?.arn ?? '') || /:sqs:/i.test(node?.arn ?? '');
};

/**
 * A record that fails the same way on every retry is a poison message. Where it is read in order (a
 * FIFO queue's message group, a stream's shard or partition) it also holds back every later record
 * behind it (head-of-line blocking). Bad data written by `root` fails where it is read, so the
 * readers of what `root` writes count too.
 */
export const poisonRecordOf = (board: EvidenceBoard, cause: IncidentCause): PoisonRecord | undefined => {
  if (cause.mechanism?.label !== 'bad data' && cause.category !== 'data' && !cause.principles.includes('bad-data-writer')) return undefined;
  const carriers = [...neighboursOf(board, cause.root)].filter((name) => name !== cause.root && !computeKinds.has(kindOf(board, name) ?? ''));
  const readers = new Set([cause.root, ...carriers.flatMap((name) => [...neighboursOf(board, name)].filter((reader) => computeKinds.has(kindOf(board, reader) ?? '')))]);
  // One record is the same message, or the same identifier (a message id, an order id, a sequence number) in different messages.
  const counts = new Map<string, { service: string; count: number; message: string }>();
  for (const line of board.logs) {
    if (!readers.has(line.service) || severityOf(line.level) < 3) continue;
    const records = new Set([line.message, ...[...line.message.matchAll(recordIdentifier)].map((match) => `${match[1]}=${match[2]}`)]);
    for (const record of records) {
      const key = `${line.service}|${record}`;
      counts.set(key, { service: line.service, count: (counts.get(key)?.count ?? 0) + 1, message: line.message });
    }
  }
  const repeated = [...counts.values()].filter(({ count }) => count >= 3).sort((a, b) => b.count - a.count);
  const reader = repeated[0]?.service;
  if (!reader) return undefined;
  const messages = repeated.map(({ message }) => message);
  const near = new Set([...neighboursOf(board, cause.root), ...carriers, reader]);
  // The queue or stream between the writer and the reader that fails: where the record waits.
  const carrier = [...neighboursOf(board, reader)].find((name) => carriers.includes(name) && isCarrier(board, name));
  const fifo = (board.services ?? []).some((node) => near.has(node.name) && /\.fifo\b/i.test(`${node.name} ${node.arn ?? ''}`)) || board.logs.some((line) => near.has(line.service) && fifoWords.test(line.message));
  const stream = (board.services ?? []).some((node) => carriers.includes(node.name) && streamArn.test(node.arn ?? '')) || messages.some((message) => /\b(shard|partition)/i.test(message));
  const carrierNode = board.services?.find((node) => node.name === carrier);
  return {
    ...(carrier ? { carrier } : {}),
    reader,
    ...(fifo ? { inOrder: 'fifo' as const } : stream ? { inOrder: 'stream' as const } : {}),
    carrierIsQueue: carrierNode !== undefined && !streamArn.test(carrierNode.arn ?? '') && (carrierNode.kind === 'sqs' || /:sqs:/i.test(carrierNode.arn ?? '')),
  };
};

const poisonWords = (board: EvidenceBoard, cause: IncidentCause): string | undefined => {
  const poison = poisonRecordOf(board, cause);
  if (!poison) return undefined;
  if (poison.inOrder === 'fifo') return 'The same record fails again on every retry (a poison message), and because its queue is a FIFO queue it holds back every later message of its message group (head-of-line blocking).';
  if (poison.inOrder === 'stream') return 'The same record fails again on every retry (a poison message), and because its stream is read in order it holds back every later record of its shard or partition (head-of-line blocking).';
  return 'The same record fails again on every retry (a poison message).';
};

/** What a capacity setting is, in plain words, from how a change names it. */
const capacityNames: readonly [RegExp, string][] = [
  [/reserved.?concurren/i, 'reserved concurrency'],
  [/provisioned.?concurren/i, 'provisioned concurrency'],
  [/concurren/i, 'concurrency'],
  [/max(imum)?.?(capacity|size|count)/i, 'maximum capacity'],
  [/min(imum)?.?(capacity|size|count)/i, 'minimum capacity'],
  [/desired.?count|\btasks?\b/i, 'task count'],
  [/\bWCU\b|write.?capacity|write.?request.?units/i, 'write capacity'],
  [/\bRCU\b|read.?capacity|read.?request.?units/i, 'read capacity'],
  [/instances?|nodes?|replicas?/i, 'instance count'],
];

/** Capacity removed just before the trouble (a scale-in, a lowered maximum): the service was left too small for its load. */
const capacityCutWords = (board: EvidenceBoard, cause: IncidentCause): string | undefined => {
  const cut = capacityCutAt(board, cause.root, cause.rootOnset);
  const lowered = cut ? capacityLoweredBy(cut.summary) : undefined;
  if (!cut || !lowered) return undefined;
  const setting = capacityNames.find(([pattern]) => pattern.test(cut.summary))?.[1] ?? 'capacity';
  // A function with no concurrency reserved for it runs nothing: every invocation is throttled; a service with no tasks does no work.
  const none = Number(lowered.to) !== 0 ? '' : /concurren/i.test(setting) ? ': with none left, every invocation is throttled' : ': with none left, nothing does its work';
  const range = lowered.from !== undefined ? `from ${lowered.from} to ${lowered.to}` : Number(lowered.to) === 0 ? 'to 0' : `to ${lowered.to} (it had no limit before)`;
  const action = scheduledActionBehind(board, cut);
  const named = action?.name ? ` "${action.name}"` : '';
  const why = action ? ` The platform made the cut for a scheduled action${named} put at ${iso(action.change.at)} ("${quoteMessage(action.change.summary)}"), whose schedule fired then.` : '';
  return `Capacity was cut: ${/^[aeiou]/i.test(cut.kind) ? 'an' : 'a'} ${cut.kind} change lowered ${cause.root}'s ${setting} ${range} at ${iso(cut.at)} ("${quoteMessage(cut.summary)}")${none}${none ? '' : ', leaving it too small for its load'}.${why}`;
};

const medianOf = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
/** Received this many times per message sent, more than before, means messages come back before they are done. */
const REDELIVERY_RATIO = 1.5;

/**
 * Messages received more often than they are sent are redelivered: a consumer that has not deleted
 * a message by the end of its visibility timeout gets it again, and processes it twice. A change
 * that lowered the visibility timeout below the processing time is the usual reason.
 */
const redeliveryWords = (board: EvidenceBoard, cause: IncidentCause): string | undefined => {
  const near = neighboursOf(board, cause.root);
  for (const queue of (board.services ?? []).filter((node) => near.has(node.name) && node.kind === 'sqs')) {
    const valuesOf = (pattern: RegExp) => board.series.find((series) => series.service === queue.name && pattern.test(series.name))?.points.map(([, value]) => value);
    const received = valuesOf(/received/i);
    const sent = valuesOf(/sent/i);
    if (!received || !sent || received.length < 6 || received.length !== sent.length) continue;
    const ratio = (from: number, to: number) => medianOf(received.slice(from, to)) / Math.max(medianOf(sent.slice(from, to)), 1e-9);
    const third = Math.floor(received.length / 3);
    const [before, now] = [ratio(0, third), ratio(received.length - third, received.length)];
    if (now < REDELIVERY_RATIO || now < REDELIVERY_RATIO * before) continue;
    const shortened = board.changes.find((change) => change.service === queue.name && /visibility.?timeout/i.test(change.summary) && loweredBy(change.summary.slice(change.summary.search(/visibility.?timeout/i))));
    const lowered = shortened ? loweredBy(shortened.summary.slice(shortened.summary.search(/visibility.?timeout/i))) : undefined;
    return `Messages at ${queue.name} are received about ${now.toFixed(1)} times for each one sent: they are redelivered before their processing ends and handled more than once (duplicates)${lowered ? `, because the visibility timeout was lowered from ${lowered.from} to ${lowered.to} seconds, shorter than the processing takes` : ''}.`;
  }
  return undefined;
};

/** Said of a secret, or of Secrets Manager's staging labels (AWSCURRENT, AWSPENDING). */
const secretWords = /secret|credential|api.?key|password|token|AWSCURRENT|AWSPENDING/i;
const newVersionWords = /rotat|version.?stage|PutSecretValue|UpdateSecret|new version/i;

/** How long before the trouble a secret's rotation is still its cause. */
const ROTATION_WINDOW_MS = 2 * 60 * 60_000;

/** A secret's rotation, and who still presents the value from before it. */
interface RotatedSecret {
  change: Change;
  /** Users of the secret whose credentials are refused after the rotation. */
  holders: string[];
  /** Users of the secret that kept working after it: the new value itself is good. */
  renewed: string[];
}

const refusedCredential = (text: string): boolean => causesIn(text).some((hit) => hit.label === 'credentials');

/**
 * A secret moved to a new version just before the trouble, by the root itself, next to it, or by
 * another user of a secret it shares: the credentials in use no longer match. When some users of
 * the secret keep working after the rotation while others are refused, the new value is good and
 * the refused ones still present the value they read before (a copy cached at start-up or in an
 * environment variable).
 */
const rotatedSecretOf = (board: EvidenceBoard, cause: IncidentCause): RotatedSecret | undefined => {
  const near = withSharedResourceUsers(board, cause.root);
  const rotated = (change: Change) => secretWords.test(`${change.service} ${change.summary}`) && newVersionWords.test(change.summary);
  const change =
    (cause.suspectChange && rotated(cause.suspectChange) ? cause.suspectChange : undefined) ??
    board.changes.find((candidate) => near.has(candidate.service) && rotated(candidate) && candidate.at <= cause.rootOnset && cause.rootOnset - candidate.at <= ROTATION_WINDOW_MS);
  if (!change) return undefined;
  // Who recovered and who still fails was read from the callers' whole course (stale-view.ts), not only from whether they were ever refused.
  if (cause.staleView) return { change, holders: [cause.staleView.caller], renewed: cause.staleView.recovered };
  const users = (board.services ?? []).filter((node) => node.dependsOn.includes(change.service) && computeKinds.has(node.kind ?? '')).map((node) => node.name);
  const after = board.logs.filter((line) => line.at >= change.at);
  const holders = users.filter((user) => after.some((line) => line.service === user && severityOf(line.level) >= 3 && refusedCredential(line.message)));
  const renewed = users.filter((user) => !holders.includes(user) && after.some((line) => line.service === user));
  return { change, holders, renewed };
};

const rotatedSecretWords = (board: EvidenceBoard, cause: IncidentCause): string | undefined => {
  // A rotation its own function left half done is worded as that (failed-rotation.ts).
  if (cause.failedRotation) return undefined;
  const rotated = rotatedSecretOf(board, cause);
  if (!rotated) return undefined;
  const { change, holders, renewed } = rotated;
  const moved = `A rotated secret: ${change.service} moved to a new secret version at ${iso(change.at)}`;
  if (holders.length > 0 && renewed.length > 0) {
    return `${moved}; ${renewed.join(', ')} picked up the new value and kept working, but ${holders.join(', ')} still ${holders.length === 1 ? 'presents' : 'present'} the credentials read before the rotation (a stale copy cached at start-up), which are refused.`;
  }
  return `${moved}, and the credentials in use no longer match it.`;
};

/**
 * A client whose work loads a shared resource is the cause, but how the resource gives way is the
 * mechanism the reader needs (connections held open, full table scans, a replica falling behind):
 * it is read from the resource's own evidence.
 */
const loadedResourceMechanism = (cause: IncidentCause): Mechanism | undefined => {
  const loaded = cause.overloads ?? cause.starves;
  return loaded && loaded !== cause.root ? mechanismOf(loaded, cause.signals.filter((signal) => signal.service === loaded), undefined, undefined) : undefined;
};

/** Deleted by TTL at least this many times as often as before: items live shorter, not more of them expire on time. */
const EARLY_EXPIRY_FACTOR = 2;

/**
 * A DynamoDB table deletes an item once the time in its TTL attribute has passed. Deletions by TTL
 * jumping while the root, which writes the table, fails to find what it wrote, say the items now
 * expire early: the expiry time the root writes changed (seconds read as milliseconds or the
 * reverse, a lifetime lost), not the table.
 */
const earlyExpiryWords = (board: EvidenceBoard, cause: IncidentCause): string | undefined => {
  const tables = dependenciesOf(board, cause.root).filter((name) => kindOf(board, name) === 'dynamodb');
  for (const series of board.series.filter((candidate) => tables.includes(candidate.service) && /TimeToLiveDeletedItemCount/i.test(candidate.name))) {
    const onset = roseBy(series.points, EARLY_EXPIRY_FACTOR);
    if (!onset || (cause.suspectChange && onset.at < cause.suspectChange.at - SAME_TIME_MS)) continue;
    return `Items expire early: ${series.name} at ${series.service} went up from ${Math.round(onset.baseline)} to ${Math.round(onset.level)} at ${iso(onset.at)}, so DynamoDB's TTL deletes what ${cause.root} wrote before it is read again; the expiry time ${cause.root} writes in the items' TTL attribute changed.`;
  }
  return undefined;
};

/** Plain words about how the fault works that need the wider evidence, each with the principle it states: a provider's failure, how a loaded resource gives way, a poison message, a capacity cut, redelivered messages, a rotated secret. */
export const circumstancesTraced = (board: EvidenceBoard, cause: IncidentCause): { principles: Principle[]; words: string }[] => {
  const loaded = loadedResourceMechanism(cause);
  // How the loaded resource gives way is worded by that mechanism's own principle.
  const underLoad = loaded && `Under that load: ${loaded.words.charAt(0).toLowerCase()}${loaded.words.slice(1)}`;
  return (
    [
      [['provider-failing-calls'], providerWords(board, cause)],
      [['load-gives-way', ...(loaded ? [loaded.principle] : [])], underLoad],
      [['poison-record'], poisonWords(board, cause)],
      [['capacity-cut'], capacityCutWords(board, cause)],
      [['redelivered-messages'], redeliveryWords(board, cause)],
      [['items-expire-early'], earlyExpiryWords(board, cause)],
      [['rotated-secret'], rotatedSecretWords(board, cause)],
    ] as const
  ).flatMap(([principles, words]) => (words ? [{ principles: [...principles], words }] : []));
};
