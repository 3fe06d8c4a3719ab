/**
 * Which anomalous service is the root of a failure chain? Faults travel against the call direction: when
 * a callee breaks, its callers fail after it. So the likeliest root is an anomalous service none of whose
 * dependencies (direct or indirect) was anomalous before it, that is early, and whose failure explains
 * the failures of the services that call it. A service whose dependency went bad first is a symptom.
 */
import { compareText } from './ordering.ts';

export interface ServiceAnomaly {
  service: string;
  /** Epoch ms; may be +Infinity when only known to be ongoing. */
  onset: number;
  /** > 0, larger is worse. */
  severity: number;
}

export interface RankedCandidate {
  service: string;
  /** 0..1; every service without an earlier anomalous dependency scores above every one with one. */
  score: number;
  onset: number;
  reason: string;
}

export interface PropagationOptions {
  /**
   * Onsets this close count as simultaneous, default 1 minute (a typical metric period): a caller that
   * appears to fail a little before its broken callee only looks that way because of sampling.
   */
  toleranceMs?: number;
}

const DEFAULT_TOLERANCE_MS = 60_000;
/** Score weights; the root weight exceeds the others combined, so roots always rank above symptoms. */
const ROOT_WEIGHT = 0.55;
const EXPLAINED_WEIGHT = 0.25;
const EARLINESS_WEIGHT = 0.15;
const SEVERITY_WEIGHT = 0.05;

/**
 * Every anomalous service, likeliest root first. `dependsOn` maps a service to the services it calls.
 * Among services with no earlier anomalous dependency, the one whose failure explains the most other
 * failures ranks first, then the earliest; so an unrelated service that also broke does not beat the
 * root of a cascade, even when its blip came a little earlier.
 */
export function rankRootCandidates(
  dependsOn: Readonly<Record<string, readonly string[]>>,
  anomalies: readonly ServiceAnomaly[],
  options: PropagationOptions = {},
): RankedCandidate[] {
  const toleranceMs = options.toleranceMs ?? DEFAULT_TOLERANCE_MS;
  const byService = strongestPerService(anomalies);
  const services = [...byService.values()];
  if (services.length === 0) return [];

  const finiteOnsets = services.map((anomaly) => anomaly.onset).filter(Number.isFinite);
  const earliest = Math.min(...finiteOnsets);
  const latest = Math.max(...finiteOnsets);
  const maxSeverity = Math.max(...services.map((anomaly) => anomaly.severity));
  const downstream = new Map(services.map((anomaly) => [anomaly.service, dependenciesOf(dependsOn, anomaly.service)]));
  const inGraph = new Set(Object.entries(dependsOn).flatMap(([caller, callees]) => [caller, ...callees]));

  const ranked = services.map((anomaly): RankedCandidate => {
    const causes = services
      .filter((other) => downstream.get(anomaly.service)!.has(other.service))
      .filter((other) => other.onset <= anomaly.onset + toleranceMs)
      .sort(byOnsetThenName);
    const explained = services
      .filter((other) => other.service !== anomaly.service && downstream.get(other.service)!.has(anomaly.service))
      .filter((other) => other.onset >= anomaly.onset - toleranceMs)
      .sort(byOnsetThenName);
    const earliness = !Number.isFinite(anomaly.onset)
      ? 0
      : latest > earliest
        ? (latest - anomaly.onset) / (latest - earliest)
        : 1;
    const score =
      (causes.length === 0 ? ROOT_WEIGHT : 0) +
      (EXPLAINED_WEIGHT * explained.length) / Math.max(1, services.length - 1) +
      EARLINESS_WEIGHT * earliness +
      (maxSeverity > 0 ? (SEVERITY_WEIGHT * Math.max(0, anomaly.severity)) / maxSeverity : 0);
    const reason = reasonFor(anomaly, {
      earliest: Number.isFinite(anomaly.onset) && anomaly.onset === earliest,
      inGraph: inGraph.has(anomaly.service),
      causes,
      explained,
    });
    return { service: anomaly.service, score, onset: anomaly.onset, reason };
  });
  return ranked.sort((a, b) => b.score - a.score || a.onset - b.onset || compareText(a.service, b.service));
}

/** One anomaly per service: its earliest onset and its worst severity. */
function strongestPerService(anomalies: readonly ServiceAnomaly[]): Map<string, ServiceAnomaly> {
  const byService = new Map<string, ServiceAnomaly>();
  for (const anomaly of anomalies) {
    const severity = Number.isFinite(anomaly.severity) ? anomaly.severity : 0;
    const onset = Number.isNaN(anomaly.onset) ? Number.POSITIVE_INFINITY : anomaly.onset;
    const seen = byService.get(anomaly.service);
    byService.set(anomaly.service, {
      service: anomaly.service,
      onset: Math.min(onset, seen?.onset ?? onset),
      severity: Math.max(severity, seen?.severity ?? severity),
    });
  }
  return byService;
}

/** Everything `service` calls, directly or through others; safe on cyclic graphs. */
function dependenciesOf(dependsOn: Readonly<Record<string, readonly string[]>>, service: string): Set<string> {
  const found = new Set<string>();
  const queue = [service];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const callee of dependsOn[next] ?? []) {
      if (callee === service || found.has(callee)) continue;
      found.add(callee);
      queue.push(callee);
    }
  }
  return found;
}

function byOnsetThenName(a: ServiceAnomaly, b: ServiceAnomaly): number {
  return a.onset - b.onset || compareText(a.service, b.service);
}

interface ReasonContext {
  earliest: boolean;
  inGraph: boolean;
  /** Anomalous dependencies that went bad no later than this service, earliest first. */
  causes: readonly ServiceAnomaly[];
  /** Anomalous services depending on this one that went bad no earlier, earliest first. */
  explained: readonly ServiceAnomaly[];
}

function reasonFor(anomaly: ServiceAnomaly, context: ReasonContext): string {
  const when = context.earliest ? `earliest anomaly (${clock(anomaly.onset)})` : `anomaly at ${clock(anomaly.onset)}`;
  const firstCause = context.causes[0];
  if (firstCause) {
    return `${when} follows its dependency ${firstCause.service} (${clock(firstCause.onset)}): likely a symptom`;
  }
  if (!context.inGraph) return `${when}; not in the dependency graph`;
  if (context.explained.length === 0) return `${when} with no anomalous dependency; nothing that calls it failed`;
  const callers = context.explained.map((other) => other.service).join(', ');
  return `${when} with no anomalous dependency; its callers ${callers} failed later`;
}

/** Time of day, enough to tell onsets in one incident apart. */
function clock(time: number): string {
  return Number.isFinite(time) ? `${new Date(time).toISOString().slice(11, 19)}Z` : 'time unknown';
}
