import type { FindingDraft } from '../domain/finding.ts';
import { alertsOf, type Alert } from './alerts.ts';
import { changeNotesOf } from './change-notes.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import type { CauseInference, HealthyVerdict, IncidentCause } from './infer-cause.ts';
import { circumstancesTraced } from './mechanism.ts';
import type { Principle } from './principles.ts';
import { quoteMessage } from '../text/quote.ts';
import { remediationInputsOf, remediationTraced, withRunbookStep } from './remediation-plan.ts';
import { laterFiringOf, scheduleWrittenBy } from './schedule-expression.ts';
import { kindOf } from './service-map.ts';
import { iso, type Signal } from './signals.ts';

/**
 * Writes the finding for an inferred cause: the summary in plain words, the evidence it rests on,
 * the timeline, the impact and the remediation. Decides nothing about the cause itself.
 */

/** What account-wide quota two co-tenants share: for functions, the concurrency every function without a reservation of its own draws on. */
const sharedQuotaWords = (board: EvidenceBoard, starved: string): string =>
  kindOf(board, starved) === 'lambda' ? "the account's concurrency (the unreserved pool of concurrent executions)" : 'the account quota';

/** A finding's draft and the principles that shaped it (principles.ts): only those whose result it uses. */
export interface WrittenFinding {
  draft: FindingDraft;
  principles: Principle[];
}

/** How long before the root's onset an announced change is still context for it. */
const CONTEXT_WINDOW_MS = 2 * 60 * 60_000;

const firstOf = (signals: readonly Signal[], kind: Signal['kind']): Signal | undefined => signals.filter((signal) => signal.kind === kind).sort((a, b) => a.at - b.at)[0];

const counted = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

/** What the investigation looked at, so a reader knows what "undetermined" rests on. */
const checked = (board: EvidenceBoard): string => {
  const sources = [
    board.alarms.length > 0 && counted(board.alarms.length, 'alarm', 'alarms'),
    board.logs.length > 0 && counted(board.logs.length, 'log line', 'log lines'),
    board.series.length > 0 && counted(board.series.length, 'metric series', 'metric series'),
    board.changes.length > 0 && counted(board.changes.length, 'recent change', 'recent changes'),
    board.traces.length > 0 && 'traces',
  ].filter(Boolean);
  return sources.length > 0 ? sources.join(', ') : 'no data source returned anything';
};

/**
 * The impact: each affected service once. A third party is not "failing" when only the calls to it
 * fail; it is named as the dependency the calls go to.
 */
const impactOf = (board: EvidenceBoard, cause: IncidentCause): string => {
  // The service an alert or a person named is affected only when the evidence shows it: a third party
  // mentioned in a question ("higher than the payout report") is not failing for being named.
  const symptomShows = cause.symptom !== undefined && (kindOf(board, cause.symptom) !== 'external' || cause.current.some((signal) => signal.service === cause.symptom));
  const services = [...new Set([symptomShows ? cause.symptom : undefined, ...cause.affected.map((item) => item.service)].filter((service): service is string => !!service && service !== cause.root))];
  const ours = services.filter((service) => kindOf(board, service) !== 'external');
  const theirs = services.filter((service) => kindOf(board, service) === 'external');
  const parts = [
    ours.length > 0 ? `Affected: ${ours.join(', ')}.` : `Affected: ${cause.root}.`,
    theirs.length > 0 && `Calls to ${theirs.join(', ')} fail.`,
  ].filter(Boolean);
  return parts.join(' ');
};

const alertWords = (alert: Alert): string => (alert.service && !alert.name.includes(alert.service) ? `${alert.name} (${alert.service})` : alert.name);

/** The first affected services are described by what they show; the rest are only named. */
const SYMPTOMS_DESCRIBED = 2;

/** What an affected service shows most clearly, in its own words: a substantial metric move, or its errors. */
const symptomAt = (cause: IncidentCause, service: string): string => {
  // Traces and mentions speak of the service from its caller's side; its own errors and metrics say what it shows.
  const own = cause.current
    .filter((signal) => signal.service === service && signal.kind !== 'alarm' && signal.kind !== 'mentioned' && signal.kind !== 'trace')
    .sort((a, b) => Number(b.substantial) - Number(a.substantial) || Number(b.kind === 'metric') - Number(a.kind === 'metric') || b.strength - a.strength);
  const first = own[0];
  return first ? `: ${first.description.replace(` at ${service}`, '')}` : '';
};

const demandWords = (demand: Signal): string => `${demand.substantial ? 'Demand more than doubled' : 'Requests rose'}: ${demand.description}.`;

/**
 * An incident's finding rests on the principles that placed the root and named its category and
 * mechanism, those whose words the summary carries, and those that chose the remediation.
 */
const incidentFinding = (board: EvidenceBoard, cause: IncidentCause): WrittenFinding => {
  const { root, category, mechanism, suspectChange, rootSignals, affected } = cause;
  // A cause whose category nothing supports is not established, whatever else was found.
  const determined = cause.determined && category !== 'none';
  const firstError = firstOf(rootSignals, 'errors') ?? firstOf(rootSignals, 'mentioned');
  const firstMetric = firstOf(rootSignals, 'metric');
  const demand = firstOf(rootSignals, 'demand');
  const drifts = rootSignals.filter((signal) => signal.kind === 'trend').slice(0, 3);
  const context = board.changes.filter((change) => change.kind === 'other' && change.at <= cause.rootOnset && cause.rootOnset - change.at <= CONTEXT_WINDOW_MS);
  const alerts = cause.unexplainedAlerts.slice(0, 3);
  // A third party is not "failing" when only our calls to it fail.
  const ours = affected.filter((item) => kindOf(board, item.service) !== 'external');
  const theirs = affected.filter((item) => kindOf(board, item.service) === 'external');
  const circumstances = circumstancesTraced(board, cause);
  const suspectNotes = suspectChange ? changeNotesOf(suspectChange) : [];
  const summary = [
    determined ? `${root} is where the fault starts (${category}).` : `Cause undetermined; the best-supported origin is ${root}.`,
    cause.overloads && `${root} started just before the load on ${cause.overloads} rose: its work is that load, and the other clients of ${cause.overloads} are starved${symptomAt(cause, cause.overloads)}.`,
    cause.starves && `${root}'s use of ${sharedQuotaWords(board, cause.starves)} it shares with ${cause.starves} rose just before ${cause.starves} was throttled: ${root} took the shared capacity, and ${cause.starves} is starved though its own demand did not surge.`,
    // A mechanism read from the change alone would only repeat the change sentence below.
    !mechanism?.restatesChange && mechanism?.words,
    ...circumstances.map(({ words }) => words),
    suspectChange && `${suspectChange.kind === 'other' ? 'A' : /^[aeiou]/i.test(suspectChange.kind) ? `An ${suspectChange.kind}` : `A ${suspectChange.kind}`} change to ${suspectChange.service} at ${iso(suspectChange.at)} ("${quoteMessage(suspectChange.summary)}") ${changeTiming(cause.principles, suspectChange)}.`,
    suspectNotes.length > 0 && `What it changed, in its own notes: ${suspectNotes.map((note) => `"${quoteMessage(note)}"`).join('; ')}.`,
    firstError && `First errors: ${firstError.description}.`,
    firstMetric && `${firstMetric.description}.`,
    demand && demandWords(demand),
    drifts.length > 0 && `Building up at the same time: ${drifts.map((signal) => signal.description).join('; ')}.`,
    (category === 'traffic' || demand) && context.length > 0 && `Changes just before the load rose: ${context.map((change) => `${change.service} at ${iso(change.at)} ("${quoteMessage(change.summary)}")`).join('; ')}.`,
    ours.length > 0 && `Then ${ours.map((item, index) => `${item.service} (from ${iso(item.onset)}${index < SYMPTOMS_DESCRIBED ? symptomAt(cause, item.service) : ''})`).join(', ')} failed as a consequence.`,
    theirs.length > 0 && `Calls to ${theirs.map((item) => item.service).join(', ')} fail as a consequence.`,
    cause.unrelated.length > 0 &&
      `Separately, ${cause.unrelated.map((item) => `${item.service} (from ${iso(item.onset)}${symptomAt(cause, item.service)})`).join(', ')} ${cause.unrelated.length > 1 ? 'are' : 'is'} in trouble with no calls to or from ${root}: look at ${cause.unrelated.length > 1 ? 'them on their' : 'it on its'} own.`,
    !determined && alerts.length > 0 && `Nothing in the evidence explains ${alerts.map(alertWords).join(', ')}.`,
    !determined && `Checked: ${checked(board)}.`,
  ].filter(Boolean);

  const runbook = board.runbooks.filter((candidate) => candidate.service === undefined || candidate.service === root).sort((a, b) => (b.score ?? 0) - (a.score ?? 0))[0];
  const traced = remediationTraced(remediationInputsOf(board, cause));
  const plan = withRunbookStep(traced.steps, runbook, root);
  const fromRunbook = plan.length > traced.steps.length;
  const remediation = determined ? plan : [...plan, { action: 'escalate' as const, target: root, detail: `The cause is not established: escalate to the owners of ${root} with the evidence above.` }];

  const cited = [
    ...(cause.shiftedValue ? [{ ref: cause.shiftedValue.evidence.ref, summary: `${cause.shiftedValue.origin} wrote: ${quoteMessage(cause.shiftedValue.evidence.said)}` }] : []),
    ...(suspectChange ? [{ ref: suspectChange.ref, summary: `${suspectChange.kind} of ${suspectChange.service} at ${iso(suspectChange.at)}: ${quoteMessage(suspectChange.summary)}` }] : []),
    ...rootSignals.filter((signal) => signal.kind !== 'transient').sort((a, b) => b.strength - a.strength).slice(0, 4).map((signal) => ({ ref: signal.ref, summary: signal.description })),
    ...affected.slice(0, 3).flatMap((item) => {
      const first = cause.current.filter((signal) => signal.service === item.service).sort((a, b) => a.at - b.at)[0];
      return first ? [{ ref: first.ref, summary: `symptom: ${first.description}` }] : [];
    }),
    ...(runbook ? [{ ref: runbook.ref, summary: `runbook "${runbook.title}"` }] : []),
    ...(!determined && board.alarmsRef ? [{ ref: board.alarmsRef, summary: 'current alarm states' }] : []),
  ];
  const evidence = cited.filter((item, index) => cited.findIndex((other) => other.ref === item.ref && other.summary === item.summary) === index);

  const timeline = [
    ...(suspectChange ? [{ at: iso(suspectChange.at), event: `${suspectChange.kind} of ${suspectChange.service}: ${quoteMessage(suspectChange.summary)}` }] : []),
    ...(Number.isFinite(cause.rootOnset) ? [{ at: iso(cause.rootOnset), event: `${root} starts failing` }] : []),
    ...affected.slice(0, 5).filter((item) => Number.isFinite(item.onset)).map((item) => ({ at: iso(item.onset), event: `${item.service} shows symptoms` })),
  ];

  const confidence = determined
    ? Math.min(0.95, 0.45 + (suspectChange ? 0.2 : 0) + (mechanism ? 0.15 : 0) + (affected.length > 0 ? 0.1 : 0) + (cause.soleCandidate ? 0.05 : 0))
    : 0.3;

  const draft: FindingDraft = {
    incident: true,
    rootCause: { service: root, category, summary: summary.join(' ') },
    confidence,
    evidence,
    remediation,
    timeline,
    impact: impactOf(board, cause),
    followUps: [
      `Confirm recovery of ${root} on the signals cited above after the remediation.`,
      suspectChange ? `Review why the ${suspectChange.kind} of ${suspectChange.service} was not caught before production.` : `Add an alarm on the earliest signal at ${root}.`,
    ],
  };
  const principles: Principle[] = [
    ...cause.principles,
    ...circumstances.flatMap(({ principles: applied }) => applied),
    ...traced.principles,
    ...(fromRunbook ? (['remedy-runbook-step'] as const) : []),
    ...(determined ? [] : (['unexplained-alert-is-incident'] as const)),
  ];
  return { draft, principles: [...new Set(principles)] };
};

/** Text that opens a sentence starts with a capital ("the report ..." after "No incident."). */
const asSentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

const healthyDraft = (board: EvidenceBoard, verdict: HealthyVerdict): FindingDraft => {
  const { transients, explained } = verdict;
  const reasons = explained.map((item) => `${item.subject} is explained: ${item.why}`);
  const passed = transients.slice(0, 3).map((signal) => signal.description);
  const summary = [
    'No incident.',
    ...(reasons.length > 0 ? [`${asSentence(reasons.join('; '))}.`] : []),
    ...(passed.length > 0 ? [`Trouble that has passed: ${passed.join('; ')}.`] : []),
    ...(reasons.length + passed.length === 0 ? ['No alert is open and no service shows errors, stopped work, failing dependencies or degraded metrics in the evidence.'] : []),
    `Checked: ${checked(board)}.`,
  ];
  const refs = [
    ...explained.flatMap((item) => (item.ref ? [{ ref: item.ref, summary: `explains ${item.subject}: ${item.why}` }] : [])),
    ...transients.map((signal) => ({ ref: signal.ref, summary: signal.description })),
    ...(board.alarmsRef ? [{ ref: board.alarmsRef, summary: 'current alarm states' }] : []),
  ];
  return {
    incident: false,
    rootCause: { service: verdict.symptom ?? transients[0]?.service ?? 'none', category: 'none', summary: summary.join(' ') },
    confidence: reasons.length + passed.length > 0 ? 0.7 : 0.6,
    evidence: refs.slice(0, 5),
    remediation: [],
    timeline: transients.slice(0, 5).map((signal) => ({ at: iso(signal.at), event: signal.description })),
    impact: 'None found.',
    followUps: transients.length > 0 ? ['Consider tuning the alarm (longer evaluation period or more datapoints to alarm) so brief spikes do not page.'] : [],
  };
};

/** How the change is tied to the trouble in time: just before it, before a long clean run ended, before the idle work next ran, or before what it governs happened. */
const changeTiming = (applied: readonly Principle[], change: Change): string => {
  const schedule = scheduleWrittenBy(change);
  const firing = laterFiringOf(change);
  if (schedule && firing !== undefined) return `wrote a schedule (${schedule}), and the trouble began when it next fired, at ${iso(firing)}`;
  return applied.includes('change-ended-clean-run')
    ? 'came before the trouble, and its failures, absent before it, began only after it'
    : applied.includes('change-shows-when-work-resumes')
      ? 'was made while the work it affects was idle, and the trouble began when that work next ran'
      : applied.includes('latent-setting')
        ? 'was made before the trouble and lay quiet until what it governs next happened'
        : 'came just before the trouble';
};

/**
 * With no evidence of a cause, the honest answer is "could not tell": say what alerted, what was
 * checked, and hand over to a human.
 */
const undeterminedDraft = (board: EvidenceBoard, symptom: string | undefined): FindingDraft => {
  const alerts = alertsOf(board, symptom);
  const target = symptom ?? alerts.find((alert) => alert.service)?.service ?? 'on-call';
  const nothingRead = board.logs.length === 0 && board.series.length === 0 && board.traces.length === 0 && board.alarms.length === 0;
  const summary = [
    'Cause undetermined:',
    alerts.length > 0 ? `nothing in the evidence explains ${alerts.map(alertWords).join(', ')}, and no service shows a fault that would cause it.` : 'the evidence shows no fault that would explain the alert.',
    nothingRead ? 'No logs, metrics, traces or alarms were available.' : `Checked: ${checked(board)}.`,
  ];
  return {
    incident: true,
    rootCause: { service: target, category: 'none', summary: summary.join(' ') },
    confidence: 0.1,
    evidence: board.alarmsRef ? [{ ref: board.alarmsRef, summary: 'current alarm states' }] : [],
    remediation: [{ action: 'escalate', target, detail: nothingRead ? 'Investigate by hand; connect data sources so the agent can see logs and metrics.' : 'Investigate by hand: the evidence the agent could read does not explain the alert.' }],
    timeline: [],
    impact: 'Unknown.',
    followUps: [nothingRead ? 'Connect log, metric and change sources to the agent.' : 'Add the signal that would have shown this failure (a metric or log the agent can read).'],
  };
};

export const writeFinding = (board: EvidenceBoard, inference: CauseInference): WrittenFinding => {
  switch (inference.verdict) {
    case 'incident':
      return incidentFinding(board, inference);
    case 'healthy':
      // A healthy verdict rests on what explains each alert.
      return { draft: healthyDraft(board, inference), principles: [...new Set(inference.explained.map((explanation) => explanation.principle))] };
    case 'no-evidence':
      return { draft: undeterminedDraft(board, inference.symptom), principles: alertsOf(board, inference.symptom).length > 0 ? ['unexplained-alert-is-incident'] : [] };
  }
};
