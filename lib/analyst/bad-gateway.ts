import { inSeconds } from './duration-words.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { latestBreakingChangeBefore } from './explaining-change.ts';
import { dependenciesOf, kindOf } from './service-map.ts';
import type { Signal } from './signals.ts';
import { changeText } from './change-text.ts';

/**
 * A load balancer that answers 502 itself (`HTTPCode_ELB_502_Count`), while the target it sent the
 * requests to fails none itself (its 5xx flat), got no response on the
 * connection it used: the target closed or reset it. A target slowed by its own dependencies is
 * answered late (504s, latency), not cut off, so the target is where this fault is, and the change
 * to how it serves connections (its release, its server settings) is what to look for. The usual
 * mechanism is documented by AWS: a target whose keep-alive timeout is shorter than the balancer's
 * idle timeout closes connections the balancer still reuses.
 */
export interface BadGateway {
  balancer: string;
  target: string;
  /** When the balancer's own 502s began. */
  at: number;
  keepAlive?: KeepAliveMismatch;
  /** The target's latest release or configuration change within a week before the 502s: how it serves connections changes only with one. */
  change?: Change;
}

export interface KeepAliveMismatch {
  targetSeconds: number;
  balancerSeconds: number;
  /** The log line that states the target's keep-alive timeout. */
  ref: string;
}

/** Kinds of change that can alter how a target serves its connections: its code and its settings. */
const servingChangeKinds: ReadonlySet<string> = new Set(['deploy', 'config']);
/** A release's connection handling shows as soon as the balancer reuses an idle connection, but only at a few requests in a thousand: it may page days later. */
const SERVING_CHANGE_REACH_MS = 7 * 24 * 60 * 60_000;

/** An Application Load Balancer's idle timeout when nothing says it was changed. */
const DEFAULT_IDLE_TIMEOUT_S = 60;

/** The balancer's own 502s: its own 5xx count 503s (no target) and 504s (a target too slow) as well. */
const balancerOwn502 = /HTTPCode_ELB_502/i;
const keepAliveSetting = /keep.?alive.?timeout\W{0,3}(\d+(?:\.\d+)?)\s*(ms|milliseconds|s|sec|seconds)?\b/i;
const idleTimeoutSetting = /idle.?timeout(?:\.timeout_seconds)?\W{0,4}(\d+)/i;

/** A target's own failures: its errors and 5xx. Being slow is not one: a slow target is answered late (504s), not cut off. */
const failsItself = (signal: Signal): boolean => signal.substantial && (signal.kind === 'errors' || /5XX|Error|Fault|UnHealthy/i.test(signal.text));

/** The idle timeout the balancer runs with: the latest its changes or logs state, else the default. */
const idleTimeoutOf = (board: EvidenceBoard, balancer: string): number => {
  const stated = [
    ...board.changes.filter((change) => change.service === balancer).map((change) => ({ at: change.at, text: changeText(change) })),
    ...board.logs.filter((line) => line.service === balancer).map((line) => ({ at: line.at, text: line.message })),
  ]
    .flatMap(({ at, text }) => {
      const found = idleTimeoutSetting.exec(text);
      return found ? [{ at, value: Number(found[1]) }] : [];
    })
    .sort((a, b) => b.at - a.at)[0];
  return stated?.value ?? DEFAULT_IDLE_TIMEOUT_S;
};

/** The keep-alive timeout the target's server states it runs with (its latest statement, as it starts). */
const keepAliveOf = (board: EvidenceBoard, target: string): { seconds: number; ref: string } | undefined => {
  const stated = board.logs
    .filter((line) => line.service === target)
    .flatMap((line) => {
      const found = keepAliveSetting.exec(line.message);
      return found ? [{ at: line.at, seconds: inSeconds(found[1]!, found[2]), ref: line.ref }] : [];
    })
    .sort((a, b) => b.at - a.at)[0];
  return stated ? { seconds: stated.seconds, ref: stated.ref } : undefined;
};

/**
 * The balancer at the head of the failure chain that answers 502 itself, and the target it lost its
 * connections to: the next link of the chain, or, when the chain stops at the balancer, the one
 * target that states a keep-alive shorter than its idle timeout, else the one changed last before
 * the 502s began. The target fails no requests itself (it may be slow).
 */
export const badGatewayOf = (board: EvidenceBoard, chain: readonly string[], current: readonly Signal[], changeWindowMs: number): BadGateway | undefined => {
  const [balancer, next] = chain;
  if (!balancer || kindOf(board, balancer) !== 'elb') return undefined;
  const own502 = current.filter((signal) => signal.service === balancer && signal.kind === 'metric' && signal.substantial && balancerOwn502.test(signal.text));
  if (own502.length === 0) return undefined;
  const at = Math.min(...own502.map((signal) => signal.at));
  const balancerSeconds = idleTimeoutOf(board, balancer);
  const quiet = dependenciesOf(board, balancer).filter((target) => !current.some((signal) => signal.service === target && failsItself(signal)));
  const keepAliveAt = (target: string): KeepAliveMismatch | undefined => {
    const stated = keepAliveOf(board, target);
    return stated && stated.seconds < balancerSeconds ? { targetSeconds: stated.seconds, balancerSeconds, ref: stated.ref } : undefined;
  };
  const changedLast = quiet
    .flatMap((target) => board.changes.filter((change) => change.service === target && change.at <= at && at - change.at <= changeWindowMs))
    .sort((a, b) => b.at - a.at)[0]?.service;
  const shortKeepAlive = quiet.filter((target) => keepAliveAt(target) !== undefined);
  const target = next ? (quiet.includes(next) ? next : undefined) : shortKeepAlive.length === 1 ? shortKeepAlive[0] : changedLast;
  if (!target) return undefined;
  const keepAlive = keepAliveAt(target);
  const change = latestBreakingChangeBefore(board.changes, at, SERVING_CHANGE_REACH_MS, (candidate) => candidate.service === target && servingChangeKinds.has(candidate.kind));
  return { balancer, target, at, ...(keepAlive ? { keepAlive } : {}), ...(change ? { change } : {}) };
};

/** The mechanism, in plain words. */
export const badGatewayWords = ({ balancer, target, keepAlive }: BadGateway): string =>
  keepAlive
    ? `${target} closes idle keep-alive connections after ${keepAlive.targetSeconds} s, sooner than the ${keepAlive.balancerSeconds} s idle timeout of ${balancer}: ${balancer} sends requests on connections ${target} has just closed and answers them 502 itself, while ${target}'s own 5xx stay flat. ${target}'s keep-alive timeout must be longer than ${balancer}'s idle timeout.`
    : `${balancer} answers 502 itself while ${target}'s own 5xx stay flat: ${target} closes or resets connections ${balancer} still sends requests on (a keep-alive timeout shorter than the balancer's idle timeout is the usual cause).`;
