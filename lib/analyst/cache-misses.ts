import type { Change, EvidenceBoard } from './evidence-board.ts';
import { CLOSE_CHANGE_MS, latestBreakingChangeBefore } from './explaining-change.ts';
import { callersOf, dependenciesOf, kindOf } from './service-map.ts';
import { isCache, type Signal } from './signals.ts';

/** A cache's share of requests it answers itself. */
const hitRate = /hit.?(rate|ratio)/i;

/** Where `cache`'s hit rate fell, as the signals read it. */
const hitRateFallsAt = (signals: readonly Signal[], cache: string): Signal[] =>
  signals.filter((signal) => signal.service === cache && (signal.kind === 'metric' || signal.kind === 'trend') && hitRate.test(signal.text) && /went down|falling/.test(signal.description));

/** A cache's key or policy is changed days before the peak that finds its misses too many for the origin. */
const CACHE_CHANGE_REACH_MS = 7 * 24 * 60 * 60_000;

export interface MissingCache {
  cache: string;
  origin: string;
  /** The hit-rate fall, as read. */
  fall: Signal;
  change?: Change;
}

const isCacheService = (board: EvidenceBoard, service: string): boolean =>
  kindOf(board, service) === 'elasticache' || (board.services?.some((node) => node.name === service && isCache(node)) ?? false);

/** What may stand in for `origin`: a cache in front of it (it calls the origin), or one its callers read first and fall back from to the origin on a miss. */
const cachesFor = (board: EvidenceBoard, origin: string): string[] => {
  const callers = callersOf(board, origin);
  const aside = callers.flatMap((caller) => dependenciesOf(board, caller).filter((dependency) => dependency !== origin && isCacheService(board, dependency)));
  return [...new Set([...callers, ...aside])];
};

/**
 * A cache in front of a service answers most requests itself; when its hit rate falls, every miss
 * goes on to the service behind it; so does a cache its callers read first, each miss read again from
 * the service. An origin whose demand surged while such a cache hit less is carrying that cache's
 * misses: the cache is where the load comes from, and its latest change within a week (a new cache
 * key or policy, a shorter TTL, a smaller node) is why it stopped hitting.
 */
export const missingCacheOf = (board: EvidenceBoard, origin: string, signals: readonly Signal[], troubleAt: number): MissingCache | undefined => {
  const surged = signals.some((signal) => signal.service === origin && signal.kind === 'demand' && signal.substantial);
  if (!surged || !Number.isFinite(troubleAt)) return undefined;
  const falls = cachesFor(board, origin).flatMap((cache) => hitRateFallsAt(signals, cache).map((fall) => ({ cache, fall })));
  if (new Set(falls.map(({ cache }) => cache)).size !== 1) return undefined;
  const { cache, fall } = falls[0]!;
  const change = latestBreakingChangeBefore(board.changes, troubleAt, CACHE_CHANGE_REACH_MS, (candidate) => candidate.service === cache);
  return { cache, origin, fall, ...(change ? { change } : {}) };
};

export const missingCacheWords = (missing: MissingCache): string =>
  `${missing.cache} hits its cache less (${missing.fall.description}), so the requests it used to answer itself go on to ${missing.origin} as cache misses, more than ${missing.origin} can serve.`;

/** A client of a cache whose release came just before the cache began to miss, and that fall. */
export interface RekeyedCache {
  cache: string;
  client: string;
  fall: Signal;
  change: Change;
}

/**
 * A cache that hits far less just after one of the clients that fill and read it was released, with
 * no change of its own since, is asked differently by that release (new keys, a new pattern): the
 * cache works, and the release is where its misses come from.
 */
export const rekeyedCacheOf = (board: EvidenceBoard, cache: string, signals: readonly Signal[]): RekeyedCache | undefined => {
  const fall = hitRateFallsAt(signals, cache)[0];
  if (!fall) return undefined;
  const releases = callersOf(board, cache).flatMap((client) =>
    board.changes.filter((change) => change.service === client && change.kind === 'deploy' && change.at <= fall.at && fall.at - change.at <= CLOSE_CHANGE_MS).map((change) => ({ client, change })),
  );
  if (new Set(releases.map(({ client }) => client)).size !== 1) return undefined;
  const { client, change } = releases.sort((a, b) => b.change.at - a.change.at)[0]!;
  // A change of the cache's own after the release is the nearer reason it stopped hitting.
  const own = latestBreakingChangeBefore(board.changes, fall.at, CACHE_CHANGE_REACH_MS, (candidate) => candidate.service === cache);
  return own && own.at >= change.at ? undefined : { cache, client, fall, change };
};

export const rekeyedCacheWords = (rekeyed: RekeyedCache): string =>
  `${rekeyed.cache} hits far less since ${rekeyed.client}'s release (${rekeyed.fall.description}), with no change of its own since: the release asks it differently (new keys or a new pattern), so what it used to answer from the cache goes on, as misses, to what ${rekeyed.client} calls behind it.`;
