import { correlateChanges } from '../analysis/change-correlation.ts';
import { rankRootCandidates } from '../analysis/propagation.ts';
import type { FindingDraft } from '../domain/finding.ts';
import type { RemediationAction, RootCauseCategory } from '../domain/vocabulary.ts';
import { actionPatterns, categoryOfChange, causesIn } from './cause-signals.ts';
import type { Change, EvidenceBoard, ServiceNode } from './evidence-board.ts';
import { calleesOf, collectSignals, isFault, iso, type Signal } from './signals.ts';

/** Kinds of service that hold state or queue work: when saturated, usually a client drove them there. */
const sharedResourceKinds = new Set(['rds', 'dynamodb', 'sqs', 'sns', 's3', 'elasticache']);
/** How long before the trouble a change is still a suspect. */
const CHANGE_WINDOW_MS = 2 * 60 * 60_000;
/** A change this close before the trouble is a prime suspect. */
const CLOSE_CHANGE_MS = 45 * 60_000;
/** A caller's change this close before its dependency broke, at the same moment as the caller, explains the dependency. */
const TRIGGERING_CHANGE_MS = 15 * 60_000;

export interface Diagnosis {
  incident: boolean;
  symptom?: string;
  root?: string;
  category: RootCauseCategory;
  signals: Signal[];
  rootSignals: Signal[];
  suspectChange?: Change;
  candidates: string[];
  draft: FindingDraft;
}

/** The service the alert is about: an alarm named in the brief, else the longest service name in it. */
export const symptomServiceOf = (board: EvidenceBoard): string | undefined => {
  const brief = board.brief.toLowerCase();
  const alarm = board.alarms.filter((candidate) => brief.includes(candidate.name.toLowerCase())).sort((a, b) => b.name.length - a.name.length)[0];
  if (alarm) return alarm.service;
  const names = [...new Set([...(board.services ?? []).map((service) => service.name), ...board.alarms.map((candidate) => candidate.service)])];
  return names.filter((name) => brief.includes(name.toLowerCase())).sort((a, b) => b.length - a.length)[0];
};

const dependsOnMap = (services: readonly ServiceNode[]): Record<string, string[]> =>
  Object.fromEntries(services.map((service) => [service.name, service.dependsOn]));

const kindOf = (board: EvidenceBoard, service: string): string | undefined => board.services?.find((node) => node.name === service)?.kind;

const callersOf = (board: EvidenceBoard, service: string): string[] =>
  (board.services ?? []).filter((node) => node.dependsOn.includes(service)).map((node) => node.name);

const firstOnset = (signals: readonly Signal[]): number => Math.min(...signals.map((signal) => signal.at));

/** The change most likely to have started the trouble at `onset`, on one of `services`. */
const suspectChangeFor = (changes: readonly Change[], services: ReadonlySet<string>, onset: number): Change | undefined => {
  const suspects = changes.filter((change) => services.has(change.service) && categoryOfChange(change.kind) !== undefined);
  const best = correlateChanges(suspects.map((change) => ({ ...change, t: change.at })), onset, { windowMs: CHANGE_WINDOW_MS })[0];
  return best ? suspects.find((change) => change.at === best.t && change.service === best.service && change.summary === best.summary) : undefined;
};

/** Onsets this close count as simultaneous: a sampling period, plus clock skew. */
const SAME_TIME_MS = 2 * 60_000;

/**
 * Follows the failure down the call graph from where it shows: at each step, the dependency whose
 * failure best explains the current service's (named in its errors or traces, or failing no later
 * than it) is the next link. The last link is where the fault originates.
 */
const blameChain = (
  board: EvidenceBoard,
  current: readonly Signal[],
  start: string,
  onsetOf: (service: string) => number,
  visited: readonly string[] = [],
): string[] => {
  const chain = [start];
  for (;;) {
    const node = chain.at(-1)!;
    const callees = (board.services?.find((service) => service.name === node)?.dependsOn ?? []).filter(
      (callee) => !chain.includes(callee) && !visited.includes(callee),
    );
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
 * Which client drove a shared resource into the ground: one that misbehaved before the resource
 * did (its own faults start no later than the resource's), or failing that, one that changed just before.
 */
const clientToBlame = (
  board: EvidenceBoard,
  signals: readonly Signal[],
  resource: string,
  onsetOf: (service: string) => number,
): { service: string; change?: Change } | undefined => {
  const resourceOnset = onsetOf(resource);
  const clients = callersOf(board, resource);
  const earlyFaults = (client: string) =>
    signals.filter(
      (signal) => signal.service === client && signal.ongoing && signal.at <= resourceOnset + SAME_TIME_MS && (isFault(signal) || signal.kind === 'demand'),
    );
  // A client whose errors name another client as the source of its input is that client's victim.
  const namedByOtherClients = (client: string) => earlyFaults(client).filter((signal) => signal.kind === 'mentioned' && clients.includes(signal.from ?? ''));
  const early = clients
    .map((client) => ({
      client,
      named: namedByOtherClients(client).length > 0,
      strength: earlyFaults(client).reduce((sum, signal) => sum + signal.strength, 0),
    }))
    .filter(({ strength }) => strength >= 0.3)
    .sort((a, b) => Number(b.named) - Number(a.named) || b.strength - a.strength || a.client.localeCompare(b.client));
  if (early[0]) return { service: early[0].client, change: suspectChangeFor(board.changes, new Set([early[0].client]), resourceOnset) };
  const change = suspectChangeFor(board.changes, new Set(clients), resourceOnset);
  return change && resourceOnset - change.at <= CLOSE_CHANGE_MS ? { service: change.service, change } : undefined;
};

/** A category from what the evidence says about the root service itself. */
const categoryFromEvidence = (board: EvidenceBoard, root: string, rootSignals: readonly Signal[], symptom: string | undefined): RootCauseCategory => {
  if (kindOf(board, root) === 'external') return 'external';
  const votes = new Map<RootCauseCategory, number>();
  for (const signal of rootSignals) {
    const weight = signal.kind === 'errors' || signal.kind === 'metric' ? 2 : 1;
    for (const hit of causesIn(signal.text)) {
      votes.set(hit.category, (votes.get(hit.category) ?? 0) + weight * (hit.category === 'config' ? 0.5 : 1));
    }
  }
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  if (ranked[0]) return ranked[0][0];
  if (rootSignals.some((signal) => signal.kind === 'demand')) return 'traffic';
  return root !== symptom ? 'dependency' : 'infrastructure';
};

type Step = FindingDraft['remediation'][number];

/**
 * What a careful on-call engineer proposes first for a cause of this kind, most urgent first.
 * Undo a change if there is one; relieve the pressure, then fix; route around what we do not own.
 */
const remediationFor = (
  category: RootCauseCategory,
  root: string,
  labels: readonly string[],
  change: Change | undefined,
  callerOfRoot: string | undefined,
  alreadyRestarting: boolean,
  carrier: string | undefined,
): Step[] => {
  const step = (action: RemediationAction, target: string, detail: string): Step => ({ action, target, detail });
  const undo = change ? ` ("${change.summary}")` : '';
  switch (category) {
    case 'deploy':
      return [step('rollback', root, `Roll ${root} back to the version before the deploy${undo}.`)];
    case 'config':
    case 'permissions':
      return [step('revert-config', root, `Revert the ${category === 'permissions' ? 'permission' : 'configuration'} change on ${root}${undo}.`)];
    case 'certificate':
      return [step('renew-certificate', root, `Renew or replace the expired certificate of ${root}.`)];
    case 'network':
      return change ? [step('revert-config', root, `Revert the network change${undo}.`)] : [step('failover', root, `Move ${root}'s traffic to a healthy path or zone.`)];
    case 'infrastructure':
      return [step('failover', root, `Fail ${root} over away from the impaired infrastructure.`)];
    case 'traffic':
      return [step('scale', root, `Add capacity to ${root} for the surge.`)];
    case 'external': {
      const via = callerOfRoot ?? root;
      return [
        step(labels.includes('throttling') ? 'limit-traffic' : 'failover', via, labels.includes('throttling') ? `Slow ${via}'s calls to ${root} below its rate limit.` : `Fail ${via} over to a fallback for ${root}.`),
        step('escalate', root, `Open a case with the provider of ${root}.`),
      ];
    }
    case 'data': {
      const held = carrier ? [step('apply-fix', carrier, `Move the bad messages out of ${carrier} (to a dead-letter queue) so processing resumes.`)] : [];
      return change?.kind === 'deploy'
        ? [...held, step('rollback', root, `Roll back the release that writes bad data${undo}.`), step('apply-fix', root, 'Repair the affected records.')]
        : [...held, step('apply-fix', root, `Stop and repair the bad data produced by ${root}.`)];
    }
    case 'resource-exhaustion':
      if (labels.includes('disk')) return [step('scale', root, `Add storage to ${root} before it fills.`), step('apply-fix', root, 'Remove what keeps consuming the space.')];
      if (alreadyRestarting) return [step('scale', root, `Give ${root} headroom (memory or tasks) while the leak is fixed.`), step('apply-fix', root, 'Fix the leak.')];
      return [step('restart', root, `Restart ${root} to release what it holds.`), step('apply-fix', root, 'Fix the leak of connections, memory or threads.')];
    case 'dependency':
      return [step('escalate', root, `Escalate to the owners of ${root}.`)];
    case 'none':
      return [];
  }
};

/** Remediation actions named in a runbook's steps, in order. */
const runbookActions = (steps: readonly string[]): RemediationAction[] => {
  const actions: RemediationAction[] = [];
  for (const step of steps) {
    const match = actionPatterns.find(([, pattern]) => pattern.test(step));
    if (match && !actions.includes(match[0])) actions.push(match[0]);
  }
  return actions;
};

const quoteOf = (signals: readonly Signal[], kind: Signal['kind']): Signal | undefined =>
  signals.filter((signal) => signal.kind === kind).sort((a, b) => a.at - b.at)[0];

export const diagnose = (board: EvidenceBoard): Diagnosis => {
  const signals = collectSignals(board);
  const faults = signals.filter(isFault);
  const symptom = symptomServiceOf(board);
  const services = board.services ?? [];
  const ongoing = faults.filter((signal) => signal.ongoing && signal.substantial);

  if (board.logs.length === 0 && board.series.length === 0 && board.traces.length === 0 && board.alarms.length === 0) {
    return insufficientEvidence(symptom);
  }
  if (ongoing.length === 0) {
    return noIncident(board, signals, symptom);
  }

  const current = faults.filter((signal) => signal.ongoing);
  const onsetOf = (service: string): number => {
    const own = current.filter((signal) => signal.service === service);
    return own.length > 0 ? firstOnset(own) : Number.POSITIVE_INFINITY;
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

  // Which change explains the trouble: the root's own, a caller's that came right before both
  // broke together (a database rejecting the queries of a client that just deployed), or any link's
  // whose kind is what the errors complain about (AccessDenied after an IAM change). A provider's
  // infrastructure notice counts even when it was posted after the impact began.
  const evidenceCategories = new Set(current.filter((signal) => chain.includes(signal.service)).flatMap((signal) => causesIn(signal.text).map((hit) => hit.category)));
  const rootOnsetBefore = onsetOf(root);
  const infrastructureNotice = board.changes.find(
    (change) => change.kind === 'infrastructure' && chain.includes(change.service) && change.at >= rootOnsetBefore - CLOSE_CHANGE_MS,
  );
  let suspectChange: Change | undefined;
  if (infrastructureNotice) {
    root = infrastructureNotice.service;
    suspectChange = infrastructureNotice;
  } else {
    const explanations = chain.flatMap((link) => {
      const change = suspectChangeFor(board.changes, new Set([link]), rootOnsetBefore);
      if (!change) return [];
      const lead = rootOnsetBefore - change.at;
      const matchesEvidence = evidenceCategories.has(categoryOfChange(change.kind)!);
      const reactedTogether = onsetOf(link) <= rootOnsetBefore + SAME_TIME_MS && lead <= TRIGGERING_CHANGE_MS;
      if (link !== root && !reactedTogether && !(matchesEvidence && lead <= CLOSE_CHANGE_MS)) return [];
      return [{ link, change, weight: (matchesEvidence ? 2 : 0) + (1 - Math.max(lead, 0) / CHANGE_WINDOW_MS) + (link === root ? 0.5 : 0) }];
    });
    const best = explanations.sort((a, b) => b.weight - a.weight)[0];
    if (best) {
      root = best.link;
      suspectChange = best.change;
    }
  }

  // A saturated shared resource is usually the victim of one of its clients; and a client can
  // itself be held up by another dependency, so the chain goes on from it.
  if (!suspectChange && sharedResourceKinds.has(kindOf(board, root) ?? '')) {
    const culprit = clientToBlame(board, signals, root, onsetOf);
    if (culprit) {
      const onward = blameChain(board, current, culprit.service, onsetOf, chain);
      chain.push(...onward);
      root = onward.at(-1)!;
      suspectChange = root === culprit.service ? culprit.change : suspectChangeFor(board.changes, new Set([root]), onsetOf(root));
    }
  }

  const rootSignals = signals.filter((signal) => signal.service === root);
  const rootOnset = Number.isFinite(onsetOf(root)) ? onsetOf(root) : troubleStarts;
  const changeCategory = suspectChange ? categoryOfChange(suspectChange.kind) : undefined;
  const category: RootCauseCategory = changeCategory ?? categoryFromEvidence(board, root, rootSignals, symptom);
  const labels = rootSignals.flatMap((signal) => causesIn(signal.text).map((hit) => hit.label));

  const runbook = board.runbooks.filter((candidate) => candidate.service === undefined || candidate.service === root).sort((a, b) => (b.score ?? 0) - (a.score ?? 0))[0];
  const callerOfRoot = chain.length > 1 ? chain.at(-2) : callersOf(board, root)[0];
  const restarting = rootSignals.some((signal) => /exit code 137|OOMKilled|task .{0,60} stopped|container .{0,30}killed|CrashLoopBackOff|back-off restarting|was restarted/i.test(signal.text));
  const carrier = chain.find((link) => link !== root && ['sqs', 'sns', 'kinesis'].includes(kindOf(board, link) ?? ''));
  const remediation = remediationFor(category, root, labels, suspectChange, callerOfRoot, restarting, carrier);
  const extra = runbook ? runbookActions(runbook.steps).find((action) => !remediation.some((step) => step.action === action) && action !== 'escalate' && action !== 'none') : undefined;
  if (extra) remediation.push({ action: extra, target: root, detail: `From runbook "${runbook!.title}".` });

  const symptoms = anomalies.filter((anomaly) => anomaly.service !== root).sort((a, b) => a.onset - b.onset);
  const context = board.changes.filter((change) => change.kind === 'other' && change.at <= rootOnset && rootOnset - change.at <= CHANGE_WINDOW_MS);
  const firstError = quoteOf(rootSignals, 'errors') ?? quoteOf(rootSignals, 'mentioned');
  const firstMetric = quoteOf(rootSignals, 'metric');
  const demand = quoteOf(rootSignals, 'demand');
  const drifts = rootSignals.filter((signal) => signal.kind === 'trend').slice(0, 3);
  const summaryParts = [
    `${root} is where the fault starts (${category}).`,
    suspectChange && `A ${suspectChange.kind} change to ${suspectChange.service} at ${iso(suspectChange.at)} ("${suspectChange.summary}") came just before the trouble.`,
    firstError && `First errors: ${firstError.description}.`,
    firstMetric && `${firstMetric.description}.`,
    demand && `Demand surge: ${demand.description}.`,
    drifts.length > 0 && `Building up at the same time: ${drifts.map((signal) => signal.description).join('; ')}.`,
    category === 'traffic' && context.length > 0 && `Changes just before the surge: ${context.map((change) => `${change.service} at ${iso(change.at)} ("${change.summary}")`).join('; ')}.`,
    symptoms.length > 0 && `Then ${symptoms.map((anomaly) => `${anomaly.service} (from ${iso(anomaly.onset)})`).join(', ')} failed as a consequence.`,
    labels.length > 0 && `The evidence points at ${[...new Set(labels)].join(', ')}.`,
  ].filter(Boolean);

  const cited = [
    ...(suspectChange ? [{ ref: suspectChange.ref, summary: `${suspectChange.kind} of ${suspectChange.service} at ${iso(suspectChange.at)}: ${suspectChange.summary}` }] : []),
    ...rootSignals.filter((signal) => signal.kind !== 'transient').sort((a, b) => b.strength - a.strength).slice(0, 4).map((signal) => ({ ref: signal.ref, summary: signal.description })),
    ...symptoms.slice(0, 3).flatMap((anomaly) => {
      const first = current.filter((signal) => signal.service === anomaly.service).sort((a, b) => a.at - b.at)[0];
      return first ? [{ ref: first.ref, summary: `symptom: ${first.description}` }] : [];
    }),
    ...(runbook ? [{ ref: runbook.ref, summary: `runbook "${runbook.title}"` }] : []),
  ];
  const evidence = cited.filter((item, index) => cited.findIndex((other) => other.ref === item.ref && other.summary === item.summary) === index);

  const timeline = [
    ...(suspectChange ? [{ at: iso(suspectChange.at), event: `${suspectChange.kind} of ${suspectChange.service}: ${suspectChange.summary}` }] : []),
    { at: iso(rootOnset), event: `${root} starts failing` },
    ...symptoms.slice(0, 5).map((anomaly) => ({ at: iso(anomaly.onset), event: `${anomaly.service} shows symptoms` })),
  ];

  const confidence = Math.min(
    0.95,
    0.45 + (suspectChange ? 0.2 : 0) + (labels.length > 0 ? 0.15 : 0) + (symptoms.length > 0 ? 0.1 : 0) + (ranked.length === 1 ? 0.05 : 0),
  );

  return {
    incident: true,
    symptom,
    root,
    category,
    signals,
    rootSignals,
    suspectChange,
    candidates: [...new Set([...chain].reverse().concat(ranked.map((candidate) => candidate.service)))],
    draft: {
      incident: true,
      rootCause: { service: root, category, summary: summaryParts.join(' ') },
      confidence,
      evidence,
      remediation,
      timeline,
      impact: symptom ? `${symptom} is affected${symptoms.length > 0 ? `, along with ${symptoms.map((anomaly) => anomaly.service).join(', ')}` : ''}.` : '',
      followUps: [
        `Confirm recovery of ${root} on the signals cited above after the remediation.`,
        suspectChange ? `Review why the ${suspectChange.kind} of ${suspectChange.service} was not caught before production.` : `Add an alarm on the earliest signal at ${root}.`,
      ],
    },
  };
};

const noIncident = (board: EvidenceBoard, signals: Signal[], symptom: string | undefined): Diagnosis => {
  const transients = signals.filter((signal) => signal.kind === 'transient' || (isFault(signal) && !signal.ongoing));
  const service = symptom ?? transients[0]?.service ?? 'none';
  const summary =
    transients.length > 0
      ? `No ongoing incident: ${transients.slice(0, 3).map((signal) => signal.description).join('; ')}. Nothing is failing now.`
      : 'No incident: no service shows errors, failing dependencies or degraded metrics in the evidence.';
  const refs = [...transients.map((signal) => ({ ref: signal.ref, summary: signal.description })), ...(board.alarmsRef ? [{ ref: board.alarmsRef, summary: 'current alarm states' }] : [])];
  return {
    incident: false,
    symptom,
    category: 'none',
    signals,
    rootSignals: [],
    candidates: [],
    draft: {
      incident: false,
      rootCause: { service, category: 'none', summary },
      confidence: transients.length > 0 ? 0.7 : 0.6,
      evidence: refs.slice(0, 5),
      remediation: [],
      timeline: transients.slice(0, 5).map((signal) => ({ at: iso(signal.at), event: signal.description })),
      impact: 'None found.',
      followUps: transients.length > 0 ? ['Consider tuning the alarm (longer evaluation period or more datapoints to alarm) so brief spikes do not page.'] : [],
    },
  };
};

/** With nothing to look at, the honest answer is "could not tell": a human takes over. */
const insufficientEvidence = (symptom: string | undefined): Diagnosis => ({
  incident: true,
  symptom,
  category: 'none',
  signals: [],
  rootSignals: [],
  candidates: [],
  draft: {
    incident: true,
    rootCause: {
      service: symptom ?? 'unknown',
      category: 'none',
      summary: 'No logs, metrics, traces or alarms were available, so the cause could not be determined from evidence.',
    },
    confidence: 0.1,
    evidence: [],
    remediation: [{ action: 'escalate', target: symptom ?? 'on-call', detail: 'Investigate by hand; connect data sources so the agent can see logs and metrics.' }],
    timeline: [],
    impact: 'Unknown.',
    followUps: ['Connect log, metric and change sources to the agent.'],
  },
});
