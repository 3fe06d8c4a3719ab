import type { Change, EvidenceBoard } from './evidence-board.ts';
import { quoteMessage } from '../text/quote.ts';
import { computeKinds, dependenciesOf, kindOf } from './service-map.ts';
import { SAME_TIME_MS, type Signal } from './signals.ts';
import { withdrawingFirst } from './explaining-change.ts';

/**
 * A load balancer whose targets fail its health checks (its unhealthy hosts up, or its healthy hosts
 * down) has fewer targets, or none, to send requests to: it answers 503 itself, and the targets are
 * where the fault is. A target stops passing the check when its process no longer answers it, or
 * when a change of the target moved what the check asks for (a new path or port that answers 404):
 * the target changed last before the hosts turned unhealthy is the one to look at, and that change
 * the one to undo.
 */
export interface UnhealthyTargets {
  balancer: string;
  target: string;
  /** When the balancer's hosts began to fail its checks. */
  at: number;
  /** What the measure says, for the report. */
  shown: Signal;
  change?: Change;
  /** The health check path the change moved, when it says so. */
  checkPath?: { from?: string; to: string };
  /** The target's own account of a failed check (ECS: "is unhealthy in (target-group …) due to (reason …)"). */
  failedCheck?: string;
}

/** A target reported out of its target group for failing the balancer's checks, and why. */
const healthCheckFailure = /unhealthy in \(?target.?group|health checks? failed|failed (ELB |load balancer |target group )?health checks?/i;

const unhealthyHosts = /^UnHealthyHostCount\b/i;
const healthyHosts = /^HealthyHostCount\b/i;
/** A health check path as a change writes it: `health_check.path: ["/healthz", "/health/ready"]` (from, to), `"healthCheckPath": "/ready"`. */
const checkPathSetting = /health.?check.?path\W{0,6}?(?:\[\s*"(\/[^"]*)"\s*,\s*"(\/[^"]*)"|"(\/[^"]*)")/i;

const checkPathOf = (change: Change): UnhealthyTargets['checkPath'] => {
  const found = checkPathSetting.exec(JSON.stringify(change.details ?? {}));
  if (!found) return undefined;
  return found[2] ? { from: found[1]!, to: found[2] } : { to: found[3]! };
};

/** The first reading at `service` of its hosts failing health checks: its unhealthy hosts up, or its healthy hosts down. */
const hostsFailingAt = (current: readonly Signal[], service: string): Signal | undefined =>
  current
    .filter(
      (signal) =>
        signal.service === service &&
        signal.kind === 'metric' &&
        signal.substantial &&
        (unhealthyHosts.test(signal.text) || (healthyHosts.test(signal.text) && / went down /.test(signal.description))),
    )
    .sort((a, b) => a.at - b.at)[0];

/** A balancer the map does not name, seen through the target it checks. */
const UNNAMED_BALANCER = 'its load balancer';

/**
 * Changes of a target that decide whether it answers the check: its release, its settings, and the
 * network rules that let the balancer's checks reach it (a security group's ingress on its port).
 */
const checkedByChange = new Set(['deploy', 'config', 'network']);

/**
 * A service on the chain whose own events report its tasks failing the load balancer's checks, the
 * balancer not in the map but its host counts read at the service, failed them from its latest
 * release, setting or network rule: tasks that served before it and stop answering the check from it
 * answer something else than the check asks for, or are no longer reached by it. Without such a
 * change the failed checks are how some other fault (a process out of memory, a dependency down)
 * shows, and say nothing of their own.
 */
const checkedTargetOf = (board: EvidenceBoard, chain: readonly string[], current: readonly Signal[], changeWindowMs: number): UnhealthyTargets | undefined => {
  for (const target of chain) {
    if (!computeKinds.has(kindOf(board, target) ?? '')) continue;
    const failedCheck = board.logs.filter((line) => line.service === target && healthCheckFailure.test(line.message)).sort((a, b) => a.at - b.at)[0];
    const shown = hostsFailingAt(current, target) ?? current.filter((signal) => signal.service === target && healthCheckFailure.test(signal.text)).sort((a, b) => a.at - b.at)[0];
    if (!shown || !failedCheck) continue;
    const firstFailed = Math.min(shown.at, failedCheck.at);
    const changed = board.changes
      .filter((candidate) => candidate.service === target && checkedByChange.has(candidate.kind) && candidate.at <= firstFailed && firstFailed - candidate.at <= changeWindowMs)
      .sort((a, b) => b.at - a.at);
    const change = withdrawingFirst(changed);
    if (!change) continue;
    const checkPath = checkPathOf(change);
    // A reading of the host counts is shown with the target's own words for it; its own words shown once are enough.
    return { balancer: UNNAMED_BALANCER, target, at: shown.at, shown, change, ...(checkPath ? { checkPath } : {}), ...(shown.kind === 'metric' ? { failedCheck: failedCheck.message } : {}) };
  }
  return undefined;
};

export const unhealthyTargetsOf = (board: EvidenceBoard, chain: readonly string[], current: readonly Signal[], changeWindowMs: number): UnhealthyTargets | undefined => {
  // Where the search went on past the balancer, a target's own fault was found: this is for a search that stopped at it.
  const balancer = chain.at(-1);
  if (!balancer || kindOf(board, balancer) !== 'elb') return checkedTargetOf(board, chain, current, changeWindowMs);
  const shown = hostsFailingAt(current, balancer);
  if (!shown) return undefined;
  const targets = dependenciesOf(board, balancer).filter((name) => computeKinds.has(kindOf(board, name) ?? ''));
  const changed = board.changes
    .filter((change) => targets.includes(change.service) && change.at <= shown.at + SAME_TIME_MS && shown.at - change.at <= changeWindowMs)
    .sort((a, b) => b.at - a.at);
  // A change of the balancer's own that moved the check path (its target group modified) fails every target at once.
  const movedAtBalancer = board.changes
    .filter((change) => change.service === balancer && change.at <= shown.at + SAME_TIME_MS && shown.at - change.at <= changeWindowMs && checkPathOf(change) !== undefined)
    .sort((a, b) => b.at - a.at)[0];
  const target = changed[0]?.service ?? (targets.length === 1 ? targets[0] : undefined);
  if (!target) return undefined;
  const change = movedAtBalancer ?? changed.find((candidate) => candidate.service === target && checkedByChange.has(candidate.kind)) ?? changed[0];
  const checkPath = change && checkPathOf(change);
  const failedCheck = board.logs.find((line) => line.service === target && line.at >= shown.at - changeWindowMs && healthCheckFailure.test(line.message));
  return { balancer, target, at: shown.at, shown, ...(change ? { change } : {}), ...(checkPath ? { checkPath } : {}), ...(failedCheck ? { failedCheck: failedCheck.message } : {}) };
};

/** The mechanism, in plain words. */
export const unhealthyTargetsWords = ({ balancer, target, shown, change, checkPath, failedCheck }: UnhealthyTargets): string => {
  const whose = change?.service === balancer ? `${balancer}'s` : 'its';
  const moved = checkPath ? ` ${whose === 'its' ? 'Its' : whose} change moved the health check path ${checkPath.from ? `from ${checkPath.from} ` : ''}to ${checkPath.to}: a path the target does not serve fails every check.` : '';
  const by = change ? `, since ${whose} ${change.kind} change ("${change.summary}")` : '';
  const reported = failedCheck ? ` ${target} reports: "${quoteMessage(failedCheck, 200)}".` : '';
  return `${target}'s tasks fail ${balancer}'s health checks${by}: ${shown.description}. With no healthy target left to send them to, ${balancer} answers requests 503 itself.${moved}${reported}`;
};
