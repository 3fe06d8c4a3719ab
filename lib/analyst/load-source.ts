import { severityOf } from '../analysis/log-templates.ts';
import { detectOnset } from '../analysis/onset.ts';
import { fitTrend } from '../analysis/trend.ts';
import { causesIn } from './cause-signals.ts';
import { loadFollowsRuns, type RunLoad } from './client-runs.ts';
import { startsWork } from './change-effects.ts';
import { CLOSE_CHANGE_MS, suspectChangeFor } from './explaining-change.ts';
import type { Change, EvidenceBoard, LogRecord } from './evidence-board.ts';
import { labelsAt } from './mechanism.ts';
import { meaningOf } from './metric-semantics.ts';
import type { Principle } from './principles.ts';
import { accountQuotaNamedBy, drawsOnAccountQuota, quotaTenantsOf } from './account-quota.ts';
import { callersOf, carrierKinds, computeKinds, dependenciesOf, kindOf } from './service-map.ts';
import { isAccountWide, isFault, SAME_TIME_MS, seriesLabel, windowOf, type Signal } from './signals.ts';
import { quoteMessage } from '../text/quote.ts';
import { onsetOfReadings, timedPoints } from './readings.ts';
import { changeText } from './change-text.ts';
import { capacityLoweredBy } from './lowered-setting.ts';
import { sessionOf, userNamesClient } from './database-user.ts';
import { clientOfLoadBreakdown } from './load-breakdown.ts';
import { openTransactionOn, openTransactionWords } from './open-transaction.ts';

/**
 * Who generates the load on a resource, or holds it: the client whose demand or hold grew before
 * the resource ran out, a job that started just before, a co-tenant of an account-wide quota.
 */

/** What a client can hold on a database that its other clients or the database itself need: locks, the log kept for its replication slot, or an open transaction's snapshot that vacuum must keep. */
export type Held = 'locks' | 'retained log' | 'open transaction';

/** Kinds of service that hold state or queue work: when saturated, usually a client drove them there. */
export const sharedResourceKinds = new Set(['rds', 'dynamodb', 'sqs', 'sns', 's3', 'elasticache', 'kinesis']);

/** What generates load and holds resources: code we run, and a third party calling in. */
const loadKinds = new Set([...computeKinds, 'external']);

/** A resource several clients use: its capacity (connections, ports, request rate) is theirs to share. */
export const isSharedCapacity = (board: EvidenceBoard, service: string): boolean =>
  sharedResourceKinds.has(kindOf(board, service) ?? '') || (!loadKinds.has(kindOf(board, service) ?? 'ecs') && callersOf(board, service).length >= 2);

const unconnected = (board: EvidenceBoard, service: string): boolean =>
  (board.services?.find((node) => node.name === service)?.dependsOn.length ?? 0) === 0 && callersOf(board, service).length === 0;

/** Services that publish a metric of the same name as one of the pool's: their use of it. */
const sharersOf = (board: EvidenceBoard, pool: string): string[] => {
  const measures = new Set(board.series.filter((series) => series.service === pool).map((series) => series.name));
  return [...new Set(board.series.filter((series) => series.service !== pool && measures.has(series.name)).map((series) => series.service))];
};

/** Mechanisms that belong to the resource itself, whatever its clients do. */
const ownFaults: ReadonlySet<string> = new Set(['disk', 'burst credits', 'AWS infrastructure', 'certificate', 'credentials', 'access denied', 'disabled key', 'network', 'bad data']);

/**
 * Whether a service's own evidence (`own`: its signals) names a fault that belongs to it, by the
 * time `by`. Sparse evidence counts: one error line of its own that names such a fault (a database's
 * "No space left on device"), though too few for the template miner, is the resource speaking.
 */
export const namesOwnFault = (board: EvidenceBoard, own: readonly Signal[], service: string, by = Number.POSITIVE_INFINITY): boolean =>
  labelsAt(own.filter((signal) => signal.kind !== 'mentioned' && signal.kind !== 'trace' && signal.kind !== 'alarm' && !sessionDataRefused(signal.text))).some((label) => ownFaults.has(label)) ||
  board.logs.some((line) => {
    if (line.service !== service || severityOf(line.level) < severityOf('ERROR') || line.at > by + SAME_TIME_MS) return false;
    const causes = causesIn(line.message);
    return !sessionDataRefused(line.message, causes) && causes.some((hit) => ownFaults.has(hit.label));
  });

/**
 * A database refusing what one client session sent (a duplicate key, a broken constraint), logged
 * under that session's `user@database:[pid]` prefix, speaks of the client's data, not of a fault of its own.
 */
const sessionDataRefused = (text: string, causes = causesIn(text)): boolean =>
  sessionOf.test(text) && causes.length > 0 && causes.every((hit) => hit.label === 'bad data');

/** The kinds of what a container service's tasks are placed on: its cluster's instances. */
const hostKinds: ReadonlySet<string> = new Set(['ec2']);

/** Labels that say a caller was refused for want of capacity behind it, not for a fault of its own. */
const capacityRefusals = new Set(['throttling', 'connections']);

/** A service shedding load turns requests away at a limit of its own: it refuses, it is not refused. */
const shedsLoad = /load.?shed|shedding/i;

/** Resources that hold or carry data and run nothing: what is launched on them runs in whoever they feed. */
const dataHoldingKinds: ReadonlySet<string> = new Set(['s3', ...carrierKinds]);

/** When Lambda began refusing to invoke a function (its Throttles measure rose): refusals before its code runs, for want of its own or the account's concurrency. */
export const refusedInvocationsAt = (board: EvidenceBoard, signals: readonly Signal[], service: string): number =>
  kindOf(board, service) === 'lambda'
    ? Math.min(...signals.filter((signal) => signal.service === service && (signal.kind === 'metric' || signal.kind === 'trend') && signal.substantial && /^Throttles\b/.test(signal.text)).map((signal) => signal.at))
    : Number.POSITIVE_INFINITY;

/** A service refused for want of capacity: throttled, connections refused. */
export const isRefusedCapacity = (own: readonly Signal[]): boolean => {
  const refusals = own.filter((signal) => !shedsLoad.test(signal.text) && labelsAt([signal]).some((label) => capacityRefusals.has(label)));
  // A refused call or two among its lines is no starvation; more, in one kind of line or several, at any level, are.
  const lines = refusals.filter((signal) => signal.kind === 'errors').reduce((sum, signal) => sum + (signal.count ?? 1), 0);
  return refusals.some((signal) => signal.kind !== 'errors' || signal.substantial) || lines >= FEWEST_REFUSED_LINES;
};

/** Refused lines it takes to say a service is refused for want of capacity. */
const FEWEST_REFUSED_LINES = 3;

/** A service refused for want of capacity while its own demand did not surge. */
export const isStarved = (own: readonly Signal[]): boolean => isRefusedCapacity(own) && !own.some((signal) => signal.kind === 'demand' && signal.substantial);

/** The capacities a service shares with other clients: its dependencies of a shared kind. */
export const sharedCapacityOf = (board: EvidenceBoard, service: string): string[] => dependenciesOf(board, service).filter((callee) => isSharedCapacity(board, callee));

/**
 * The shared capacity behind a service that is refused for want of it: a service throttled or
 * refused connections, whose own demand did not surge, is pushed back by a resource it shares
 * with other clients (a managed API's request rate, a NAT gateway's ports, a database's
 * connections). That resource, and whoever loads it, is where to look; the refused service shows
 * the symptom. With several such resources, the one that shows trouble of its own.
 */
export const capacityBehind = (board: EvidenceBoard, service: string, signals: readonly Signal[]): string | undefined => {
  const own = signals.filter((signal) => signal.service === service);
  // Tasks with no host to be placed on: the hosts they run on ran short, whatever the demand that asked for the tasks.
  const hosts = dependenciesOf(board, service).filter((callee) => hostKinds.has(kindOf(board, callee) ?? ''));
  if (labelsAt(own).includes('placement') && hosts.length === 1) return hosts[0];
  // A proxy whose connections are pinned to its clients' sessions is short of connections it holds itself, not of what is behind it.
  if (!isStarved(own) || labelsAt(own).includes('pinning')) return undefined;
  const quota = accountQuotaNamedBy(board, service, signals);
  if (quota) return quota;
  // A function Lambda refuses to invoke lacks concurrency, which no table or service it calls provides; a queue or stream it shares may carry the work that took it.
  const refused = Number.isFinite(refusedInvocationsAt(board, signals, service));
  const shared = sharedCapacityOf(board, service).filter((callee) => !refused || carrierKinds.has(kindOf(board, callee) ?? ''));
  if (shared.length === 1) return shared[0];
  const troubled = shared.filter((callee) => signals.some((signal) => signal.service === callee && signal.kind !== 'alarm'));
  return troubled.length === 1 ? troubled[0] : undefined;
};

/**
 * The database a lagging replica replays: the one it depends on; when the map does not link them,
 * the only other database of its kind whose load rose before the lag did.
 */
export const replicaSource = (board: EvidenceBoard, replica: string, signals: readonly Signal[], lagOnset: number): string | undefined => {
  const linked = dependenciesOf(board, replica).find((name) => sharedResourceKinds.has(kindOf(board, name) ?? ''));
  if (linked) return linked;
  const kind = kindOf(board, replica);
  const loaded = (board.services ?? [])
    .filter((node) => node.name !== replica && node.kind === kind)
    .filter((node) => signals.some((signal) => signal.service === node.name && (signal.kind === 'demand' || signal.kind === 'metric') && signal.at <= lagOnset + SAME_TIME_MS));
  return loaded.length === 1 ? loaded[0]!.name : undefined;
};

/**
 * Which client drove a shared resource into the ground: the one whose load or hold on it grew
 * before the resource failed (its own faults or demand start no later than the resource's), or
 * failing that, one that changed just before.
 */
export const clientToBlame = (
  board: EvidenceBoard,
  signals: readonly Signal[],
  resource: string,
  onsetOf: (service: string) => number,
  clients: readonly string[],
): { service: string; change?: Change; overload?: boolean; principle: Principle; runs?: RunLoad; holds?: Held; hotKey?: string } | undefined => {
  const resourceOnset = onsetOf(resource);
  // What the resource says about who uses it outranks what the clients that fail with it report.
  const named = clientNamedByResource(board, resource, clients);
  if (named) {
    const troubleAtClients = Math.min(...clients.map(onsetOf));
    const since = named.since ?? (Number.isFinite(troubleAtClients) ? troubleAtClients : resourceOnset);
    // A client holding what the others or the database need (locks, a replication slot's log) is not load: it holds it.
    const change = suspectChangeFor(board.changes, new Set([named.service]), since);
    return { service: named.service, change, overload: named.holds === undefined, principle: 'resource-names-its-client', ...(named.holds ? { holds: named.holds } : {}), ...(named.hotKey ? { hotKey: named.hotKey } : {}) };
  }
  // A client whose every run the load follows, up at its start and down at its end, is that load, whenever the trouble was first seen.
  const runs = loadFollowsRuns(board, resource, clients);
  if (runs) return { service: runs.client, change: suspectChangeFor(board.changes, new Set([runs.client]), runs.starts[0]!), overload: true, principle: 'load-follows-client-runs', runs };
  // Load comes before exhaustion: work launched shortly before the resource ran out is that load,
  // whatever the clients that fail with the resource report. The load dates from the resource's
  // demand rising, or else from the first trouble it caused anywhere; the launch may fall between
  // that and the resource running out.
  const loadStarts = Math.min(loadOnset(signals, resource, resourceOnset), ...clients.map(onsetOf));
  const launched = workLaunchedBefore(board, resource, clients, loadStarts, Math.max(loadStarts, Number.isFinite(resourceOnset) ? resourceOnset : loadStarts));
  if (launched) return { ...launched, overload: true, principle: 'work-launched-is-load' };
  // Only a caller of the resource can be slowed by it; a co-tenant of its quota that does not call it is not reacting to it.
  const calls = (service: string) => callersOf(board, resource).includes(service);
  // Demand counts as load when it surged: a rise of a few tens of percent is ordinary variation.
  const earlyFaults = (client: string) =>
    signals.filter((signal) => signal.service === client && signal.ongoing && signal.at <= resourceOnset + SAME_TIME_MS && (isFault(signal) || (signal.kind === 'demand' && signal.substantial)));
  // A client whose errors name another client as the source of its input is that client's victim.
  const namedByOtherClients = (client: string) => earlyFaults(client).filter((signal) => signal.kind === 'mentioned' && clients.includes(signal.from ?? ''));
  // What a client did itself: not pushback from the resource, not a metric of a caller that moved
  // after the resource faltered (a co-tenant of a quota that does not call it is not slowed by it),
  // not its own callers complaining about it (only another client's word counts).
  const owned = (signal: Signal) =>
    !(calls(signal.service) && isReactionTo(resource, signal, signals)) &&
    !(signal.kind === 'metric' && signal.at >= resourceOnset && calls(signal.service)) &&
    !(signal.kind === 'mentioned' && !clients.includes(signal.from ?? ''));
  const early = clients
    .filter((client) => earlyFaults(client).some((signal) => owned(signal)))
    .map((client) => ({ client, named: namedByOtherClients(client).length > 0, strength: earlyFaults(client).reduce((sum, signal) => sum + signal.strength, 0) }))
    .filter(({ strength }) => strength >= 0.3)
    .sort((a, b) => Number(b.named) - Number(a.named) || b.strength - a.strength || a.client.localeCompare(b.client));
  if (early[0]) {
    const own = earlyFaults(early[0].client).filter(owned);
    // A co-tenant's rising usage of the shared quota is its load, as demand is a caller's.
    const isLoad = (signal: Signal) => signal.kind === 'demand' || (!calls(signal.service) && signal.kind === 'metric');
    return { service: early[0].client, change: suspectChangeFor(board.changes, new Set([early[0].client]), resourceOnset), overload: own.every(isLoad), principle: 'early-client-is-load' };
  }
  // A change explains the resource's trouble only at a client that shows something on it.
  const active = clients.filter((client) => signals.some((signal) => signal.service === client && signal.ongoing && signal.kind !== 'alarm'));
  const change = suspectChangeFor(board.changes, new Set(active), resourceOnset);
  return change && resourceOnset - change.at <= CLOSE_CHANGE_MS ? { service: change.service, change, principle: 'client-change-at-shared-resource' } : undefined;
};

/** A statement's verb and table: what a database's account of its load and a client's own log both name. */
const statementPattern = /\b(?:select\b[^;]{0,300}?\bfrom|update|delete\s+from|insert\s+into)\s+[`"]?([a-z_][\w.]*)/gi;

/** The first statement a line names, as `verb table` (`select listings`, `update loyalty_points`). */
const firstStatement = (text: string): string | undefined => {
  const match = [...text.matchAll(statementPattern)][0];
  return match ? `${match[0].split(/\s+/)[0]!.toLowerCase()} ${match[1]!.toLowerCase()}` : undefined;
};

const statementsIn = (text: string): string[] =>
  [...text.matchAll(statementPattern)].map((match) => `${match[0].split(/\s+/)[0]!.toLowerCase()} ${match[1]!.toLowerCase()}`);

/** A share that at least doubled has grown, not wandered. */
const GREW_FACTOR = 1;

/**
 * The resource's own account of who loads or holds it. A measure of it broken down by client (a
 * dimension whose value is a client's name: connections by application, requests by caller) that
 * at least doubled names that client, from when its share began to grow, as does its breakdown of its
 * load by user or statement (load-breakdown.ts) and its own log's count of what each user holds
 * (clientCountedByResource). A database's account of
 * its heaviest work (a top-SQL or slow-query line) names a statement; the one client whose own logs
 * issue the same statement (verb and table) is the one loading it.
 */
export const clientNamedByResource = (board: EvidenceBoard, resource: string, clients: readonly string[]): { service: string; since?: number; holds?: Held; hotKey?: string } | undefined => {
  const grown = clients.flatMap((client) =>
    board.series
      .filter((series) => series.service === resource && Object.values(series.dimensions ?? {}).includes(client))
      .flatMap((series) => {
        const onset = onsetOfReadings(series.points);
        return onset && onset.direction === 'up' && onset.relativeChange >= GREW_FACTOR ? [{ service: client, since: onset.at }] : [];
      }),
  );
  if (new Set(grown.map((item) => item.service)).size === 1) return grown[0];
  const breakdown = clientOfLoadBreakdown(board, resource, clients);
  if (breakdown) return breakdown;
  const counted = clientCountedByResource(board, resource, clients);
  if (counted) return counted;
  const hotKeyWriter = clientWritingHotKey(board, resource, clients);
  if (hotKeyWriter) return hotKeyWriter;
  const holder = lockHolderNamedBy(board, resource, clients) ?? slotHolderOf(board, resource, clients) ?? transactionHolderOf(board, resource, clients);
  if (holder) return holder;
  const user = slowQueryUserNamedBy(board, resource, clients) ?? tempFileWriterNamedBy(board, resource, clients);
  if (user) return user;
  const heaviest = new Set(board.logs.filter((line) => line.service === resource).flatMap((line) => firstStatement(line.message) ?? []));
  if (heaviest.size === 0) return undefined;
  const issuers = clients.filter((client) => board.logs.some((line) => line.service === client && statementsIn(line.message).some((statement) => heaviest.has(statement))));
  return issuers.length === 1 ? { service: issuers[0]! } : undefined;
};

/** A database's account of a lock wait names the session holding the lock (PostgreSQL's log_lock_waits). */
const lockHolder = /Process holding the lock: (\d+)/g;

/** One count in a resource's breakdown by user: `courier_dispatch=600`. */
const countOfUser = /\b([A-Za-z][\w.-]*)=(\d+)\b/g;

/**
 * The client whose count in the resource's own breakdown by user (a line of `user=count` pairs:
 * connections held per database user, sessions per application) at least doubled, when it is the
 * only one: the resource names who took what it ran out of, from the first count that shows it.
 */
const clientCountedByResource = (board: EvidenceBoard, resource: string, clients: readonly string[]): { service: string; since: number } | undefined => {
  const readings = new Map<string, { at: number; count: number }[]>();
  for (const line of board.logs.filter((candidate) => candidate.service === resource)) {
    const pairs = [...line.message.matchAll(countOfUser)];
    if (pairs.length < 2) continue;
    for (const client of clients) {
      const pair = pairs.find(([, user]) => userNamesClient(user!, client));
      if (pair) readings.set(client, [...(readings.get(client) ?? []), { at: line.at, count: Number(pair[2]) }]);
    }
  }
  const grown = [...readings].flatMap(([service, counts]) => {
    const first = counts[0]!.count;
    const grew = counts.find((reading) => first > 0 && reading.count >= (1 + GREW_FACTOR) * first);
    return grew ? [{ service, since: grew.at }] : [];
  });
  return grown.length === 1 ? grown[0] : undefined;
};

/** A key that rose to no more than this share of the hottest one is not hot with it. */
const HOT_KEY_SHARE = 0.1;

/** A key's stem: what every key of its kind shares (`CHALLENGE#` of `CHALLENGE#2026-05-14`), or the whole key when it has no parts. */
const keyStem = (key: string): string => /^[^#|:]+[#|:]/.exec(key)?.[0] ?? key;

/**
 * The client that writes the key a table's own top-contributors measure (DynamoDB Contributor
 * Insights: a `Contributor` dimension) names as the one that rose: a hot key, one partition taking
 * more than a partition can while the table has room. Of the table's clients, the one whose logs or
 * changes name that key, or keys of its kind, writes it; it is named when it is the only one.
 */
const clientWritingHotKey = (board: EvidenceBoard, resource: string, clients: readonly string[]): { service: string; since: number; hotKey: string } | undefined => {
  const risen = board.series
    .filter((series) => series.service === resource && series.dimensions?.['Contributor'] !== undefined)
    .flatMap((series) => {
      const onset = onsetOfReadings(series.points);
      return onset && onset.direction === 'up' && onset.relativeChange >= GREW_FACTOR ? [{ key: series.dimensions!['Contributor']!, since: onset.at, level: onset.level }] : [];
    });
  // One key far above every other that rose: a key of another kind alongside at a tenth of it is the usual spread.
  const top = Math.max(...risen.map(({ level }) => level));
  const hot = risen.filter(({ level }) => level > HOT_KEY_SHARE * top);
  const stems = new Set(hot.map(({ key }) => keyStem(key)));
  if (stems.size !== 1) return undefined;
  const [stem] = stems;
  const writers = clients.filter(
    (client) => board.logs.some((line) => line.service === client && line.message.includes(stem!)) || board.changes.some((change) => change.service === client && changeText(change).includes(stem!)),
  );
  const hottest = hot.find(({ level }) => level === top)!;
  return writers.length === 1 ? { service: writers[0]!, since: Math.min(...hot.map(({ since }) => since)), hotKey: hottest.key } : undefined;
};

/** MySQL's slow query log names who ran each statement it records: `# User@Host: insights_ro[insights_ro] @ [10.0.0.1]`. */
const slowQueryUser = /# User@Host: ([A-Za-z][\w.-]*)\[/;

/** A database's temporary space: where a query's sorts, joins and grouping spill (`/rdsdbdata/tmp/#sql…`, `pgsql_tmp`). */
const tempSpace = /\/tmp\/|#sql|pgsql_tmp|temporary (file|table|space)|temp file/i;

/**
 * Whether a database's storage fault is its temporary space filled by queries its slow query log
 * names: the space is taken by those queries, whoever runs them.
 */
const tempSpaceFilledBy = (board: EvidenceBoard, database: string): boolean =>
  board.logs.some((line) => line.service === database && severityOf(line.level) >= severityOf('ERROR') && tempSpace.test(line.message) && causesIn(line.message).some((hit) => hit.label === 'disk')) &&
  slowQueryUserNamedBy(board, database, callersOf(board, database)) !== undefined;

/** A slow query log entry's times: how long the statement took, and how long of that it waited for locks. */
const queryTimes = /Query_time:\s*([\d.]+)\s+Lock_time:\s*([\d.]+)/;

/** An entry that spent most of its time waiting for locks was held up by another session's work: it is not the heavy work. */
const waitedOnLocks = (entry: string): boolean => {
  const times = queryTimes.exec(entry);
  return times !== null && Number(times[2]) >= Number(times[1]) / 2;
};

/**
 * The client whose statements the database's slow query log records: the users those entries name
 * name one client. The heaviest work on a database is whoever runs it; a statement that spent most of
 * its time waiting for locks is not heavy work, only held up by it.
 */
const slowQueryUserNamedBy = (board: EvidenceBoard, resource: string, clients: readonly string[]): { service: string; since?: number } | undefined => {
  const entries = board.logs
    .filter((line) => line.service === resource && slowQueryUser.test(line.message) && !waitedOnLocks(line.message))
    .map((line) => ({ at: line.at, user: slowQueryUser.exec(line.message)![1]! }));
  const named = clients.filter((client) => entries.some(({ user }) => userNamesClient(user, client)));
  if (named.length !== 1) return undefined;
  return { service: named[0]!, since: entries.find(({ user }) => userNamesClient(user, named[0]!))!.at };
};

/** The sessions (process ids) a database's lock waits name as holding the locks they wait for. */
const lockHoldersAt = (board: EvidenceBoard, resource: string): Set<string> =>
  new Set(board.logs.filter((line) => line.service === resource).flatMap((line) => [...line.message.matchAll(lockHolder)].map((match) => match[1]!)));

/** The application a PostgreSQL session says it is (`application_name=pg-maintenance` as it connects). */
const applicationName = /application_name=([A-Za-z][\w.-]*)/;
/** A client's own account of the database session it runs on (`backend_pid=28841`). */
const ownBackendPid = /\bbackend_?pid[=: ]+(\d+)/i;

/**
 * The one client that runs the given database sessions, as the database tells it: the user they log
 * in as names it (every word of the user that says who it is is a word of the client's name:
 * `seat_recount` is `seat-recount-cron`), or the application name they connect with, or the client's
 * own logs say it runs on one of those sessions.
 */
const clientOfSessions = (board: EvidenceBoard, resource: string, pids: ReadonlySet<string>, clients: readonly string[]): string | undefined => {
  const sessions = board.logs.filter((line) => line.service === resource && pids.has(sessionOf.exec(line.message)?.[2] ?? ''));
  const users = new Set(sessions.map((line) => sessionOf.exec(line.message)![1]!));
  const applications = new Set(sessions.flatMap((line) => applicationName.exec(line.message)?.[1] ?? []));
  const runsOnSession = (client: string) => board.logs.some((line) => line.service === client && pids.has(ownBackendPid.exec(line.message)?.[1] ?? ''));
  const named = clients.filter((client) => [...users].some((user) => userNamesClient(user, client)) || applications.has(client) || runsOnSession(client));
  return named.length === 1 ? named[0] : undefined;
};

/** The client holding the locks others wait for: the sessions the database's lock waits name as the holder, and who runs them. */
const lockHolderNamedBy = (board: EvidenceBoard, resource: string, clients: readonly string[]): { service: string; since?: number; holds: Held } | undefined => {
  const holders = lockHoldersAt(board, resource);
  if (holders.size === 0) return undefined;
  const firstWait = board.logs.find((line) => line.service === resource && line.message.match(lockHolder));
  const holder = clientOfSessions(board, resource, holders, clients);
  return holder ? { service: holder, holds: 'locks', ...(firstWait ? { since: firstWait.at } : {}) } : undefined;
};

/** The client keeping a transaction open on the database, from when it opened. */
const transactionHolderOf = (board: EvidenceBoard, resource: string, clients: readonly string[]): { service: string; since: number; holds: Held } | undefined => {
  const open = openTransactionOn(board, resource, clients);
  return open ? { service: open.holder, since: open.openedAt, holds: 'open transaction' } : undefined;
};

/** PostgreSQL's account of a temporary file a session's sort, hash or join spilled to disk (log_temp_files). */
const tempFileLogged = /temporary file: path/i;

/**
 * The client whose queries spill temporary files onto the database's storage: the sessions the
 * database's log records writing them, and who runs them. A query's temporary files take the
 * storage it needs for its sorts and joins, from the database's own volume.
 */
const tempFileWriterNamedBy = (board: EvidenceBoard, resource: string, clients: readonly string[]): { service: string; since: number } | undefined => {
  const written = tempFilesLoggedAt(board, resource);
  const writer = written.length > 0 ? clientOfSessions(board, resource, sessionsIn(written), clients) : undefined;
  return writer ? { service: writer, since: written[0]!.at } : undefined;
};

/** The database's lines recording a temporary file written. */
const tempFilesLoggedAt = (board: EvidenceBoard, resource: string): LogRecord[] => board.logs.filter((line) => line.service === resource && tempFileLogged.test(line.message));

/** The sessions (process ids) the lines' prefixes name. */
const sessionsIn = (lines: readonly LogRecord[]): Set<string> => new Set(lines.flatMap((line) => sessionOf.exec(line.message)?.[2] ?? []));

/** Sessions a database's log names as taking what others need (locks they hold, temporary files they write): whose they are tells who. */
export const sessionsToIdentifyAt = (board: EvidenceBoard, resource: string): Set<string> => new Set([...lockHoldersAt(board, resource), ...sessionsIn(tempFilesLoggedAt(board, resource))]);

/** A database's measures of the write-ahead log it keeps for its replication slots. */
const retainedLogMeasure = /replication.?slot|TransactionLogsDiskUsage|transaction.?logs?.?(disk|usage)|\bwal\b.*(retained|disk|size)/i;
/** A change that stopped a client's work: a replication or change-data-capture task stopped, paused or disabled, in words or by its API call. */
const stoppedWork = /\b(stop(ped|s)?|paus(e|ed|es|ing)|disabl(e|ed|es)|suspend(ed|s)?)\b/i;
const stoppingCall = /\b(Stop|Pause|Disable|Suspend)[A-Z]\w*/;
/** A slot keeps its log for as long as its consumer stays away: weeks, for a task paused and forgotten. */
const SLOT_HOLD_REACH_MS = 30 * 24 * 60 * 60_000;
/** A client whose measures stopped this long before the evidence ends, after at least a few points, went silent. */
const SILENCE_MS = 6 * 60 * 60_000;
const FEWEST_SILENT_POINTS = 3;
/** A line fits a climb this well when the log a slot keeps grows at the steady rate the database writes. */
const STEADY_CLIMB_FIT = 0.8;

/** When the log a database keeps for its replication slots began to grow: its step up, or the first point of a steady climb. */
const retainedLogGrowing = (board: EvidenceBoard, resource: string): number | undefined => {
  const starts = board.series
    .filter((series) => series.service === resource && retainedLogMeasure.test(series.name))
    .flatMap((series) => {
      const points = timedPoints(series.points);
      const onset = detectOnset(points);
      if (onset?.direction === 'up' && onset.recoveredAt === undefined) return [onset.at];
      const climb = fitTrend(points);
      return climb && climb.slopePerHour > 0 && climb.r2 >= STEADY_CLIMB_FIT ? [climb.from] : [];
    });
  return starts.length > 0 ? Math.min(...starts) : undefined;
};

/**
 * The client that holds a database's replication slot: the log the database keeps for its slots
 * grows from when one client that reads its changes was stopped, and keeps growing while it stays
 * away. The database is filled by what it must keep for that client, not by its writers.
 */
const slotHolderOf = (board: EvidenceBoard, resource: string, clients: readonly string[]): { service: string; since: number; holds: Held } | undefined => {
  const growing = retainedLogGrowing(board, resource);
  if (growing === undefined) return undefined;
  const near = (at: number) => at <= growing + SAME_TIME_MS && growing - at <= SLOT_HOLD_REACH_MS;
  // Scaled to nothing ("desiredCount 1 -> 0") is stopped too.
  const stopsWork = (summary: string) => stoppedWork.test(summary) || stoppingCall.test(summary) || capacityLoweredBy(summary)?.to === '0';
  const stopped = board.changes.filter((change) => clients.includes(change.service) && stopsWork(change.summary) && near(change.at));
  // Without the stop on record, the client's own measures going silent while the others go on says its work stopped.
  const end = windowOf(board)?.end;
  const silent = clients.flatMap((client) => {
    const lasts = board.series.filter((series) => series.service === client && series.points.length >= FEWEST_SILENT_POINTS).map((series) => Date.parse(series.points.at(-1)![0]));
    const last = lasts.length > 0 ? Math.max(...lasts) : undefined;
    return last !== undefined && end !== undefined && end - last >= SILENCE_MS && near(last) ? [{ service: client, at: last }] : [];
  });
  const stops = [...stopped.map((change) => ({ service: change.service, at: change.at })), ...silent];
  const holders = new Set(stops.map((stop) => stop.service));
  return holders.size === 1 ? { service: stops[0]!.service, since: Math.min(...stops.map((stop) => stop.at)), holds: 'retained log' } : undefined;
};

const slotHolderWords = (_board: EvidenceBoard, holder: string, database: string): string =>
  `${holder} reads ${database}'s changes through a replication slot and was stopped: ${database} keeps every write-ahead log (WAL) segment since for it, so the retained log fills ${database}'s storage.`;

/** Work that takes a table's locks for as long as it runs: maintenance, schema changes, and the writes a transaction keeps open. */
const lockingWork = /\b(VACUUM\b[^\n]{0,40}\bFULL|VACUUM|ALTER\s+TABLE|REINDEX|CLUSTER|LOCK\s+TABLE|CREATE\s+(UNIQUE\s+)?INDEX|TRUNCATE|UPDATE|DELETE\s+FROM|INSERT\s+INTO)\b/i;

/**
 * What the holder was running when the waits began: its own latest line before them that names
 * work taking locks, or the database's account of a holder session's statement.
 */
const workHoldingLocks = (board: EvidenceBoard, holder: string, database: string): string | undefined => {
  const firstWait = Math.min(...board.logs.filter((line) => line.service === database && line.message.match(lockHolder)).map((line) => line.at));
  const holders = lockHoldersAt(board, database);
  const holderSession = (message: string) => holders.has(sessionOf.exec(message)?.[2] ?? '');
  return board.logs
    .filter((line) => (line.service === holder || (line.service === database && holderSession(line.message))) && line.at <= firstWait + SAME_TIME_MS && lockingWork.test(line.message))
    .sort((a, b) => b.at - a.at)[0]?.message;
};

/** Work that takes the whole table's ACCESS EXCLUSIVE lock for as long as it runs (PostgreSQL): a rewrite of the table, or an explicit table lock. */
const exclusiveTableWork = /\bVACUUM\b[^\n]{0,40}\bFULL\b|\bCLUSTER\b|\bALTER\s+TABLE\b|\bLOCK\s+TABLE\b|\bTRUNCATE\b/i;

const lockHolderWords = (board: EvidenceBoard, holder: string, database: string): string => {
  const work = workHoldingLocks(board, holder, database);
  const exclusive = work && exclusiveTableWork.test(work) ? ' That work takes an ACCESS EXCLUSIVE lock on the whole table for as long as it runs (a table rewrite), so every read and write of that table waits behind it.' : '';
  const running = work ? ` When the waits began, ${holder} was running "${quoteMessage(work)}".${exclusive}` : '';
  return `${holder} holds locks on ${database} and does not release them: ${database}'s lock waits name ${holder}'s session as the holder, so the transactions of its other clients are blocked behind it.${running}`;
};

/**
 * Kinds whose capacity is an account-wide quota every resource of the kind draws on unless it
 * reserves its own: Lambda's concurrent executions, API Gateway's request rate.
 */
const accountQuotaKinds = new Set(['lambda', 'apigateway']);

/**
 * Whether a concurrency series filed under `root` rose: its own (`accountWide: false`) or the account's pool it draws on
 * (`accountWide: true`). A measure published without the dimension that names a resource (Lambda's ConcurrentExecutions
 * with no FunctionName) is the whole account's, whichever service it is filed under. A function capped by a limit of its
 * own (reserved concurrency) is throttled with its own use flat too, while the account's pool has room.
 */
export const concurrencyRose = (board: EvidenceBoard, root: string, rootSignals: readonly Signal[], { accountWide }: { accountWide: boolean }): boolean => {
  const labels = new Set(board.series.filter((series) => series.service === root && /concurren/i.test(series.name) && isAccountWide(series) === accountWide).map(seriesLabel));
  return rootSignals.some((signal) => (signal.kind === 'metric' || signal.kind === 'trend') && signal.substantial && labels.has(signal.text));
};

/**
 * Who holds the capacity `root` ran out of. A shared resource's capacity is held by its clients.
 * A throttled service whose own demand did not surge shares its quota with the account's other
 * resources of its kind: one of them took it.
 */
export const tenantsOf = (board: EvidenceBoard, root: string, rootSignals: readonly Signal[]): { tenants: string[]; coTenants: boolean } => {
  const kind = kindOf(board, root) ?? '';
  // A fault of the resource's own (a failing volume, an impaired zone, a refused certificate) is not its clients' doing,
  // except what a client takes: temporary space filled by the queries its slow query log names or the temporary files its
  // log records one client's sessions writing, log kept for its replication
  // slot, or the locks its lock waits name one client's session as holding (whatever the holder's work also does to it).
  // A function Lambda refuses to invoke is judged on what still fails there: a fault it recovered from before is not why.
  const refused = Number.isFinite(refusedInvocationsAt(board, rootSignals, root));
  if (refused ? namesOwnFault(board, rootSignals.filter((signal) => signal.ongoing), root, Number.NEGATIVE_INFINITY) : namesOwnFault(board, rootSignals, root)) {
    const clients = callersOf(board, root);
    const takenByClient =
      tempSpaceFilledBy(board, root) || tempFileWriterNamedBy(board, root, clients) !== undefined || slotHolderOf(board, root, clients) !== undefined || lockHolderNamedBy(board, root, clients) !== undefined || openTransactionOn(board, root, clients) !== undefined;
    return { tenants: takenByClient ? callersOf(board, root) : [], coTenants: false };
  }
  // A key its callers find disabled or pending deletion refuses them for its state, not for a quota they took.
  if (labelsAt(rootSignals).includes('disabled key')) return { tenants: [], coTenants: false };
  // An account-wide request quota (KMS, Parameter Store) is held by the clients of every resource of its service, not only this one's.
  if (drawsOnAccountQuota(board, root)) return { tenants: quotaTenantsOf(board, root), coTenants: true };
  if (isSharedCapacity(board, root)) return { tenants: callersOf(board, root), coTenants: false };
  // A pool the map connects to nothing (an account's concurrency, a quota) is held by whoever reports the same measure of it.
  if (!loadKinds.has(kind) && kind !== '' && unconnected(board, root)) return { tenants: sharersOf(board, root), coTenants: false };
  const throttled = labelsAt(rootSignals).includes('throttling');
  const ownSurge = rootSignals.some((signal) => signal.kind === 'demand' && signal.substantial) || concurrencyRose(board, root, rootSignals, { accountWide: false });
  if (!accountQuotaKinds.has(kind) || !throttled || ownSurge) return { tenants: [], coTenants: false };
  return { tenants: (board.services ?? []).filter((node) => node.kind === kind && node.name !== root).map((node) => node.name), coTenants: true };
};

/**
 * The one client whose work was launched between shortly before the load began and the resource
 * running out: by a change that starts work (RunTask, a backfill, a load test) at the client or at
 * whoever feeds it, or by the client itself beginning to log then after a silence (a batch, an
 * import: its first line dates its start; the other clients were already running). Two launchers
 * leave it open.
 */
const workLaunchedBefore = (board: EvidenceBoard, resource: string, clients: readonly string[], loadStarts: number, ranOut: number): { service: string; change?: Change } | undefined => {
  const feeders = clients.flatMap((client) => callersOf(board, client));
  const launches = board.changes.filter(
    (change) => (clients.includes(change.service) || feeders.includes(change.service)) && startsWork(change) && change.at <= ranOut + SAME_TIME_MS && loadStarts - change.at <= CLOSE_CHANGE_MS,
  );
  // Work launched at a feeder that only holds data (a bucket's batch copy, a queue's redrive) runs in the client it feeds.
  const runsWork = (service: string) => (clients.includes(service) || !dataHoldingKinds.has(kindOf(board, service) ?? '') ? service : clients.filter((client) => callersOf(board, client).includes(service)));
  const launchers = new Set(launches.flatMap((change) => runsWork(change.service)));
  if (launchers.size === 1) return { service: [...launchers][0]!, change: launches.at(-1) };
  if (launchers.size > 1) return undefined;
  // A job released just before it started (a new function, a new version) is undone with that release.
  const job = jobStartedBefore(board, resource, clients, loadStarts, ranOut);
  return job ? { service: job, change: suspectChangeFor(board.changes, new Set([job]), ranOut) } : undefined;
};

/** When load on a resource began: its demand rising, or else its trouble. */
const loadOnset = (signals: readonly Signal[], resource: string, troubleOnset: number): number =>
  Math.min(troubleOnset, ...signals.filter((signal) => signal.service === resource && signal.kind === 'demand' && signal.substantial).map((signal) => signal.at));

/** Measures a container service publishes only while its tasks run. */
const runningOnly = /^(CPUUtilization|MemoryUtilization|RunningTaskCount)$/;

/** A job silent for most of the evidence that starts this long before the load rises may be its source. */
const JOB_LEAD_MS = 20 * 60_000;

/**
 * The one client silent for the first part of the evidence that starts working between just before
 * the load began and the resource running out. It starts with its first ordinary log line (work
 * going on, not a failure or a warning about the resource), or with the first point of its demand
 * or of a measure published only while it runs (a function's invocations, a container service's
 * utilization) well after the resource's own series begin, which are read over the same span.
 */
const jobStartedBefore = (board: EvidenceBoard, resource: string, clients: readonly string[], loadStarts: number, ranOut: number): string | undefined => {
  const window = windowOf(board);
  if (!window) return undefined;
  const quietUntil = (from: number) => from + (window.end - from) * 0.2;
  const firstPoint = (series: EvidenceBoard['series'][number]) => Date.parse(series.points[0]![0]);
  const resourceSeries = board.series.filter((series) => series.service === resource && series.points.length > 0);
  const resourceFrom = resourceSeries.length > 0 ? Math.min(...resourceSeries.map(firstPoint)) : window.start;
  const startOf = (client: string): number | undefined => {
    const firstLine = board.logs.find((line) => line.service === client);
    const lineStart = firstLine && severityOf(firstLine.level) < severityOf('WARN') && firstLine.at > quietUntil(window.start) ? [firstLine.at] : [];
    // A function publishes its invocations, and a container service its utilization, only while it runs.
    const demand = board.series.filter((series) => series.service === client && (meaningOf(series.name) === 'demand' || runningOnly.test(series.name)) && series.points.length > 0).map(firstPoint);
    const demandStart = demand.length > 0 && Math.min(...demand) > quietUntil(resourceFrom) && (firstLine?.at ?? Number.POSITIVE_INFINITY) > quietUntil(resourceFrom) ? [Math.min(...demand)] : [];
    const starts = [...lineStart, ...demandStart];
    return starts.length > 0 ? Math.min(...starts) : undefined;
  };
  const started = clients.filter((client) => {
    const start = startOf(client);
    return start !== undefined && start <= ranOut + SAME_TIME_MS && loadStarts - start <= JOB_LEAD_MS;
  });
  return started.length === 1 ? started[0] : undefined;
};

/** Metrics that rise because a caller waits on something slower: concurrency, duration, backlog. */
const waitingMetric = /concurren|duration|latency|response.?time|iterator|age|backlog|visible|wait|pending/i;
/** An error count says that calls failed, not why: at a client it is a symptom. */
const errorCountMetric = /error|fault|5xx|4xx|fail/i;
const retryWords = /\bretr(y|ying|ies|ied)\b|back.?off/i;
const waitWords = /\bslow\b|took \d+|timed? ?out|timeout|waited|waiting/i;

/**
 * Trouble a client shows only because `resource` pushes back: it waits longer, holds more calls
 * open, retries, or is throttled. Such a client shows the resource's trouble; it did not cause it.
 */
const isReactionTo = (resource: string, signal: Signal, signals: readonly Signal[]): boolean => {
  if (signal.kind === 'metric' || signal.kind === 'trend') return waitingMetric.test(signal.text) || errorCountMetric.test(signal.text);
  // Pushback from another dependency is the client's own trouble, to be followed from the client on.
  const aboutOther = signals.some((other) => other.kind === 'mentioned' && other.from === signal.service && other.text === signal.text && other.service !== resource);
  // Waiting longer on the resource is a reaction, unless the client says why on its side (its query scans, its pool leaks).
  const waitedOnly = waitWords.test(signal.text) && causesIn(signal.text).every((hit) => hit.label === 'throttling' || hit.label === 'network');
  return !aboutOther && (retryWords.test(signal.text) || waitedOnly || causesIn(signal.text).some((hit) => hit.label === 'throttling'));
};

/** What each hold is: the principle that words it and its sentence for the summary. */
export const heldMechanisms: Readonly<Record<Held, { principle: Principle; words: (board: EvidenceBoard, holder: string, database: string) => string }>> = {
  locks: { principle: 'mechanism-locks', words: lockHolderWords },
  'retained log': { principle: 'mechanism-retained-log', words: slotHolderWords },
  'open transaction': { principle: 'mechanism-open-transaction', words: openTransactionWords },
};
