import { correlateChanges } from '../analysis/change-correlation.ts';
import { rankRootCandidates } from '../analysis/propagation.ts';
import { severityOf } from '../analysis/log-templates.ts';
import type { RootCauseCategory } from '../domain/vocabulary.ts';
import { categoryOfChange, causesIn } from './cause-signals.ts';
import type { Alert } from './alerts.ts';
import type { Change, EvidenceBoard, ServiceNode } from './evidence-board.ts';
import { judgeHealth, type Explanation } from './health-verdict.ts';
import { labelsAt, mechanismOf, type Mechanism } from './mechanism.ts';
import { calleesOf, collectSignals, isFault, windowOf, type Signal } from './signals.ts';

/**
 * Infers what is wrong from the evidence board: whether there is an incident, where the fault
 * starts, the change that started it, and its mechanism. Writes no prose (write-finding.ts does).
 */

/** Kinds of service that hold state or queue work: when saturated, usually a client drove them there. */
const sharedResourceKinds = new Set(['rds', 'dynamodb', 'sqs', 'sns', 's3', 'elasticache', 'kinesis']);
/** How long before the trouble a change is still a suspect. */
const CHANGE_WINDOW_MS = 2 * 60 * 60_000;
/** A change this close before the trouble is a prime suspect. */
const CLOSE_CHANGE_MS = 45 * 60_000;
/** A caller's change this close before its dependency broke, at the same moment as the caller, explains the dependency. */
const TRIGGERING_CHANGE_MS = 15 * 60_000;
/** Onsets this close count as simultaneous: a sampling period, plus clock skew. */
const SAME_TIME_MS = 2 * 60_000;

export interface Affected {
  service: string;
  onset: number;
}

export interface IncidentCause {
  verdict: 'incident';
  /** False when the alarms and errors show trouble but no cause stands out. */
  determined: boolean;
  symptom?: string;
  root: string;
  category: RootCauseCategory;
  mechanism?: Mechanism;
  signals: Signal[];
  current: Signal[];
  rootSignals: Signal[];
  rootOnset: number;
  chain: string[];
  candidates: string[];
  /** Other services that show the fault, first onset first. */
  affected: Affected[];
  suspectChange?: Change;
  callerOfRoot?: string;
  /** The root is a client whose load swamps a shared resource it uses (a batch, an import). */
  overloads?: string;
  /** The root took the account quota it shares with this service, which is throttled for it. */
  starves?: string;
  /** The caller of an external root also calls another external provider. */
  alternativeProvider: boolean;
  alreadyRestarting: boolean;
  unexplainedAlerts: Alert[];
  /** The only cause the graph left: one candidate service. */
  soleCandidate: boolean;
}

export interface HealthyVerdict {
  verdict: 'healthy';
  symptom?: string;
  signals: Signal[];
  explained: Explanation[];
  transients: Signal[];
}

export interface NoEvidence {
  verdict: 'no-evidence';
  symptom?: string;
  signals: Signal[];
}

export type CauseInference = IncidentCause | HealthyVerdict | NoEvidence;

/** The service the alert is about: an alarm named in the brief, else the longest service name in it. */
export const symptomServiceOf = (board: EvidenceBoard): string | undefined => {
  const brief = board.brief.toLowerCase();
  const alarm = board.alarms.filter((candidate) => brief.includes(candidate.name.toLowerCase())).sort((a, b) => b.name.length - a.name.length)[0];
  if (alarm) return alarm.service;
  const names = [...new Set([...(board.services ?? []).map((service) => service.name), ...board.alarms.map((candidate) => candidate.service)])];
  return names.filter((name) => brief.includes(name.toLowerCase())).sort((a, b) => b.length - a.length)[0];
};

const dependsOnMap = (services: readonly ServiceNode[]): Record<string, string[]> => Object.fromEntries(services.map((service) => [service.name, service.dependsOn]));

const kindOf = (board: EvidenceBoard, service: string): string | undefined => board.services?.find((node) => node.name === service)?.kind;

const callersOf = (board: EvidenceBoard, service: string): string[] => (board.services ?? []).filter((node) => node.dependsOn.includes(service)).map((node) => node.name);

/**
 * The change most likely to have started the trouble at `onset`, on one of `services`. A provider's
 * infrastructure notice is posted after its impact began, so it may come up to a while after the onset.
 */
const suspectChangeFor = (changes: readonly Change[], services: ReadonlySet<string>, onset: number): Change | undefined => {
  const suspects = changes.filter((change) => services.has(change.service) && categoryOfChange(change.kind) !== undefined);
  const asEvents = (list: readonly Change[]) => list.map((change) => ({ ...change, t: change.at }));
  const best = [
    ...correlateChanges(asEvents(suspects), onset, { windowMs: CHANGE_WINDOW_MS }),
    ...correlateChanges(asEvents(suspects.filter((change) => change.kind === 'infrastructure')), onset, { windowMs: CHANGE_WINDOW_MS, toleranceMs: CLOSE_CHANGE_MS }),
  ].sort((a, b) => b.score - a.score)[0];
  return best ? suspects.find((change) => change.at === best.t && change.service === best.service && change.summary === best.summary) : undefined;
};

/**
 * Follows the failure down the call graph from where it shows: at each step, the dependency whose
 * failure best explains the current service's (named in its errors or traces, or failing no later
 * than it) is the next link. The last link is where the fault originates.
 */
const blameChain = (board: EvidenceBoard, current: readonly Signal[], start: string, onsetOf: (service: string) => number, visited: readonly string[] = []): string[] => {
  const chain = [start];
  for (;;) {
    const node = chain.at(-1)!;
    const callees = (board.services?.find((service) => service.name === node)?.dependsOn ?? []).filter((callee) => !chain.includes(callee) && !visited.includes(callee));
    const scored = callees
      .map((callee) => {
        const own = current.filter((signal) => signal.service === callee);
        const pointedAt = own.filter((signal) => signal.kind === 'mentioned' && signal.from === node).reduce((sum, signal) => sum + signal.strength, 0);
        // Traces see the whole request path, so a failing segment counts whoever the trace started at;
        // a dependency that is only a little slower or busier is not why its caller fails.
        const failing = own.filter((signal) => signal.kind !== 'mentioned' && signal.substantial).reduce((sum, signal) => sum + signal.strength, 0);
        const inTime = onsetOf(callee) <= onsetOf(node) + SAME_TIME_MS;
        return { callee, score: 2 * pointedAt + (inTime ? failing : 0), onset: onsetOf(callee) };
      })
      .filter(({ score }) => score >= 0.3)
      .sort((a, b) => b.score - a.score || a.onset - b.onset || a.callee.localeCompare(b.callee));
    if (!scored[0]) return chain;
    chain.push(scored[0].callee);
  }
};

/**
 * Which client drove a shared resource into the ground: the one whose load or hold on it grew
 * before the resource failed (its own faults or demand start no later than the resource's), or
 * failing that, one that changed just before.
 */
const clientToBlame = (
  board: EvidenceBoard,
  signals: readonly Signal[],
  resource: string,
  onsetOf: (service: string) => number,
  clients: readonly string[],
): { service: string; change?: Change; overload?: boolean } | undefined => {
  const resourceOnset = onsetOf(resource);
  // Only a caller of the resource can be slowed by it; a co-tenant of its quota that does not call it is not reacting to it.
  const calls = (service: string) => callersOf(board, resource).includes(service);
  const earlyFaults = (client: string) =>
    signals.filter((signal) => signal.service === client && signal.ongoing && signal.at <= resourceOnset + SAME_TIME_MS && (isFault(signal) || signal.kind === 'demand'));
  // A client whose errors name another client as the source of its input is that client's victim.
  const namedByOtherClients = (client: string) => earlyFaults(client).filter((signal) => signal.kind === 'mentioned' && clients.includes(signal.from ?? ''));
  // What a client did itself: not pushback from the resource, not a metric that moved after the
  // resource faltered, not its own callers complaining about it (only another client's word counts).
  const owned = (signal: Signal) =>
    !(calls(signal.service) && isReactionTo(resource, signal, signals)) &&
    !(signal.kind === 'metric' && signal.at >= resourceOnset) &&
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
    return { service: early[0].client, change: suspectChangeFor(board.changes, new Set([early[0].client]), resourceOnset), overload: own.every(isLoad) };
  }
  // A change explains the resource's trouble only at a client that shows something on it.
  const active = clients.filter((client) => signals.some((signal) => signal.service === client && signal.ongoing && signal.kind !== 'alarm'));
  const change = suspectChangeFor(board.changes, new Set(active), resourceOnset);
  if (change && resourceOnset - change.at <= CLOSE_CHANGE_MS) return { service: change.service, change };
  const job = jobStartedBefore(board, clients, loadOnset(signals, resource, resourceOnset));
  return job ? { service: job, overload: true } : undefined;
};

/**
 * Kinds whose capacity is an account-wide quota every resource of the kind draws on unless it
 * reserves its own: Lambda's concurrent executions, API Gateway's request rate.
 */
const accountQuotaKinds = new Set(['lambda', 'apigateway']);

/**
 * Who holds the capacity `root` ran out of. A shared resource's capacity is held by its clients.
 * A throttled service whose own demand did not surge shares its quota with the account's other
 * resources of its kind: one of them took it.
 */
const tenantsOf = (board: EvidenceBoard, root: string, rootSignals: readonly Signal[]): { tenants: string[]; coTenants: boolean } => {
  const kind = kindOf(board, root) ?? '';
  if (sharedResourceKinds.has(kind)) return { tenants: callersOf(board, root), coTenants: false };
  const throttled = labelsAt(rootSignals).includes('throttling');
  const ownSurge = rootSignals.some((signal) => signal.kind === 'demand' && signal.substantial);
  if (!accountQuotaKinds.has(kind) || !throttled || ownSurge) return { tenants: [], coTenants: false };
  return { tenants: (board.services ?? []).filter((node) => node.kind === kind && node.name !== root).map((node) => node.name), coTenants: true };
};

/** When load on a resource began: its demand rising, or else its trouble. */
const loadOnset = (signals: readonly Signal[], resource: string, troubleOnset: number): number =>
  Math.min(troubleOnset, ...signals.filter((signal) => signal.service === resource && signal.kind === 'demand' && signal.substantial).map((signal) => signal.at));

/** A job silent for most of the evidence that starts this long before the load rises may be its source. */
const JOB_LEAD_MS = 20 * 60_000;

/**
 * A client that was silent and began work just before the resource's load rose: a batch, import or
 * backfill whose writes are that load. Its first log line dates its start; the rest of the clients
 * were already running.
 */
const jobStartedBefore = (board: EvidenceBoard, clients: readonly string[], onset: number): string | undefined => {
  const window = windowOf(board);
  if (!window) return undefined;
  const quietUntil = window.start + (window.end - window.start) * 0.2;
  const started = clients
    .map((client) => ({ client, first: board.logs.find((line) => line.service === client)?.at }))
    .filter((item): item is { client: string; first: number } => item.first !== undefined && item.first > quietUntil && item.first <= onset + SAME_TIME_MS && onset - item.first <= JOB_LEAD_MS);
  return started.length === 1 ? started[0]!.client : undefined;
};

/** Metrics that rise because a caller waits on something slower: concurrency, duration, backlog. */
const waitingMetric = /concurren|duration|latency|response.?time|iterator|age|backlog|visible|wait|pending/i;
/** An error count says that calls failed, not why: at a client it is a symptom. */
const errorCountMetric = /error|fault|5xx|4xx|fail/i;
const retryWords = /\bretr(y|ying|ies|ied)\b|back.?off/i;

/**
 * Trouble a client shows only because `resource` pushes back: it waits longer, holds more calls
 * open, retries, or is throttled. Such a client shows the resource's trouble; it did not cause it.
 */
const isReactionTo = (resource: string, signal: Signal, signals: readonly Signal[]): boolean => {
  if (signal.kind === 'metric' || signal.kind === 'trend') return waitingMetric.test(signal.text) || errorCountMetric.test(signal.text);
  // Pushback from another dependency is the client's own trouble, to be followed from the client on.
  const aboutOther = signals.some((other) => other.kind === 'mentioned' && other.from === signal.service && other.text === signal.text && other.service !== resource);
  return !aboutOther && (retryWords.test(signal.text) || causesIn(signal.text).some((hit) => hit.label === 'throttling'));
};

/** Categories whose evidence names the mechanism outright, whoever shows it. */
const decisiveCategories = new Set<RootCauseCategory>(['certificate', 'permissions', 'resource-exhaustion']);

/** A category from what the evidence says about the root service itself. */
const categoryFromEvidence = (board: EvidenceBoard, root: string, rootSignals: readonly Signal[], symptom: string | undefined): RootCauseCategory => {
  const votes = new Map<RootCauseCategory, number>();
  for (const signal of rootSignals) {
    const weight = signal.kind === 'errors' || signal.kind === 'metric' ? 2 : 1;
    for (const hit of causesIn(signal.text)) votes.set(hit.category, (votes.get(hit.category) ?? 0) + weight * (hit.category === 'config' ? 0.5 : 1));
  }
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  if (kindOf(board, root) === 'external') return ranked[0] && decisiveCategories.has(ranked[0][0]) ? ranked[0][0] : 'external';
  if (ranked[0]) return ranked[0][0];
  if (rootSignals.some((signal) => signal.kind === 'demand' && signal.substantial)) return 'traffic';
  return root !== symptom ? 'dependency' : 'infrastructure';
};

const restartWords = /exit code 137|OOMKilled|task .{0,60} stopped|container .{0,30}killed|CrashLoopBackOff|back-off restarting|was restarted|Runtime exited|Runtime\.OutOfMemory|Essential container in task exited|failed (ELB|container) health checks?/i;

/** ERROR-or-worse lines at a service that the template miner set aside (too few, or there from the start). */
const rawErrorSignals = (board: EvidenceBoard, services: ReadonlySet<string>): Signal[] =>
  board.logs
    .filter((line) => services.has(line.service) && severityOf(line.level) >= 3)
    .map((line) => ({
      service: line.service,
      kind: 'errors' as const,
      at: line.at,
      strength: 0.5,
      ongoing: true,
      substantial: true,
      ref: line.ref,
      description: `"${line.message.length > 160 ? `${line.message.slice(0, 159)}…` : line.message}" at ${line.service}`,
      text: line.message,
    }));

const incidentFrom = (board: EvidenceBoard, signals: Signal[], current: Signal[], symptom: string | undefined, determined: boolean, unexplainedAlerts: Alert[]): IncidentCause => {
  const services = board.services ?? [];
  const onsetOf = (service: string): number => {
    const own = current.filter((signal) => signal.service === service);
    return own.length > 0 ? Math.min(...own.map((signal) => signal.at)) : Number.POSITIVE_INFINITY;
  };
  const anomalies = [...new Set(current.map((signal) => signal.service))].map((service) => ({
    service,
    onset: onsetOf(service),
    severity: current.filter((signal) => signal.service === service).reduce((sum, signal) => sum + signal.strength, 0),
  }));
  const ranked = rankRootCandidates(dependsOnMap(services), anomalies);
  const start = symptom && anomalies.some((anomaly) => anomaly.service === symptom) ? symptom : ranked[0]?.service ?? anomalies[0]!.service;
  const chain = blameChain(board, current, start, onsetOf);
  let root = chain.at(-1)!;
  const troubleStarts = Math.min(...anomalies.map((anomaly) => anomaly.onset));

  // Which change explains the trouble: the root's own; a caller's that came right before both
  // broke together (a database rejecting the queries of a client that just deployed); or one whose
  // kind is what the errors complain about (AccessDenied after an IAM change), on any link or on a
  // resource the failing services use that shows nothing itself (a key policy, a network ACL).
  const evidenceCategories = new Set(current.filter((signal) => chain.includes(signal.service)).flatMap((signal) => causesIn(signal.text).map((hit) => hit.category)));
  const rootOnsetBefore = onsetOf(root);
  const usedOnPath = [...new Set([...chain, ...anomalies.map((anomaly) => anomaly.service)].flatMap((link) => [...calleesOf(services, link)]))].filter((name) => !chain.includes(name));
  const explanations = [...chain, ...usedOnPath].flatMap((link) => {
    const change = suspectChangeFor(board.changes, new Set([link]), rootOnsetBefore);
    if (!change) return [];
    const lead = rootOnsetBefore - change.at;
    const matchesEvidence = evidenceCategories.has(categoryOfChange(change.kind)!);
    const reactedTogether = chain.includes(link) && onsetOf(link) <= rootOnsetBefore + SAME_TIME_MS && lead <= TRIGGERING_CHANGE_MS;
    if (link !== root && !reactedTogether && !(matchesEvidence && lead <= CLOSE_CHANGE_MS)) return [];
    return [{ link, change, weight: (matchesEvidence ? 2 : 0) + (1 - Math.max(lead, 0) / CHANGE_WINDOW_MS) + (link === root ? 0.5 : 0) }];
  });
  const best = explanations.sort((a, b) => b.weight - a.weight)[0];
  let suspectChange = best?.change;
  if (best) root = best.link;

  // A saturated shared resource is usually the victim of one of its clients; and a client can
  // itself be held up by another dependency, so the chain goes on from it.
  // A lagging replica replays what its source is sent: the load to look for is on the source.
  const lagSource = labelsAt(signals.filter((signal) => signal.service === root)).includes('replication lag')
    ? (services.find((node) => node.name === root)?.dependsOn ?? []).find((name) => sharedResourceKinds.has(kindOf(board, name) ?? ''))
    : undefined;
  const lagOnset = onsetOf(root);
  if (!suspectChange && lagSource) {
    chain.push(lagSource);
    root = lagSource;
  }
  let overload = false;
  let sharedQuotaWith: string | undefined;
  const holders = tenantsOf(board, root, signals.filter((signal) => signal.service === root));
  if (!suspectChange && holders.tenants.length > 0) {
    const culprit = clientToBlame(board, signals, root, (service) => (service === root && !Number.isFinite(onsetOf(service)) ? lagOnset : onsetOf(service)), holders.tenants);
    if (culprit && holders.coTenants) sharedQuotaWith = root;
    if (culprit) {
      const onward = blameChain(board, current, culprit.service, onsetOf, chain);
      chain.push(...onward);
      root = onward.at(-1)!;
      overload = root === culprit.service && culprit.overload === true;
      suspectChange = root === culprit.service ? culprit.change : suspectChangeFor(board.changes, new Set([root]), onsetOf(root));
    }
  }

  const rootSignals = signals.filter((signal) => signal.service === root);
  const changeCategory = suspectChange ? categoryOfChange(suspectChange.kind) : undefined;
  // A client found by the load it put on a shared resource is a traffic cause unless its own evidence names another.
  const evidenceCategory = overload && labelsAt(rootSignals).length === 0 ? 'traffic' : categoryFromEvidence(board, root, rootSignals, symptom);
  // A change explains the trouble unless the evidence names a mechanism the change cannot be (an expired certificate).
  const category: RootCauseCategory = changeCategory && !(evidenceCategory === 'certificate' && changeCategory !== 'certificate') ? changeCategory : evidenceCategory;
  const mechanism = mechanismOf(root, rootSignals, suspectChange, changeCategory);
  const callerOfRoot = chain.length > 1 ? chain.at(-2) : callersOf(board, root)[0];
  return {
    verdict: 'incident',
    determined: determined || mechanism !== undefined || suspectChange !== undefined,
    symptom,
    root,
    category,
    mechanism,
    signals,
    current,
    rootSignals,
    rootOnset: Number.isFinite(onsetOf(root)) ? onsetOf(root) : troubleStarts,
    chain,
    candidates: [...new Set([...chain].reverse().concat(ranked.map((candidate) => candidate.service)))],
    affected: anomalies.filter((anomaly) => anomaly.service !== root).sort((a, b) => a.onset - b.onset).map(({ service, onset }) => ({ service, onset })),
    suspectChange,
    callerOfRoot,
    overloads: overload ? chain.find((link) => sharedResourceKinds.has(kindOf(board, link) ?? '') && (services.find((node) => node.name === root)?.dependsOn ?? []).includes(link)) : undefined,
    starves: overload ? sharedQuotaWith : undefined,
    alternativeProvider:
      kindOf(board, root) === 'external' && ((board.services ?? []).find((node) => node.name === callerOfRoot)?.dependsOn ?? []).some((name) => name !== root && kindOf(board, name) === 'external'),
    alreadyRestarting: rootSignals.some((signal) => restartWords.test(signal.text)),
    unexplainedAlerts,
    soleCandidate: ranked.length === 1,
  };
};

/**
 * The verdict. An ongoing, substantial fault is an incident. Without one, the system is healthy only
 * when every firing alarm is explained as benign and no alarmed service logs errors; otherwise it is
 * an incident whose cause rests on the alarms and whatever errors there are.
 */
export const inferCause = (board: EvidenceBoard): CauseInference => {
  const signals = collectSignals(board);
  const symptom = symptomServiceOf(board);
  if (board.logs.length === 0 && board.series.length === 0 && board.traces.length === 0 && board.alarms.length === 0) {
    return { verdict: 'no-evidence', symptom, signals };
  }
  const health = judgeHealth(board, signals, windowOf(board)?.start, symptom);
  const faults = signals.filter((signal) => isFault(signal) && !health.benign.has(signal));
  if (health.harm.length > 0) return incidentFrom(board, signals, faults.filter((signal) => signal.ongoing), symptom, true, health.unexplained);
  if (health.healthy) {
    const transients = signals.filter((signal) => signal.kind === 'transient' || (isFault(signal) && !signal.ongoing));
    return { verdict: 'healthy', symptom, signals, explained: health.explained, transients };
  }
  // Unexplained alarms or errors: the alarms themselves and every error near them are the evidence.
  const alarmed = new Set([...health.unexplained.flatMap((alert) => (alert.service ? [alert.service] : [])), ...health.errorLines.map((line) => line.service)]);
  const near = new Set([...alarmed].flatMap((service) => [service, ...((board.services ?? []).find((node) => node.name === service)?.dependsOn ?? [])]));
  const raw = rawErrorSignals(board, near);
  const alarmSignals = signals.filter((signal) => signal.kind === 'alarm' && alarmed.has(signal.service)).map((signal) => ({ ...signal, kind: 'errors' as const, substantial: true }));
  const weak = [...faults.filter((signal) => near.has(signal.service)), ...raw, ...alarmSignals];
  if (weak.length === 0) return { verdict: 'no-evidence', symptom, signals };
  const withRaw = [...signals, ...raw];
  const inference = incidentFrom(board, withRaw, weak, symptom && alarmed.has(symptom) ? symptom : [...alarmed][0], false, health.unexplained);
  const labelled = labelsAt(inference.rootSignals).length > 0;
  return { ...inference, determined: labelled || inference.suspectChange !== undefined };
};
