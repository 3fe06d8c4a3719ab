import type { RootCauseCategory } from '../domain/vocabulary.ts';
import { categoryOfChange, causesIn } from './cause-signals.ts';
import { failureKindsIn } from './change-effects.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { capacityCutAt } from './lowered-setting.ts';
import { kindOf } from './service-map.ts';
import type { Signal } from './signals.ts';

/**
 * The category follows from the mechanism the evidence shows, not from where the fault shows and
 * not from a default: an expired certificate is `certificate` even behind a dependency, a capacity
 * someone cut is `config` even though the symptom is load, and where nothing names a cause the
 * category is `none` (cause undetermined), never a guess such as "infrastructure".
 */

/** Categories whose evidence names the mechanism outright, whoever shows it. */
const decisiveCategories = new Set<RootCauseCategory>(['certificate', 'permissions', 'resource-exhaustion']);

/** A measure of how full a finite resource is (storage, memory, connections, CPU): an alarm or a rise on it is exhaustion. */
const saturationMeasure = /disk|storage|volume|memory|heap|swap|connections|pool|cpu|utili[sz]ation|inode|file.?descriptors/i;
const risingOrAlarmed = (signal: Signal): boolean =>
  signal.kind === 'alarm' || ((signal.kind === 'metric' || signal.kind === 'trend') && /rising|went up|falling steadily/.test(signal.description));

export interface CategoryInputs {
  board: EvidenceBoard;
  root: string;
  rootSignals: readonly Signal[];
  symptom: string | undefined;
  rootOnset: number;
  /** The change found to start the trouble, if any. */
  change?: Change;
  /** The root was found as the writer of records its readers cannot read. */
  wroteBadData: boolean;
  /** The root was found by the load it put on a shared resource. */
  overloads: boolean;
}

/** What the evidence at the root says, by vote (errors and metrics count double; "config" is a weak word). */
const votedCategory = (rootSignals: readonly Signal[]): RootCauseCategory | undefined => {
  const votes = new Map<RootCauseCategory, number>();
  for (const signal of rootSignals) {
    const weight = signal.kind === 'errors' || signal.kind === 'metric' ? 2 : 1;
    for (const hit of causesIn(signal.text)) votes.set(hit.category, (votes.get(hit.category) ?? 0) + weight * (hit.category === 'config' ? 0.5 : 1));
  }
  return [...votes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
};

/** What the evidence at the root itself shows, when no change explains the trouble. */
const evidenceCategory = ({ board, root, rootSignals, symptom }: CategoryInputs, voted: RootCauseCategory | undefined): RootCauseCategory => {
  if (kindOf(board, root) === 'external') return voted && decisiveCategories.has(voted) ? voted : 'external';
  if (voted) return voted;
  // A refusal an error names only by its HTTP status (401, 403) is still a refused identity.
  const refused = failureKindsIn(rootSignals.filter((signal) => signal.substantial));
  if (refused.has('credentials') || refused.has('access denied')) return 'permissions';
  if (rootSignals.some((signal) => signal.kind === 'demand' && signal.substantial)) return 'traffic';
  if (rootSignals.some((signal) => risingOrAlarmed(signal) && saturationMeasure.test(signal.text))) return 'resource-exhaustion';
  // A root that is not where the symptom shows fails its callers; with nothing more, that is all the evidence says.
  return root !== symptom ? 'dependency' : 'none';
};

/** The category the evidence supports: how the root was found, a capacity cut, the change, then what the root's evidence names. */
export const categoryOf = (inputs: CategoryInputs): RootCauseCategory => {
  const { board, root, rootSignals, rootOnset, change, wroteBadData, overloads } = inputs;
  const voted = votedCategory(rootSignals);
  const shown = wroteBadData
    ? 'data'
    : capacityCutAt(board, root, rootOnset)
      ? 'config'
      : overloads && voted === undefined
        ? 'traffic'
        : evidenceCategory(inputs, voted);
  const changeCategory = change ? categoryOfChange(change.kind) : undefined;
  // A change explains the trouble unless the evidence names a mechanism the change cannot be (an expired certificate).
  return changeCategory && !(shown === 'certificate' && changeCategory !== 'certificate') ? changeCategory : shown;
};
