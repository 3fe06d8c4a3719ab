import { openTransactionOn } from './open-transaction.ts';
import { hotPartitionWords, keysNamedBy, throttledByKeyRange } from './hot-partition.ts';
import { leadingTrouble } from './leading-trouble.ts';
import { sharedDependencyChanged } from './shared-dependency.ts';
import { releaseAddedDependency, releaseAddedDependencyWords } from './new-dependency.ts';
import { rankRootCandidates } from '../analysis/propagation.ts';
import type { RootCauseCategory } from '../domain/vocabulary.ts';
import { categoryTraced } from './cause-category.ts';
import { categoryOfChange, causesIn } from './cause-signals.ts';
import { failureKindsIn, failureKindsSaid, startsWork } from './change-effects.ts';
import { producerOfBadData, unreadableFailuresAt, unreadableWords } from './bad-data-source.ts';
import { keptOldValuesBehind, keptOldValuesWords, type KeptOldValues } from './kept-old-values.ts';
import { capacityCutAt, capacityLoweredBy, memoryLoweredBy } from './lowered-setting.ts';
import { onlyWarnsOfCertificate } from './certificate-warnings.ts';
import { scalingCeilingAt, scalingCeilingWords, type ScalingCeiling } from './scaling-ceiling.ts';
import { resizedHostsOf, resizedHostsWords } from './hosts-resized.ts';
import { timedOutIntegrationOf, timedOutIntegrationWords } from './integration-timeout.ts';
import { oversizedPayloadOf, oversizedPayloadWords, type OversizedPayload } from './oversized-payload.ts';
import { reportsOwnOutage } from './outage-notice.ts';
import { failedRotationCategory, failedRotationOf, failedRotationWords, type FailedRotation } from './failed-rotation.ts';
import { shiftedValueOf, shiftedValueWords, type ShiftedValue } from './shifted-value.ts';
import { blameChainTraced } from './blame-chain.ts';
import { handlerBehind } from './work-handler.ts';
import { workResumption } from './work-resumption.ts';
import { CHANGE_WINDOW_MS, explainingChange, suspectChangeFor } from './explaining-change.ts';
import { changedRecordOf, changedRecordWords } from './changed-record.ts';
import { staleViewOf, staleViewWords, type StaleView } from './stale-view.ts';
import { outOfDate, staleDataWords, staleDataWriter } from './stale-data.ts';
import { badGatewayOf, badGatewayWords } from './bad-gateway.ts';
import { unhealthyTargetsOf, unhealthyTargetsWords } from './unhealthy-targets.ts';
import { eagerRedriveOf, eagerRedriveWords } from './eager-redrive.ts';
import { addressHolderOf, addressHolderWords, type AddressHolder } from './address-holder.ts';
import { missingGrantOf, missingGrantWords, type MissingGrant } from './missing-grant.ts';
import { routedLoadOf, routedLoadWords, routerChangeFor, type RoutedLoad } from './routed-load.ts';
import { duplicatesStartAt, outlastedVisibilityAt, outlastedVisibilityWords, type OutlastedVisibility } from './visibility-timeout.ts';
import { repointedEndpointOf, repointedEndpointWords, type RepointedEndpoint } from './repointed-endpoint.ts';
import { changeBeforeFirstFailure } from './first-failure.ts';
import { latentSettingAt, latentSettingFor, scheduleMovedInto } from './latent-setting.ts';
import { retrierAtSharedLimit, retryingCaller, retryWords, unbackedRetriesAt, unbackedRetryWords } from './retry-amplification.ts';
import { missingCacheOf, missingCacheWords, rekeyedCacheOf, rekeyedCacheWords } from './cache-misses.ts';
import { loadFollowsRuns, runLoadWords, type RunLoad } from './client-runs.ts';
import { floodOrigin, floodWords } from './flood-origin.ts';
import { drawsOnAccountQuota } from './account-quota.ts';
import { capacityBehind, clientToBlame, concurrencyRose, heldMechanisms, isSharedCapacity, isStarved, namesOwnFault, refusedInvocationsAt, replicaSource, tenantsOf, type Held } from './load-source.ts';
import { callersOf, dataSourcesOf, dependenciesOf, kindOf } from './service-map.ts';
import { alertsOf, type Alert } from './alerts.ts';
import type { Change, EvidenceBoard, ServiceNode } from './evidence-board.ts';
import { laterFiringOf } from './schedule-expression.ts';
import { judgeHealth, type Explanation } from './health-verdict.ts';
import { heldConnectionsWords, pinnedSessionsWords, labelsAt, mechanismOf, type Mechanism } from './mechanism.ts';
import type { Principle } from './principles.ts';
import { quoteMessage } from '../text/quote.ts';
import { calleesOf, collectSignals, isFault, SAME_TIME_MS, severityOfLine, windowOf, type Signal } from './signals.ts';

/**
 * Infers what is wrong from the evidence board: whether there is an incident, where the fault
 * starts, the change that started it, and its mechanism. Writes no prose (write-finding.ts does).
 */


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
  /** Services in trouble of their own with no calls to or from the root, nor a troubled resource shared with it. */
  unrelated: Affected[];
  suspectChange?: Change;
  callerOfRoot?: string;
  /** The root is a client whose load swamps a shared resource it uses (a batch, an import). */
  overloads?: string;
  /** The root took the account quota it shares with this service, which is throttled for it. */
  starves?: string;
  /** The resource on which the root holds what it or its other clients need (locks, a replication slot's log). */
  holdsOn?: string;
  /** The root is the one caller still failing on a dependency its other callers came through. */
  staleView?: StaleView;
  /** A change at the root that sent its clients' writes to a read-only server. */
  repointed?: RepointedEndpoint;
  /** The root made a payload that grew past what a resource along its callers accepts (oversized-payload.ts). */
  oversized?: OversizedPayload;
  /** The root is a secret's rotation function that failed half way (failed-rotation.ts). */
  failedRotation?: FailedRotation;
  /** The root is a queue whose visibility timeout its consumer's processing outlasts. */
  outlastedVisibility?: OutlastedVisibility;
  /** A routing change moved traffic onto the root, which was not scaled for it (routed-load.ts). */
  routedLoad?: RoutedLoad;
  /** The root refuses an AWS service acting for its caller: its resource policy lacks the grant (missing-grant.ts). */
  missingGrant?: MissingGrant;
  /** The root's copies hold the addresses of the subnets another service cannot start its tasks in (address-holder.ts). */
  addressHolder?: AddressHolder;
  /** The root's scaling reached the maximum capacity stated for it, which names the mechanism (scaling-ceiling.ts). */
  scalingCeiling?: ScalingCeiling;
  /** The root turned to writing its last known values, which its reader finds wrong or old (kept-old-values.ts). */
  keptOld?: KeptOldValues;
  /** The root wrote a value an order of magnitude off (shifted-value.ts). */
  shiftedValue?: ShiftedValue;
  /** The caller of an external root also calls another external provider. */
  alternativeProvider: boolean;
  alreadyRestarting: boolean;
  unexplainedAlerts: Alert[];
  /** Ongoing, substantial faults nothing benign explains (health-verdict.ts); empty when only alerts make it an incident. */
  unexplainedHarm: Signal[];
  /** The only cause the graph left: one candidate service. */
  soleCandidate: boolean;
  /** The principles that placed the root and chose its category and mechanism (principles.ts). */
  principles: Principle[];
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

/** A value written wrong is noticed within a day or two of the run that wrote it. */
const SHIFT_REACH_MS = 2 * 24 * 60 * 60_000;

const restartWords = /exit code 137|OOMKilled|task .{0,60} stopped|container .{0,30}killed|CrashLoopBackOff|back-off restarting|was restarted|Runtime exited|Runtime\.OutOfMemory|Essential container in task exited|failed (ELB|container) health checks?/i;

/**
 * A resource's own account of the work that loads it, at any level: a database logs its slow
 * queries and its top SQL as information, yet they say how the work loads it (rows examined).
 */
const accountOf = (board: EvidenceBoard, resource: string): Signal[] =>
  board.logs
    .filter((line) => line.service === resource && causesIn(line.message).length > 0)
    .map((line) => ({
      service: resource,
      kind: 'mentioned' as const,
      at: line.at,
      strength: 0.5,
      ongoing: true,
      substantial: false,
      ref: line.ref,
      description: `"${quoteMessage(line.message)}" at ${resource}`,
      text: line.message,
    }));

/** What a service's own process or host runs out of: when its tasks fail their health checks, this is why. */
const ownWants = new Set(['disk', 'memory', 'threads']);

/** ERROR-or-worse lines at a service that the template miner set aside (too few, or there from the start). */
const rawErrorSignals = (board: EvidenceBoard, services: ReadonlySet<string>): Signal[] =>
  board.logs
    .filter((line) => services.has(line.service) && severityOfLine(line) >= 3)
    .map((line) => ({
      service: line.service,
      kind: 'errors' as const,
      at: line.at,
      strength: 0.5,
      ongoing: true,
      substantial: true,
      ref: line.ref,
      description: `"${quoteMessage(line.message)}" at ${line.service}`,
      text: line.message,
    }));

const incidentFrom = (
  board: EvidenceBoard,
  signals: Signal[],
  current: Signal[],
  symptom: string | undefined,
  determined: boolean,
  { unexplainedAlerts, unexplainedHarm }: { unexplainedAlerts: Alert[]; unexplainedHarm: Signal[] },
): IncidentCause => {
  const services = board.services ?? [];
  // A few warnings before a service's real trouble do not date it: its substantial signals do, when it has any.
  const datingSignals = (service: string): Signal[] => {
    const own = current.filter((signal) => signal.service === service);
    const substantial = own.filter((signal) => signal.substantial);
    return substantial.length > 0 ? substantial : own;
  };
  const onsetOf = (service: string): number => Math.min(Number.POSITIVE_INFINITY, ...datingSignals(service).map((signal) => signal.at));
  // The earliest it may have begun: a shift read on a coarse series began after the point before it.
  const earliestOnsetOf = (service: string): number => Math.min(Number.POSITIVE_INFINITY, ...datingSignals(service).map((signal) => signal.earliest ?? signal.at));
  // Where something substantial is wrong, routine warnings elsewhere are not where the failure starts.
  const substantial = current.filter((signal) => signal.substantial);
  const anomalies = [...new Set((substantial.length > 0 ? substantial : current).map((signal) => signal.service))].map((service) => ({
    service,
    onset: onsetOf(service),
    severity: current.filter((signal) => signal.service === service).reduce((sum, signal) => sum + signal.strength, 0),
  }));
  const ranked = rankRootCandidates(dependsOnMap(services), anomalies);
  const alerts = alertsOf(board, symptom);
  const applied: Principle[] = [];
  const leading = symptom && anomalies.some((anomaly) => anomaly.service === symptom) ? { service: symptom } : leadingTrouble(board, ranked, current);
  if (leading?.principle) applied.push(leading.principle);
  const start = leading?.service ?? anomalies[0]!.service;
  const follow = (from: string, visited: readonly string[] = []): string[] => {
    const traced = blameChainTraced(board, current, from, onsetOf, visited, earliestOnsetOf);
    applied.push(...traced.principles);
    return traced.links;
  };
  const chain = follow(start);
  // A balancer that answers 502 itself lost its connection to the target: the target's dependencies did not do that.
  const badGateway = badGatewayOf(board, chain, current, CHANGE_WINDOW_MS);
  if (badGateway) {
    chain.splice(1, chain.length - 1, badGateway.target);
    applied.push('bad-gateway-at-target');
  }
  // A balancer whose targets fail its health checks has none to send requests to: the target that changed is where the fault is.
  const unhealthy = badGateway ? undefined : unhealthyTargetsOf(board, chain, current, CHANGE_WINDOW_MS);
  if (unhealthy) {
    if (chain.includes(unhealthy.target)) chain.splice(chain.indexOf(unhealthy.target) + 1);
    else chain.push(unhealthy.target);
    applied.push('targets-fail-health-checks');
  }
  // A gateway that gave up waiting for its integration shows the symptom; the backend that ran past the gateway's limit is where the time goes.
  const timedOut = badGateway || unhealthy ? undefined : chain.map((link) => timedOutIntegrationOf(board, link)).find((found) => found !== undefined);
  if (timedOut) {
    chain.splice(chain.indexOf(timedOut.gateway) + 1, chain.length, timedOut.backend);
    applied.push('integration-timed-out');
  }
  // A service refused for want of a capacity it shares shows the symptom; the capacity, and who took it, is the cause.
  const onToCapacityBehind = () => {
    const capacity = capacityBehind(board, chain.at(-1)!, signals);
    if (capacity && !chain.includes(capacity)) {
      chain.push(capacity);
      applied.push('capacity-behind-starved');
    }
  };
  onToCapacityBehind();
  let root = chain.at(-1)!;
  const shownAt = workResumption(board);
  const troubleStarts = Math.min(...anomalies.map((anomaly) => anomaly.onset));

  // What the failure is: the faults, and any metric that turned substantially, whatever its reading (requests blocked, messages filtered out).
  const turned = signals.filter((signal) => signal.ongoing && signal.substantial && (signal.kind === 'metric' || signal.kind === 'demand'));
  const evidenceKinds = failureKindsIn([...current, ...turned]);
  const explain = (rootOnset: number) => {
    const ownSignals = signals.filter((signal) => signal.service === root);
    return explainingChange({
      services,
      changes: board.changes,
      chain,
      root,
      rootOnset,
      onsetOf,
      usedOnPath: [...new Set([...chain, ...anomalies.map((anomaly) => anomaly.service)].flatMap((link) => [...calleesOf(services, link)]))].filter((name) => !chain.includes(name)),
      failing: [...new Set([...anomalies.map((anomaly) => anomaly.service), ...turned.map((signal) => signal.service)])],
      evidenceCategories: new Set(current.filter((signal) => chain.includes(signal.service)).flatMap((signal) => causesIn(signal.text).map((hit) => hit.category))),
      evidenceKinds,
      evidence: [...current, ...turned],
      // A function whose own concurrency rose to its limit is not starved by others: its own change may explain it.
      rootStarved: isStarved(ownSignals) && !concurrencyRose(board, root, ownSignals, { accountWide: false }),
      rootRefusedInvocations: Number.isFinite(refusedInvocationsAt(board, current, root)),
      starvedOfQuota: drawsOnAccountQuota(board, root) ? chain.filter((link) => link !== root && isStarved(signals.filter((signal) => signal.service === link))) : [],
      rootReportsOutage: reportsOwnOutage(board, root, rootOnset),
      callersStarvedByRoot: callersOf(board, root).filter((caller) => capacityBehind(board, caller, signals) === root),
      shownAt,
    });
  };
  // A root with no evidence of its own (a capacity behind a refused service) is dated by the trouble it is blamed for.
  // A target the balancer lost its connections to shows the fault only in the balancer's 502s.
  const datedOnset = (service: string) =>
    service === badGateway?.target ? badGateway.at : service === unhealthy?.target ? Math.min(unhealthy.at, onsetOf(service)) : Number.isFinite(onsetOf(service)) ? onsetOf(service) : troubleStarts;
  // Data its reader finds old was not refreshed upstream: a change at the reader does not explain it.
  // A person's report that the data the symptom shows is out of date is that reader's complaint, wherever the search ended.
  const reportedOld = alerts.find((alert) => alert.source === 'report' && outOfDate.test(alert.said ?? ''));
  const stale =
    staleDataWriter(board, root, current) ??
    (reportedOld && symptom ? staleDataWriter(board, symptom, current, reportedOld.since ?? windowOf(board)?.end ?? troubleStarts) : undefined);
  // A shared resource whose load steps with one client's runs is loaded by them: no change elsewhere, tied by timing, competes with that.
  // So is one that a client keeps a transaction open on, as the database dates and names it.
  const takenByClient =
    isSharedCapacity(board, root) &&
    !namesOwnFault(board, signals.filter((signal) => signal.service === root), root) &&
    (loadFollowsRuns(board, root, callersOf(board, root)) !== undefined || openTransactionOn(board, root, callersOf(board, root)) !== undefined);
  let explained = stale || takenByClient ? undefined : explain(datedOnset(root));
  // A resource that only passes work along, that no change explains, shows the fault of the code
  // that handles its work. The trouble the carrier shows dates that fault: the handler's earlier,
  // unrelated errors (a few bad files) do not move the search for a change back, nor do errors it logs only hours later move it on.
  const carrier = root;
  const handler = explained || stale || takenByClient ? undefined : handlerBehind(board, carrier, current, chain);
  if (handler) {
    applied.push(handler.principle);
    chain.push(...follow(handler.service, chain));
    // The handler may itself be refused for want of a capacity it shares.
    onToCapacityBehind();
    root = chain.at(-1)!;
    const carrierShows = current.filter((signal) => signal.service === carrier && signal.kind !== 'mentioned' && signal.kind !== 'trace').map((signal) => signal.at);
    const shownAt = Math.min(...carrierShows);
    explained = explain(Number.isFinite(shownAt) ? shownAt : datedOnset(root));
  }
  // A target the balancer lost its connections to changed how it serves them with its latest release or setting.
  let suspectChange = explained?.change ?? (badGateway && root === badGateway.target ? badGateway.change : unhealthy && root === unhealthy.target ? unhealthy.change : undefined);
  // A change tied to the trouble by its timing alone, not by what it can break: stronger evidence may overrule it.
  let tiedByTimeOnly = explained !== undefined && explained.because !== 'change-effect-matches';
  const searched = root;
  if (explained) {
    applied.push(...explained.principles);
    if (!chain.includes(explained.link)) chain.push(explained.link);
    root = explained.link;
  }
  // Services failing independently after a dependency they share changed fail because of that change, not each of its own.
  const shared = stale || takenByClient || (explained && explained.change.service !== root) ? undefined : sharedDependencyChanged(board, root, anomalies.map((anomaly) => anomaly.service), onsetOf, current);
  if (shared) {
    applied.push('shared-dependency-changed');
    chain.push(shared.dependency);
    root = shared.dependency;
    suspectChange = shared.change;
    tiedByTimeOnly = false;
  }
  if (stale) {
    applied.push('stale-data-writer');
    chain.push(...stale.path.filter((link) => !chain.includes(link)));
    root = stale.service;
    suspectChange = stale.change;
  }
  // A resource whose failures began after one change ended a long clean run failed because of it, however long ago.
  const endedCleanRun = suspectChange || takenByClient ? undefined : changeBeforeFirstFailure(board, root);
  if (endedCleanRun) {
    suspectChange = endedCleanRun;
    applied.push('change-ended-clean-run');
  }
  // A capacity lowered days before, which the load has now run into, is the change behind the trouble (not the load that reached it).
  const ceilingCut = suspectChange || takenByClient ? undefined : capacityCutAt(board, root, datedOnset(root));
  if (ceilingCut) {
    applied.push('capacity-cut');
    suspectChange = ceilingCut;
  }
  // Hosts redefined to a smaller size leave tasks unplaced at the next scale-out that needs the room.
  const resizedHosts = suspectChange || takenByClient ? undefined : resizedHostsOf(board, root, current, datedOnset(root));
  if (resizedHosts) {
    applied.push('hosts-resized');
    suspectChange = resizedHosts.change;
  }
  const rootAt = (caller: string) => {
    const at = chain.indexOf(caller);
    if (at >= 0) chain.splice(at + 1);
    else chain.push(caller);
    root = caller;
  };
  // A setting changed at the root days ago whose only effect is the failure the root shows waited for its condition.
  // One that lowered a limit the root now runs into outranks a caller's change tied to that failure by timing alone.
  const byCallerTiming = tiedByTimeOnly && explained?.because === 'caller-change';
  const latentFound = (suspectChange && !byCallerTiming) || takenByClient ? undefined : latentSettingAt(board, searched, current, datedOnset(searched));
  const latent = latentFound && (!suspectChange || memoryLoweredBy(latentFound) || capacityLoweredBy(latentFound.summary)) ? latentFound : undefined;
  if (latent) {
    rootAt(searched);
    suspectChange = latent;
    tiedByTimeOnly = false;
    applied.push('latent-setting');
  }

  // A saturated shared resource is usually the victim of one of its clients; and a client can
  // itself be held up by another dependency, so the chain goes on from it.
  // A lagging replica replays what its source is sent: the load to look for is on the source.
  const lagOnset = onsetOf(root);
  const lagSource = labelsAt(signals.filter((signal) => signal.service === root)).includes('replication lag') ? replicaSource(board, root, signals, lagOnset) : undefined;
  if (!suspectChange && !takenByClient && lagSource) {
    applied.push('replica-replays-source');
    chain.push(lagSource);
    root = lagSource;
  }
  /** A caller found to be where the trouble starts becomes the root: the chain is cut back to it, or extended by it. */
  // A callee asked many times more often per request its caller serves than usual is hammered by that caller's retries.
  // Not a callee whose own evidence names a fault no load causes (an expired certificate, a refused permission): calls to it are repeated because it fails.
  const faultNoLoadCauses = signals.some((signal) => signal.service === root && causesIn(signal.text).some((hit) => hit.category === 'certificate' || hit.category === 'permissions'));
  const retrying = suspectChange || takenByClient || faultNoLoadCauses ? undefined : retryingCaller(board, root, datedOnset(root));
  if (retrying) {
    applied.push('retries-amplify');
    rootAt(retrying.caller);
    suspectChange = retrying.change;
  }
  // A service whose own lines show refused calls tried again at once keeps itself over the limit with its own retries.
  // A limit shared by several callers is kept exceeded by the one among them that retries what it refuses at once.
  const unbacked =
    suspectChange || retrying || takenByClient
      ? undefined
      : (unbackedRetriesAt(board, root, datedOnset(root)) ?? retrierAtSharedLimit(board, root, datedOnset(root)));
  if (unbacked) {
    applied.push('retries-amplify');
    if (unbacked.caller !== root) rootAt(unbacked.caller);
    suspectChange = unbacked.change;
  }
  // An origin whose demand surged while the cache in front of it hit less carries that cache's misses: the origin may be
  // the root or any link on the way to it (the misses overload the origin, and the origin the services behind it).
  // A change already found at that cache is why it stopped hitting; a change elsewhere competes with it.
  const missingCache = takenByClient
    ? undefined
    : [...chain]
        .reverse()
        .map((link) => missingCacheOf(board, link, signals, datedOnset(link)))
        .find((found) => found !== undefined && (!suspectChange || suspectChange.service === found.cache));
  if (missingCache) {
    applied.push('cache-misses-are-load');
    chain.splice(chain.indexOf(missingCache.origin) + 1);
    rootAt(missingCache.cache);
    suspectChange = missingCache.change;
  }
  // A cache that misses with no change of its own, just after a client's release, is asked differently by that release:
  // from the cache, the client is where it starts; at that client, the misses are what its release did.
  const rekeyed =
    (suspectChange && suspectChange.service === root ? undefined : rekeyedCacheOf(board, root, signals)) ??
    dependenciesOf(board, root)
      .map((cache) => rekeyedCacheOf(board, cache, signals))
      .find((found) => found?.client === root && (!suspectChange || suspectChange === found.change));
  if (rekeyed) {
    applied.push('client-change-at-shared-resource');
    rootAt(rekeyed.client);
    suspectChange = rekeyed.change;
  }
  let overload = false;
  let runLoad: RunLoad | undefined;
  /** The resource on which the root holds what it or its other clients need, and what. */
  let heldOn: { resource: string; held: Held } | undefined;
  /** The resource whose own account of its load named the root as the client doing it. */
  let namedBy: string | undefined;
  /** The one key the loaded table's top contributors name, when the root's load is all on it. */
  let hotKey: string | undefined;
  let sharedQuotaWith: string | undefined;
  let loaded = root;
  // A client found loading a resource may itself be a throttled tenant of a quota whose own use did not rise (a queue's
  // consumer held back by the account's concurrency): who took that quota is followed on from it, once.
  for (let step = 0; step < 2; step += 1) {
    const rootSignals = signals.filter((signal) => signal.service === root);
    const holders = tenantsOf(board, root, rootSignals);
    // A throttled service whose own use did not rise lost a shared quota: who took it outranks a change of its own.
    // A client throttled by the resource it was found loading is refused by that resource, not starved of an account quota.
    const throttledByLoaded = step > 0 && labelsAt(signals.filter((signal) => signal.service === loaded)).includes('throttling');
    const starved = holders.coTenants && labelsAt(rootSignals).includes('throttling') && !throttledByLoaded;
    // Over a change of its own, only the account's pool seen full says it was starved (not capped by a limit of its own).
    const starvedDespiteChange = starved && concurrencyRose(board, root, rootSignals, { accountWide: true });
    // A client found loading a resource that is itself shared by clients (a proxy in front of a database) passes on their load.
    const passesOnLoad = step > 0 && isSharedCapacity(board, root);
    if ((suspectChange && !starvedDespiteChange) || holders.tenants.length === 0 || (step > 0 && !starved && !passesOnLoad)) break;
    const culprit = clientToBlame(board, signals, root, (service) => (service === root && !Number.isFinite(onsetOf(service)) ? lagOnset : onsetOf(service)), holders.tenants);
    if (!culprit) break;
    loaded = root;
    if (holders.coTenants) sharedQuotaWith = root;
    applied.push(...(holders.coTenants ? (['co-tenant-took-quota'] as const) : []), culprit.principle);
    // A client whose own load is the cause is where it starts; one that failed on the resource may itself be held up further on.
    const onward = culprit.overload || culprit.holds ? [culprit.service] : follow(culprit.service, chain);
    chain.push(...onward);
    root = onward.at(-1)!;
    overload = root === culprit.service && culprit.overload === true;
    runLoad = root === culprit.service ? culprit.runs : undefined;
    heldOn = root === culprit.service && culprit.holds ? { resource: loaded, held: culprit.holds } : undefined;
    // A holder of locks changed days before to run work that takes them held them from its next run on.
    // So did one whose schedule was moved to start that work when the waits began.
    const latentLocking =
      heldOn?.held === 'locks' && !culprit.change ? (latentSettingFor(board, root, new Set(['locks']), onsetOf(loaded)) ?? scheduleMovedInto(board, root, onsetOf(loaded))) : undefined;
    if (latentLocking) applied.push('latent-setting');
    namedBy = root === culprit.service && culprit.principle === 'resource-names-its-client' ? loaded : undefined;
    hotKey = root === culprit.service ? culprit.hotKey : undefined;
    // Work a schedule launched ran when the schedule said: one written since its last run (a new time, a lost time zone) is why it ran into the others' work.
    const launchedBySchedule = root === culprit.service && culprit.change && startsWork(culprit.change) ? scheduleMovedInto(board, root, culprit.change.at) : undefined;
    suspectChange = root === culprit.service ? (launchedBySchedule ?? culprit.change ?? latentLocking) : suspectChangeFor(board.changes, new Set([root]), onsetOf(root));
    // A schedule changed between its firings is tied to the trouble by its next firing, not by its own time.
    if (suspectChange && (suspectChange === culprit.change || suspectChange === launchedBySchedule) && laterFiringOf(suspectChange) !== undefined) applied.push('change-shows-when-work-resumes');
    tiedByTimeOnly = culprit.principle === 'early-client-is-load' || culprit.principle === 'client-change-at-shared-resource';
    if (root !== culprit.service) break;
  }

  // A root found elsewhere is not the client that a loaded resource named or that holds what it needs.
  const forgetLoadedClient = () => {
    overload = false;
    runLoad = undefined;
    heldOn = undefined;
    namedBy = undefined;
    hotKey = undefined;
  };
  // A service that cannot start tasks for want of addresses in its subnets is starved by the fleet that took them there.
  const addressHolder = addressHolderOf(board, [...chain, ...anomalies.map((anomaly) => anomaly.service)], signals);
  if (addressHolder) {
    applied.push('addresses-held-by-co-tenant');
    rootAt(addressHolder.starved);
    chain.push(addressHolder.holder);
    root = addressHolder.holder;
    suspectChange = addressHolder.change;
    tiedByTimeOnly = false;
    forgetLoadedClient();
  }
  // A service flooded by what it is sent did not make its own load: where the flood was let loose, and the change that did it, is the cause.
  const flood = !suspectChange || tiedByTimeOnly ? floodOrigin(board, signals, root, datedOnset(root)) : undefined;
  const flooded = root;
  if (flood) {
    applied.push('flood-from-upstream');
    chain.push(...flood.path.filter((link) => !chain.includes(link)));
    root = flood.origin;
    suspectChange = flood.change;
    forgetLoadedClient();
  }

  // A service sent traffic by a router's change (a DNS record's weights, a balancer's rules) took what it was sent: the router changed.
  const routerChange = flood || suspectChange ? undefined : routerChangeFor(board, root, datedOnset(root));
  if (routerChange) {
    applied.push('load-routed-by-change');
    chain.push(routerChange.service);
    root = routerChange.service;
    suspectChange = routerChange;
    tiedByTimeOnly = false;
    forgetLoadedClient();
  }

  // A dependency that serves the callers that stumbled with it is working; the one still failing holds a stale view of it.
  // The root may be that caller itself, the search having stopped at it before the dependency.
  const soleFailing = overload
    ? undefined
    : (staleViewOf(board, root, current, onsetOf, suspectChange) ??
      dependenciesOf(board, root)
        .map((dependency) => staleViewOf(board, dependency, current, onsetOf, suspectChange))
        .find((view) => view?.caller === root));
  // A sole failing caller changed just before its own trouble fails from that change, not from what it kept of the dependency.
  const callerChange = soleFailing && suspectChangeFor(board.changes, new Set([soleFailing.caller]), onsetOf(soleFailing.caller));
  const staleView = callerChange ? undefined : soleFailing;
  if (soleFailing) {
    if (staleView) applied.push('sole-failing-caller');
    rootAt(soleFailing.caller);
  }
  if (callerChange) suspectChange = callerChange;

  // A dependency its caller began to call only with its latest release: the release put it on the path, and is what changed.
  const added = overload || staleView || suspectChange ? undefined : releaseAddedDependency(board, root, current);
  if (added) {
    applied.push('release-added-dependency');
    rootAt(added.caller);
    suspectChange = added.change;
    tiedByTimeOnly = false;
  }

  // A consumer handling messages twice because the queue shows them again while it still works on them: the queue's setting
  // is why, unless the consumer's release made its runs that long. Duplicates are often reported ("charged twice") before any
  // measure shows a message received twice.
  const reportedKinds = failureKindsSaid(alerts.map((alert) => alert.said ?? alert.name));
  const outlasted = overload
    ? undefined
    : outlastedVisibilityAt(board, root, new Set([...evidenceKinds, ...reportedKinds]), { redeliveredFrom: datedOnset(root), shownAt, anywhere: !suspectChange || tiedByTimeOnly });
  if (outlasted) {
    applied.push('redelivered-messages');
    rootAt(duplicatesStartAt(outlasted));
    suspectChange = outlasted.slowedBy;
  }
  // A dead-letter queue filling because its queue gives a message one receive: that setting, not what failed once, is the cause.
  const eager = outlasted || overload ? undefined : eagerRedriveOf(board, current);
  if (eager) {
    applied.push('eager-redrive');
    rootAt(eager.queue);
    suspectChange = eager.change;
    forgetLoadedClient();
  }

  // A consumer that cannot read what a producer wrote shows the producer's bad data; the change
  // that explains it came before the item was written, which may be long before it was read.
  const writer = producerOfBadData(board, root, current);
  const unreadFailure = writer ? unreadableFailuresAt(current, root)[0] : undefined;
  const reader = root;
  if (writer) {
    applied.push('bad-data-writer');
    chain.push(writer.service);
    root = writer.service;
    overload = false;
    // The item may have been written in its old shape long before; the record that failed was written again after the writer's release.
    suspectChange = suspectChangeFor(board.changes, new Set([writer.service]), writer.wroteAt) ?? suspectChangeFor(board.changes, new Set([writer.service]), writer.readAt);
  }

  // Data found wrong or old, with nothing failing, was kept old by a writer on its way that turned to its last known values.
  const keptOld = writer ? undefined : keptOldValuesBehind(board, root, current);
  if (keptOld) {
    applied.push('writer-kept-old-values');
    rootAt(keptOld.writer);
    overload = false;
    suspectChange = suspectChangeFor(board.changes, new Set([keptOld.writer]), keptOld.since);
  }

  // Credentials refused after a rotation function stopped half way: the function is the cause, not its secret or the clients refused.
  const failedRotation = failedRotationOf(board);
  const rotationTouches = (rotator: string) => new Set([...dependenciesOf(board, rotator), ...dependenciesOf(board, rotator).flatMap((used) => callersOf(board, used))]);
  if (failedRotation && root !== failedRotation.rotator && rotationTouches(failedRotation.rotator).has(root)) {
    applied.push('rotation-failed');
    rootAt(failedRotation.rotator);
    suspectChange = failedRotation.release;
    overload = false;
  }

  // A resource refusing a payload for its size shows where the payload grew, along what it calls.
  const oversized = chain.map((link) => oversizedPayloadOf(board, link)).find((found) => found !== undefined);
  if (oversized) {
    applied.push('payload-outgrew-limit');
    rootAt(oversized.source);
    suspectChange = oversized.change;
    overload = false;
  }

  // A resource that refuses an AWS service acting for the root (a CDN's origin bucket, a rule's target queue) lacks the grant in its own policy.
  const missingGrant = overload ? undefined : missingGrantOf(board, root, signals, datedOnset(root));
  if (missingGrant) {
    applied.push('grant-missing-at-resource');
    chain.push(missingGrant.resource);
    root = missingGrant.resource;
    suspectChange = missingGrant.policyChange ?? suspectChange;
    tiedByTimeOnly = false;
    forgetLoadedClient();
  }

  // A value written an order of magnitude off fails nothing where it is read: whoever logged it first, before the trouble, wrote it.
  const shiftFound = writer ? undefined : shiftedValueOf(board);
  const shifted = shiftFound && shiftFound.at - shiftFound.datedWithinMs <= datedOnset(root) + SAME_TIME_MS && datedOnset(root) - shiftFound.at <= SHIFT_REACH_MS ? shiftFound : undefined;
  if (shifted) {
    applied.push('value-shifted-at-writer');
    rootAt(shifted.origin);
    suspectChange = shifted.change;
    forgetLoadedClient();
  }

  // A value written wrong is where it starts, though what it does shows only later.
  const rootOnset = shifted ? shifted.at : Number.isFinite(onsetOf(root)) ? onsetOf(root) : troubleStarts;
  // What only warns of a certificate (days left before it expires, handshakes failing only long after the trouble it is blamed for began) names no mechanism.
  // When that trouble began is read on what failed or moved along the chain, not on when an alarm there first fired (it may stand for weeks).
  const blamedTroubleStarts = Math.min(...signals.filter((signal) => (signal.service === root || chain.includes(signal.service)) && signal.kind !== 'alarm' && signal.substantial).map((signal) => signal.at));
  const minedAtRoot = signals.filter((signal) => signal.service === root && !onlyWarnsOfCertificate(signal, blamedTroubleStarts));
  // Sparse evidence: a root whose only word is a few error lines of its own (too few to mine) speaks through them.
  const rootSignals = minedAtRoot.length > 0 ? minedAtRoot : rawErrorSignals(board, new Set([root]));
  if (minedAtRoot.length === 0 && rootSignals.length > 0) applied.push('sparse-root-errors');
  const changeCategory = suspectChange ? categoryOfChange(suspectChange) : undefined;
  // The stale view holds only while its caller is still the root (a bad-data writer further up moves it on).
  const heldStale = staleView && root === staleView.caller ? staleView : undefined;
  const foundByEffect = explained?.because === 'change-effect-matches' && suspectChange === explained.change;
  const repointed = foundByEffect && suspectChange?.service === root ? repointedEndpointOf(suspectChange, current, symptom) : undefined;
  const heldVisibility = outlasted && root === duplicatesStartAt(outlasted) ? outlasted : undefined;
  const routed = routedLoadOf(board, root, suspectChange, signals);
  const rotationAtRoot = failedRotation && root === failedRotation.rotator ? failedRotation : undefined;
  const category = heldVisibility
    ? { category: (heldVisibility.slowedBy && categoryOfChange(heldVisibility.slowedBy)) || 'config', principle: 'redelivered-messages' as const }
    : rotationAtRoot
    ? { category: failedRotationCategory(rotationAtRoot), principle: 'rotation-failed' as const }
    : missingGrant && root === missingGrant.resource
    ? { category: 'permissions' as const, principle: 'grant-missing-at-resource' as const }
    : timedOut?.workGrew && root === timedOut.backend
    ? { category: 'data' as const, principle: 'integration-timed-out' as const }
    : categoryTraced({
    board,
    root,
    rootSignals,
    symptom,
    rootOnset,
    change: suspectChange,
    ...(foundByEffect ? { failuresExplained: evidenceKinds } : {}),
    wroteBadData: writer !== undefined || (keptOld !== undefined && root === keptOld.writer),
    shiftedValue: shifted !== undefined,
    overloads: overload,
    ...(overload && loaded !== root ? { loadedSignals: signals.filter((signal) => signal.service === loaded) } : {}),
    heldStale: heldStale !== undefined,
    ...(heldOn ? { holds: heldOn.held } : {}),
    routedLoad: routed !== undefined,
    holdsAddresses: addressHolder !== undefined && root === addressHolder.holder,
  });
  // A client whose load a resource cannot take is throttled by that resource, not by a limit of its own: the resource's demand says by how much.
  const overloadedThrottle = (found: Mechanism | undefined): Mechanism | undefined => {
    if (found?.label !== 'throttling' || !overload || loaded === root || sharedQuotaWith) return found;
    const demand = signals.filter((signal) => signal.service === loaded && signal.kind === 'demand' && signal.ongoing).sort((a, b) => b.strength - a.strength)[0];
    const rose = demand ? ` Its demand rose: ${demand.description}.` : '';
    if (hotKey) {
      return { ...found, words: `${root} writes to ${loaded} under one hot partition key, ${hotKey}: ${loaded}'s top contributors name that key, and a single partition takes only so much whatever the table's capacity, so ${loaded} throttles the requests on it.${rose}` };
    }
    if (throttledByKeyRange(board, loaded, signals)) return { ...found, words: `${hotPartitionWords(root, loaded, keysNamedBy(board, root))}${rose}` };
    return { ...found, words: `${root} sends ${loaded} more than its capacity or rate limit takes, so ${loaded} throttles the requests of ${root} and of its other clients.${rose}` };
  };
  // The resource that named the client says how its work loads it (its queries scan): the client's own refusals are the symptom.
  // A volume the client fills is the resource's own: its storage is named, not the client's.
  const accountMechanism = (resource: string): Mechanism | undefined => {
    const account = accountOf(board, resource);
    const asClient = mechanismOf(root, account, suspectChange, changeCategory);
    return asClient?.label === 'disk' ? mechanismOf(resource, account, suspectChange, changeCategory) : asClient;
  };
  const loadedAs = namedBy && root !== writer?.service ? accountMechanism(namedBy) : undefined;
  const placedAtRoot = (label: string, words: string, principle: Principle): Mechanism => ({ label, category: category.category, words, principle });
  // A service swamped by its load that could scale no further is held at its maximum (a cut of its capacity is a config cause).
  const swamped = (category.category === 'traffic' || category.category === 'resource-exhaustion') && !overload;
  const ceiling = swamped ? scalingCeilingAt(board, root, rootOnset) : undefined;
  const changedRecord = suspectChange?.service === root ? changedRecordOf(suspectChange, current) : undefined;
  // Tasks that fail their checks for a want of their own their errors name (a full disk, memory, threads): that want is said too.
  const ownMechanism = mechanismOf(root, rootSignals, suspectChange, changeCategory, board.series.filter((series) => series.service === root));
  const whyChecksFail = unhealthy && root === unhealthy.target && ownMechanism && ownWants.has(ownMechanism.label) ? ` Why, in its own errors: ${ownMechanism.words}` : '';
  // What the wider evidence found at the root names the mechanism, the first found first; failing all of them, the root's own evidence does
  // (ownMechanism).
  const found: Mechanism | undefined =
    (shifted && placedAtRoot('shifted value', shiftedValueWords(shifted), 'value-shifted-at-writer')) ||
    (heldVisibility && placedAtRoot('redelivery', outlastedVisibilityWords(heldVisibility), 'redelivered-messages')) ||
    (heldStale && placedAtRoot('stale view', staleViewWords(heldStale), 'sole-failing-caller')) ||
    (added && root === added.caller && placedAtRoot('new dependency', releaseAddedDependencyWords(added), 'release-added-dependency')) ||
    (stale && root === stale.service && suspectChange === stale.change && placedAtRoot('stale data', staleDataWords(stale), 'stale-data-writer')) ||
    (keptOld && root === keptOld.writer && placedAtRoot('stale data', keptOldValuesWords(keptOld), 'writer-kept-old-values')) ||
    (missingCache && root === missingCache.cache && placedAtRoot('cache misses', missingCacheWords(missingCache), 'cache-misses-are-load')) ||
    (rekeyed && root === rekeyed.client && placedAtRoot('cache misses', rekeyedCacheWords(rekeyed), 'client-change-at-shared-resource')) ||
    (retrying && root === retrying.caller && placedAtRoot('retries', retryWords(retrying), 'retries-amplify')) ||
    (unbacked && root === unbacked.caller && placedAtRoot('retries', unbackedRetryWords(unbacked), 'retries-amplify')) ||
    (addressHolder && root === addressHolder.holder && placedAtRoot('IP addresses', addressHolderWords(addressHolder), 'addresses-held-by-co-tenant')) ||
    (routed && placedAtRoot('routed load', routedLoadWords(routed), 'load-routed-by-change')) ||
    (flood && root === flood.origin && placedAtRoot('flood', floodWords(flood, flooded), 'flood-from-upstream')) ||
    (runLoad && root === runLoad.client && placedAtRoot('runs', runLoadWords(runLoad), 'load-follows-client-runs')) ||
    (badGateway && root === badGateway.target && placedAtRoot('bad gateway', badGatewayWords(badGateway), 'bad-gateway-at-target')) ||
    (eager && root === eager.queue && placedAtRoot('redrive', eagerRedriveWords(eager), 'eager-redrive')) ||
    (timedOut && root === timedOut.backend && placedAtRoot('timeout', timedOutIntegrationWords(timedOut), 'integration-timed-out')) ||
    (oversized && root === oversized.source && placedAtRoot('payload size', oversizedPayloadWords(oversized), 'payload-outgrew-limit')) ||
    (resizedHosts && root === resizedHosts.hosts && placedAtRoot('placement', resizedHostsWords(resizedHosts), 'hosts-resized')) ||
    (rotationAtRoot && placedAtRoot('credentials', failedRotationWords(rotationAtRoot), 'rotation-failed')) ||
    (missingGrant && root === missingGrant.resource && placedAtRoot('access denied', missingGrantWords(missingGrant), 'grant-missing-at-resource')) ||
    (unhealthy && (root === unhealthy.target || (root === unhealthy.balancer && unhealthy.change?.service === root)) && placedAtRoot('failed health checks', `${unhealthyTargetsWords(unhealthy)}${whyChecksFail}`, 'targets-fail-health-checks')) ||
    (repointed && placedAtRoot('wrong endpoint', repointedEndpointWords(repointed), 'mechanism-wrong-endpoint')) ||
    (changedRecord && placedAtRoot('DNS record', changedRecordWords(changedRecord), 'record-points-elsewhere')) ||
    (heldOn && placedAtRoot(heldOn.held, heldMechanisms[heldOn.held].words(board, root, heldOn.resource), heldMechanisms[heldOn.held].principle)) ||
    (ceiling && placedAtRoot('scaling ceiling', scalingCeilingWords(ceiling), 'capacity-ceiling-reached')) ||
    (loadedAs && !loadedAs.restatesChange && loadedAs) ||
    // A writer whose own evidence names no mechanism but its change is seen through what its reader cannot read.
    (writer && unreadFailure && root === writer.service && (!ownMechanism || ownMechanism.restatesChange) && placedAtRoot('bad data', unreadableWords(root, reader, unreadFailure), 'bad-data-writer')) ||
    overloadedThrottle(ownMechanism);
  // A client refused with the others by a database whose connections it took, not by load of its own, is holding them.
  // A change at the client restates itself as the mechanism; the database's own account of what ran out says how the change took it.
  const loadedSignals = signals.filter((signal) => signal.service === loaded);
  const connectionsRanOut = found?.label === 'connections' || ((found === undefined || found.restatesChange === true) && labelsAt(loadedSignals).includes('connections'));
  // A proxy that reports its clients' sessions pinned holds its connections for them: the client's sessions pin them, it leaks none.
  const pinned = loaded !== root && labelsAt(loadedSignals).includes('pinning') ? pinnedSessionsWords(root, loaded) : undefined;
  const leaked = pinned ? undefined : connectionsRanOut && loaded !== root && !overload ? heldConnectionsWords(root, loaded, loadedSignals) : undefined;
  const mechanism = pinned
    ? placedAtRoot('pinning', pinned, 'mechanism-connections')
    : leaked
      ? found?.label === 'connections'
        ? { ...found, words: leaked }
        : placedAtRoot('connections', leaked, 'mechanism-connections')
      : found;
  applied.push(category.principle, ...(mechanism ? [mechanism.principle] : []));
  const callerOfRoot = chain.length > 1 ? chain.at(-2) : callersOf(board, root)[0];
  const others = anomalies
    .filter((anomaly) => anomaly.service !== root && anomaly.service !== heldStale?.dependency)
    .sort((a, b) => a.onset - b.onset)
    .map(({ service, onset }) => ({ service, onset }));
  // Trouble reaches a service through its calls (to the root or to a link between it and the root), or through a resource it shares with the root that is in trouble too.
  const inTrouble = new Set([...chain, ...anomalies.map((anomaly) => anomaly.service)]);
  const mapped = new Set(services.map((service) => service.name));
  const roots = calleesOf(services, root);
  const linkedToRoot = (service: string): boolean => {
    if (!mapped.has(service) || !mapped.has(root) || chain.includes(service)) return true;
    const theirs = calleesOf(services, service);
    // Data the root wrote wrong reaches whoever reads it, however far along its way.
    const readsWhatRootWrote = shifted !== undefined && dataSourcesOf(board, service).includes(root);
    return readsWhatRootWrote || theirs.has(root) || roots.has(service) || [...theirs].some((callee) => chain.includes(callee) || (roots.has(callee) && inTrouble.has(callee)));
  };
  return {
    verdict: 'incident',
    determined: determined || mechanism !== undefined || suspectChange !== undefined,
    symptom,
    root,
    category: category.category,
    mechanism,
    signals,
    current,
    rootSignals,
    rootOnset,
    chain,
    candidates: [...new Set([...chain].reverse().concat(ranked.map((candidate) => candidate.service)))],
    affected: others.filter((anomaly) => linkedToRoot(anomaly.service)),
    unrelated: others.filter((anomaly) => !linkedToRoot(anomaly.service)),
    suspectChange,
    callerOfRoot,
    ...(heldStale ? { staleView: heldStale } : {}),
    ...(repointed ? { repointed } : {}),
    ...(rotationAtRoot ? { failedRotation: rotationAtRoot } : {}),
    ...(missingGrant && root === missingGrant.resource ? { missingGrant } : {}),
    ...(oversized && root === oversized.source ? { oversized } : {}),
    ...(heldVisibility ? { outlastedVisibility: heldVisibility } : {}),
    ...(routed ? { routedLoad: routed } : {}),
    ...(shifted ? { shiftedValue: shifted } : {}),
    ...(keptOld && root === keptOld.writer ? { keptOld } : {}),
    ...(addressHolder && root === addressHolder.holder ? { addressHolder } : {}),
    ...(ceiling && mechanism?.label === 'scaling ceiling' ? { scalingCeiling: ceiling } : {}),
    overloads: overload && !sharedQuotaWith ? loaded : undefined,
    starves: overload ? sharedQuotaWith : undefined,
    ...(heldOn ? { holdsOn: heldOn.resource } : {}),
    alternativeProvider:
      kindOf(board, root) === 'external' && (callerOfRoot === undefined ? [] : dependenciesOf(board, callerOfRoot)).some((name) => name !== root && kindOf(board, name) === 'external'),
    alreadyRestarting: rootSignals.some((signal) => restartWords.test(signal.text)),
    unexplainedAlerts,
    unexplainedHarm,
    soleCandidate: ranked.length === 1,
    principles: [...new Set(applied)],
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
  if (health.harm.length > 0) return incidentFrom(board, signals, faults.filter((signal) => signal.ongoing), symptom, true, { unexplainedAlerts: health.unexplained, unexplainedHarm: health.harm });
  if (health.healthy) {
    const transients = signals.filter((signal) => signal.kind === 'transient' || (isFault(signal) && !signal.ongoing));
    return { verdict: 'healthy', symptom, signals, explained: health.explained, transients };
  }
  // Unexplained alarms or errors: the alarms themselves and every error near them are the evidence.
  const alarmed = new Set([...health.unexplained.flatMap((alert) => (alert.service ? [alert.service] : [])), ...health.errorLines.map((line) => line.service)]);
  const near = new Set([...alarmed].flatMap((service) => [service, ...dependenciesOf(board, service)]));
  const raw = rawErrorSignals(board, near);
  const alarmSignals = signals.filter((signal) => signal.kind === 'alarm' && alarmed.has(signal.service)).map((signal) => ({ ...signal, kind: 'errors' as const, substantial: true }));
  const weak = [...faults.filter((signal) => near.has(signal.service)), ...raw, ...alarmSignals];
  if (weak.length === 0) return { verdict: 'no-evidence', symptom, signals };
  const withRaw = [...signals, ...raw];
  const inference = incidentFrom(board, withRaw, weak, symptom && alarmed.has(symptom) ? symptom : [...alarmed][0], false, { unexplainedAlerts: health.unexplained, unexplainedHarm: [] });
  const labelled = labelsAt(inference.rootSignals).length > 0;
  // A value written wrong, or old values written in place of fresh ones, is a cause found, though it fails nothing and names no mechanism label.
  return { ...inference, determined: labelled || inference.suspectChange !== undefined || inference.shiftedValue !== undefined || inference.keptOld !== undefined, principles: ['unexplained-alert-is-incident', ...inference.principles] };
};
