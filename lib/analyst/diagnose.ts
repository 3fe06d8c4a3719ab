import type { FindingDraft } from '../domain/finding.ts';
import type { RootCauseCategory } from '../domain/vocabulary.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { inferCause, type CauseInference } from './infer-cause.ts';
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
  inference: CauseInference;
  draft: FindingDraft;
}

/** The cause inferred from the board, and the finding written from it. */
export const diagnose = (board: EvidenceBoard): Diagnosis => {
  const inference = inferCause(board);
  const draft = writeFinding(board, inference);
  const incident = inference.verdict === 'incident';
  return {
    incident: inference.verdict !== 'healthy',
    symptom: inference.symptom,
    root: incident ? inference.root : undefined,
    category: incident ? inference.category : 'none',
    signals: inference.signals,
    rootSignals: incident ? inference.rootSignals : [],
    suspectChange: incident ? inference.suspectChange : undefined,
    candidates: incident ? inference.candidates : [],
    inference,
    draft,
  };
};
