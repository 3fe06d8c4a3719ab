import type { Change, EvidenceBoard } from './evidence-board.ts';
import { CHANGE_WINDOW_MS, suspectChangeFor } from './explaining-change.ts';
import { callersOf, computeKinds, dependenciesOf, kindOf } from './service-map.ts';
import { SAME_TIME_MS, type Signal } from './signals.ts';
import { changeText } from './change-text.ts';

/**
 * Traffic a routing change moved onto a service: a weighted DNS record's new weights, a listener's
 * new target weights, an alias pointed at another stack. The service then takes several times the
 * requests it took before, with the capacity it had: the change sent it the load, and it was not
 * scaled for it. What gives way is its capacity, whatever the change touched (a DNS record is no
 * network fault when every request still arrives).
 *
 * The change may be filed at the service itself (its own listener, its own record) or at a router
 * in front of it (a DNS record, a balancer that routes to several stacks): then the router changed,
 * and the service took what it was sent.
 */
export interface RoutedLoad {
  /** Where the traffic landed. */
  service: string;
  /** What the change moved the traffic with: the service itself or a router in front of it. */
  router: string;
  change: Change;
  /** The service's own demand, risen after the change. */
  surge: Signal;
  /** How much capacity it runs, as its own metrics count it (healthy hosts, running tasks), when they do. */
  capacity?: { name: string; level: number };
}

/** What moves traffic between targets, as Route 53, load balancers and their tools name it. */
const routing = /ChangeResourceRecordSets|\bweight(ed|s)?\b|ModifyListener|ModifyRule|\balias\b(?!\/)|cut.?over|traffic.?shift|blue.?green/i;

/** How many copies serve, as ECS and load balancers count them. */
const capacityMeasure = /^(HealthyHostCount|RunningTaskCount|DesiredTaskCount|RunningCount|DesiredCount)$/i;

/** A function's alias moved to its new version ("alias live -> version 37"): a release of the same code path, which sends it no one else's traffic. */
const functionAliasMoved = /\balias\b[^.;,()]{0,30}?(->|→|\bto\b)\s*(version\s*)?\d+/gi;

/** A function's new code published (UpdateFunctionCode, PublishVersion): whatever alias it moves, it serves the function's own traffic. */
const functionReleased = /UpdateFunctionCode|PublishVersion|\bfunction.?version\b/i;

const movesTraffic = (change: Change): boolean => {
  const text = changeText(change);
  return !functionReleased.test(text) && routing.test(text.replace(functionAliasMoved, ''));
};

/**
 * The routing change at a router in front of `service` that explains trouble beginning there at
 * `onset`. A router only routes (a DNS record, a balancer, a CDN): a caller that runs code of its own
 * sends its own requests, and one that reads from the service (a topic's subscriber) routes nothing to it.
 */
export const routerChangeFor = (board: EvidenceBoard, service: string, onset: number): Change | undefined =>
  suspectChangeFor(board.changes.filter(movesTraffic), new Set(callersOf(board, service).filter((caller) => !computeKinds.has(kindOf(board, caller) ?? ''))), onset);

export const routedLoadOf = (board: EvidenceBoard, router: string, change: Change | undefined, signals: readonly Signal[]): RoutedLoad | undefined => {
  if (!change || change.service !== router || !movesTraffic(change)) return undefined;
  const surgeAt = (service: string) =>
    signals
      .filter((signal) => signal.service === service && signal.kind === 'demand' && signal.substantial && signal.at >= change.at - SAME_TIME_MS && signal.at - change.at <= CHANGE_WINDOW_MS)
      .sort((a, b) => a.at - b.at)[0];
  const landed = [router, ...dependenciesOf(board, router)].map((service) => ({ service, surge: surgeAt(service) })).find(({ surge }) => surge !== undefined);
  if (!landed?.surge) return undefined;
  const { service, surge } = landed;
  const counted = board.series.find((series) => series.service === service && capacityMeasure.test(series.name) && series.points.length > 0);
  const level = counted ? Math.max(...counted.points.filter(([timestamp]) => Date.parse(timestamp) >= change.at).map(([, value]) => value)) : undefined;
  return { service, router, change, surge, ...(counted && level !== undefined && Number.isFinite(level) ? { capacity: { name: counted.name, level } } : {}) };
};

export const routedLoadWords = ({ service, router, change, surge, capacity }: RoutedLoad): string =>
  `The ${change.kind} change${router === service ? '' : ` to ${router}`} moved traffic onto ${service}, which was not scaled for it: ${surge.description}. ` +
  (capacity ? `It took that load with the capacity it had (${capacity.name} at most ${capacity.level} since the change), and that capacity gives way.` : 'It took that load with the capacity it had, and that capacity gives way.');
