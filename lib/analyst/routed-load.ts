import type { Change, EvidenceBoard } from './evidence-board.ts';
import { CHANGE_WINDOW_MS } from './explaining-change.ts';
import { SAME_TIME_MS, type Signal } from './signals.ts';
import { changeText } from './change-text.ts';

/**
 * Traffic a routing change moved onto a service: a weighted DNS record's new weights, a listener's
 * new target weights, an alias pointed at another stack. The service then takes several times the
 * requests it took before, with the capacity it had: the change sent it the load, and it was not
 * scaled for it. What gives way is its capacity, whatever the change touched (a DNS record is no
 * network fault when every request still arrives).
 */
export interface RoutedLoad {
  service: string;
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

export const routedLoadOf = (board: EvidenceBoard, service: string, change: Change | undefined, signals: readonly Signal[]): RoutedLoad | undefined => {
  if (!change || change.service !== service || !routing.test(changeText(change).replace(functionAliasMoved, ''))) return undefined;
  const surge = signals
    .filter((signal) => signal.service === service && signal.kind === 'demand' && signal.substantial && signal.at >= change.at - SAME_TIME_MS && signal.at - change.at <= CHANGE_WINDOW_MS)
    .sort((a, b) => a.at - b.at)[0];
  if (!surge) return undefined;
  const counted = board.series.find((series) => series.service === service && capacityMeasure.test(series.name) && series.points.length > 0);
  const level = counted ? Math.max(...counted.points.filter(([timestamp]) => Date.parse(timestamp) >= change.at).map(([, value]) => value)) : undefined;
  return { service, change, surge, ...(counted && level !== undefined && Number.isFinite(level) ? { capacity: { name: counted.name, level } } : {}) };
};

export const routedLoadWords = ({ service, change, surge, capacity }: RoutedLoad): string =>
  `The ${change.kind} change moved traffic onto ${service}, which was not scaled for it: ${surge.description}. ` +
  (capacity ? `It took that load with the capacity it had (${capacity.name} at most ${capacity.level} since the change), and that capacity gives way.` : 'It took that load with the capacity it had, and that capacity gives way.');
