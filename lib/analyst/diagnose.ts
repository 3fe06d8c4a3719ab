import type { FindingDraft } from '../domain/finding.ts';
import { alertsOf, type Alert } from './alerts.ts';
import type { RootCauseCategory } from '../domain/vocabulary.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { inferCause, type CauseInference } from './infer-cause.ts';
import { reasoningLine, type Principle } from './principles.ts';
import type { Signal } from './signals.ts';
import { writeFinding } from './write-finding.ts';

export { symptomServiceOf } from './infer-cause.ts';

export interface Diagnosis {
  incident: boolean;
  symptom?: string;
  root?: string;
  category: RootCauseCategory;
  signals: Signal[];
  rootSignals: Signal[];
  suspectChange?: Change;
  candidates: string[];
  /**
   * Services whose full logs can confirm or overturn the verdict: those that serve the traffic of
   * an alerting resource that keeps no logs of its own (a load balancer, a queue, a topic, a table).
   */
  servingAlerted: string[];
  /** Alerts that nothing benign explains yet: what a look at earlier days might explain as recurring. */
  unexplainedAlerts: Alert[];
  /** Faults that make it an incident with nothing benign to explain them yet: a look at earlier days may show them recurring. */
  unexplainedHarm: Signal[];
  inference: CauseInference;
  /** The principles that shaped this diagnosis (principles.ts): only those whose result it uses. */
  principles: Principle[];
  draft: FindingDraft;
}

/**
 * Where to look next when no cause stands out: every service that misbehaved at all, even briefly
 * or below the bar of an incident, strongest first.
 */
const troubledServices = (signals: readonly Signal[]): string[] =>
  [...new Set([...signals].filter((signal) => signal.kind !== 'alarm' && signal.kind !== 'demand').sort((a, b) => b.strength - a.strength).map((signal) => signal.service))];

/** Kinds of resource that pass traffic or hold data without application logs of their own. */
const loglessKinds = new Set(['elb', 'apigateway', 'cloudfront', 'sqs', 'sns', 's3', 'dynamodb', 'kinesis', 'other']);

const servingAlerted = (board: EvidenceBoard, symptom: string | undefined): string[] => {
  const services = board.services ?? [];
  const alerted = new Set([symptom, ...board.alarms.filter((alarm) => alarm.state === 'ALARM').map((alarm) => alarm.service)]);
  return [...alerted].flatMap((name) => {
    const node = services.find((candidate) => candidate.name === name);
    if (!node || !loglessKinds.has(node.kind ?? '') || board.logs.some((line) => line.service === name)) return [];
    const callers = services.filter((candidate) => candidate.dependsOn.includes(node.name)).map((candidate) => candidate.name);
    return [...node.dependsOn, ...callers].filter((neighbour) => !loglessKinds.has(services.find((candidate) => candidate.name === neighbour)?.kind ?? ''));
  });
};

/** The finding's summary ends with the principles it rests on, in plain words. */
const withReasoning = (draft: FindingDraft, applied: readonly Principle[]): FindingDraft => {
  const line = reasoningLine(applied);
  return line ? { ...draft, rootCause: { ...draft.rootCause, summary: `${draft.rootCause.summary} ${line}` } } : draft;
};

/** The cause inferred from the board, and the finding written from it. */
export const diagnose = (board: EvidenceBoard): Diagnosis => {
  const inference = inferCause(board);
  const { draft: written, principles } = writeFinding(board, inference);
  const draft = withReasoning(written, principles);
  const incident = inference.verdict === 'incident';
  return {
    incident: inference.verdict !== 'healthy',
    symptom: inference.symptom,
    root: incident ? inference.root : undefined,
    category: incident ? inference.category : 'none',
    signals: inference.signals,
    rootSignals: incident ? inference.rootSignals : [],
    suspectChange: incident ? inference.suspectChange : undefined,
    candidates: incident ? inference.candidates : inference.verdict === 'no-evidence' ? troubledServices(inference.signals) : [],
    servingAlerted: [...new Set(servingAlerted(board, inference.symptom))],
    unexplainedAlerts: inference.verdict === 'incident' ? inference.unexplainedAlerts : inference.verdict === 'no-evidence' ? alertsOf(board, inference.symptom) : [],
    unexplainedHarm: incident ? inference.unexplainedHarm : [],
    inference,
    principles,
    draft,
  };
};
