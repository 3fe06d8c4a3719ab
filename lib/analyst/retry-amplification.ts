import { median } from '../analysis/robust-statistics.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { latestBreakingChangeBefore } from './explaining-change.ts';
import { meaningOf } from './metric-semantics.ts';
import { callersOf } from './service-map.ts';

/** Requests per caller request this many times their usual: the caller sends each request several times. */
const AMPLIFIED = 3;
/** The fewest readings of the usual ratio and of the amplified one. */
const FEWEST_BEFORE = 6;
const FEWEST_AFTER = 2;
/** A client's retry behaviour comes from its code or configuration, often released days before a slowdown first set it off. */
const RETRY_CHANGE_REACH_MS = 7 * 24 * 60 * 60_000;

export interface RetryingCaller {
  caller: string;
  callee: string;
  usual: number;
  now: number;
  change?: Change;
}

const demandPoints = (board: EvidenceBoard, service: string): Map<number, number> | undefined => {
  const series = board.series.find((candidate) => candidate.service === service && meaningOf(candidate.name) === 'demand' && candidate.points.length >= FEWEST_BEFORE);
  return series ? new Map(series.points.map(([timestamp, value]) => [Date.parse(timestamp), value])) : undefined;
};

/**
 * Retries that amplify: a callee that gets many times more requests for each request its sole
 * caller serves than it usually does, from the moment its trouble began, is being asked again and again by
 * that caller: each slow or failed call is retried, and the retries are the load that keeps it down.
 * The caller's retrying is the cause; its latest release or configuration change before the trouble,
 * within a week, is where that behaviour came from.
 */
export const retryingCaller = (board: EvidenceBoard, callee: string, troubleAt: number): RetryingCaller | undefined => {
  const calleeDemand = demandPoints(board, callee);
  if (!calleeDemand || !Number.isFinite(troubleAt)) return undefined;
  // Only a sole caller accounts for every request: with other clients, the extra requests may be another client's load.
  const callers = callersOf(board, callee);
  const callerDemand = callers.length === 1 ? demandPoints(board, callers[0]!) : undefined;
  if (!callerDemand) return undefined;
  const caller = callers[0]!;
  const ratios = [...calleeDemand].flatMap(([at, requests]) => {
    const served = callerDemand.get(at);
    return served !== undefined && served > 0 ? [{ at, ratio: requests / served }] : [];
  });
  const before = ratios.filter(({ at }) => at < troubleAt).map(({ ratio }) => ratio);
  const since = ratios.filter(({ at }) => at >= troubleAt).map(({ ratio }) => ratio);
  if (before.length < FEWEST_BEFORE || since.length < FEWEST_AFTER) return undefined;
  const usual = median(before);
  const now = median(since);
  if (!(usual > 0) || now < AMPLIFIED * usual) return undefined;
  const change = latestBreakingChangeBefore(board.changes, troubleAt, RETRY_CHANGE_REACH_MS, (candidate) => candidate.service === caller);
  return { caller, callee, usual, now, ...(change ? { change } : {}) };
};

export const retryWords = (retrying: RetryingCaller): string =>
  `${retrying.caller} retries its calls to ${retrying.callee}: ${retrying.callee} gets ${(retrying.now / retrying.usual).toFixed(0)} times as many requests for each request ${retrying.caller} serves as usual (${retrying.usual.toFixed(1)} before the trouble, ${retrying.now.toFixed(1)} since), so every slow call is repeated and the retries amplify the load that keeps it down.`;
