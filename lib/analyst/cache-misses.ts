import type { Change, EvidenceBoard } from './evidence-board.ts';
import { latestBreakingChangeBefore } from './explaining-change.ts';
import { callersOf } from './service-map.ts';
import type { Signal } from './signals.ts';

/** A cache's share of requests it answers itself. */
const hitRate = /hit.?(rate|ratio)/i;

/** A cache's key or policy is changed days before the peak that finds its misses too many for the origin. */
const CACHE_CHANGE_REACH_MS = 7 * 24 * 60 * 60_000;

export interface MissingCache {
  cache: string;
  origin: string;
  /** The hit-rate fall, as read. */
  fall: Signal;
  change?: Change;
}

/**
 * A cache in front of a service answers most requests itself; when its hit rate falls, every miss
 * goes on to the service behind it. An origin whose demand surged while a cache in front of it hit
 * less is carrying that cache's misses: the cache is where the load comes from, and its latest
 * change within a week (a new cache key or policy, a shorter TTL) is why it stopped hitting.
 */
export const missingCacheOf = (board: EvidenceBoard, origin: string, signals: readonly Signal[], troubleAt: number): MissingCache | undefined => {
  const surged = signals.some((signal) => signal.service === origin && signal.kind === 'demand' && signal.substantial);
  if (!surged || !Number.isFinite(troubleAt)) return undefined;
  const falls = callersOf(board, origin).flatMap((cache) =>
    signals.filter((signal) => signal.service === cache && (signal.kind === 'metric' || signal.kind === 'trend') && hitRate.test(signal.text) && /went down|falling/.test(signal.description)).map((fall) => ({ cache, fall })),
  );
  if (new Set(falls.map(({ cache }) => cache)).size !== 1) return undefined;
  const { cache, fall } = falls[0]!;
  const change = latestBreakingChangeBefore(board.changes, troubleAt, CACHE_CHANGE_REACH_MS, (candidate) => candidate.service === cache);
  return { cache, origin, fall, ...(change ? { change } : {}) };
};

export const missingCacheWords = (missing: MissingCache): string =>
  `${missing.cache} hits its cache less (${missing.fall.description}), so the requests it used to answer itself go on to ${missing.origin} as cache misses, more than ${missing.origin} can serve.`;
