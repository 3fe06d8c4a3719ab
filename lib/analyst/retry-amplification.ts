import { median } from '../analysis/robust-statistics.ts';
import { quoteMessage } from '../text/quote.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { latestBreakingChangeBefore } from './explaining-change.ts';
import { meaningOf } from './metric-semantics.ts';
import { drawsOnAccountQuota, quotaTenantsOf } from './account-quota.ts';
import { callersOf, dependenciesOf } from './service-map.ts';
import { METRIC_PERIOD_MS, severityOfLine } from './signals.ts';
import { severityOf } from '../analysis/log-templates.ts';

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
 * within a week, is where that behaviour came from. Requests the caller moved to this callee from
 * another of its callees (a weighted route shifted from one stack to the next) are no retries: what
 * all its callees get together per request it serves held.
 */
export const retryingCaller = (board: EvidenceBoard, callee: string, troubleAt: number): RetryingCaller | undefined => {
  const calleeDemand = demandPoints(board, callee);
  if (!calleeDemand || !Number.isFinite(troubleAt)) return undefined;
  // Only a sole caller accounts for every request: with other clients, the extra requests may be another client's load;
  // an account-wide quota's usage counts the clients of every resource of its service.
  const callers = drawsOnAccountQuota(board, callee) ? quotaTenantsOf(board, callee) : callersOf(board, callee);
  const callerDemand = callers.length === 1 ? demandPoints(board, callers[0]!) : undefined;
  if (!callerDemand) return undefined;
  const caller = callers[0]!;
  /** How many requests `demand` gets per request the caller serves, usually (before the trouble) and since. */
  const shareOf = (demand: Map<number, number>): { usual: number; now: number } | undefined => {
    const ratios = [...demand].flatMap(([at, requests]) => {
      const served = callerDemand.get(at);
      return served !== undefined && served > 0 ? [{ at, ratio: requests / served }] : [];
    });
    const before = ratios.filter(({ at }) => at < troubleAt).map(({ ratio }) => ratio);
    const since = ratios.filter(({ at }) => at >= troubleAt).map(({ ratio }) => ratio);
    return before.length < FEWEST_BEFORE || since.length < FEWEST_AFTER ? undefined : { usual: median(before), now: median(since) };
  };
  const share = shareOf(calleeDemand);
  if (!share) return undefined;
  const { usual, now } = share;
  if (!(usual > 0) || now < AMPLIFIED * usual) return undefined;
  const siblings = dependenciesOf(board, caller).flatMap((name) => {
    const demand = name === callee ? undefined : demandPoints(board, name);
    const sibling = demand && shareOf(demand);
    return sibling ? [sibling] : [];
  });
  const together = siblings.reduce((sum, sibling) => ({ usual: sum.usual + sibling.usual, now: sum.now + sibling.now }), share);
  if (siblings.length > 0 && together.now < AMPLIFIED * together.usual) return undefined;
  const change = latestBreakingChangeBefore(board.changes, troubleAt, RETRY_CHANGE_REACH_MS, (candidate) => candidate.service === caller);
  return { caller, callee, usual, now, ...(change ? { change } : {}) };
};

export const retryWords = (retrying: RetryingCaller): string =>
  `${retrying.caller} retries its calls to ${retrying.callee}: ${retrying.callee} gets ${(retrying.now / retrying.usual).toFixed(0)} times as many requests for each request ${retrying.caller} serves as usual (${retrying.usual.toFixed(1)} before the trouble, ${retrying.now.toFixed(1)} since), so every slow call is repeated and the retries amplify the load that keeps it down.`;

/** A retry that did not wait: several attempts inside a moment, or no delay before the next. */
const attemptsInMs = /(\d+) attempts? in (\d+(?:\.\d+)?) ?ms/i;
const noWait = /retrying immediately|retried immediately|without (any )?(back-?off|delay)|no back-?off|back-?off[=: ]+0 ?(ms)?\b|next.?(attempt|retry).?in[=: ]+0 ?ms|back-?off[=: ]+none\b/i;
/** A refusal that asks the client to slow down. */
const slowDown = /\b429\b|\b503\b|throttl|rate.?limit|too many requests|slow ?down/i;
/** Attempts this close together are no backoff. */
const NO_BACKOFF_MS = 100;
/** Lines that show it, so a stray one is not read as the client's way of retrying. */
const FEWEST_LINES = 3;

const retriedAtOnce = (message: string): boolean => {
  const burst = attemptsInMs.exec(message);
  if (burst && Number(burst[1]) >= 3 && Number(burst[2]) / (Number(burst[1]) - 1) < NO_BACKOFF_MS) return true;
  return noWait.test(message);
};

export interface UnbackedRetries {
  caller: string;
  callee?: string;
  example: string;
  change?: Change;
}

/**
 * Retries that do not back off: a service whose own lines show the calls a dependency refused
 * (429, rate limited) tried again at once, several attempts inside a moment, multiplies its own
 * load on that dependency and keeps itself over the limit. Its retry behaviour comes from its latest
 * release or configuration change, within a week.
 */
export const unbackedRetriesAt = (board: EvidenceBoard, service: string, troubleAt: number): UnbackedRetries | undefined => {
  const lines = board.logs.filter((line) => line.service === service && line.at >= troubleAt - METRIC_PERIOD_MS && slowDown.test(line.message) && retriedAtOnce(line.message));
  if (lines.length < FEWEST_LINES) return undefined;
  const dependencies = board.services?.find((node) => node.name === service)?.dependsOn ?? [];
  const named = (name: string) => lines.some((line) => line.message.toLowerCase().includes(name.toLowerCase()));
  const callee = dependencies.find(named) ?? dependencies.find((name) => board.services?.find((node) => node.name === name)?.kind === 'external');
  const change = latestBreakingChangeBefore(board.changes, troubleAt, RETRY_CHANGE_REACH_MS, (candidate) => candidate.service === service);
  return { caller: service, ...(callee ? { callee } : {}), example: lines[0]!.message, ...(change ? { change } : {}) };
};

/** A refusal that says the caller is over a limit, not that the callee is down. */
const overLimit = /\b429\b|rate.?limit|too many requests|throttl/i;

/**
 * The one caller of a limit several share that retries what it refuses at once, while another caller
 * is refused for being over the limit: that caller's retries keep the shared limit exceeded. With
 * several such callers, none of them alone does.
 */
export const retrierAtSharedLimit = (board: EvidenceBoard, limited: string, troubleAt: number): UnbackedRetries | undefined => {
  const callers = callersOf(board, limited);
  const retriers = callers.flatMap((caller) => unbackedRetriesAt(board, caller, troubleAt) ?? []);
  if (retriers.length !== 1) return undefined;
  const retrier = retriers[0]!;
  const othersRefused = board.logs.some(
    (line) => line.service !== retrier.caller && callers.includes(line.service) && line.at >= troubleAt && severityOfLine(line) >= severityOf('WARN') && overLimit.test(line.message),
  );
  return othersRefused ? retrier : undefined;
};

export const unbackedRetryWords = (retries: UnbackedRetries): string =>
  `${retries.caller} retries the calls ${retries.callee ?? 'its dependency'} refuses at once, without backoff ("${quoteMessage(retries.example, 160)}"): each refusal is tried again at once, so its own retries multiply its load on ${retries.callee ?? 'the dependency'} and keep it over the limit.`;
