import type { MaskingOptions } from '../masking/index.ts';
import type { InvestigationBudget } from './budget.ts';
import type { ModelPort } from '../model/port.ts';
import type { Notifier } from '../notify/port.ts';
import type { InvestigationStore } from '../store/port.ts';
import type { ToolSource } from '../tools/source.ts';

/** What the workflow steps need from the outside world; AWS and local runs pass different adapters. */
export interface WorkflowDependencies {
  store: InvestigationStore;
  model: ModelPort;
  tools: ToolSource;
  notifier: Notifier;
  masking?: MaskingOptions;
  /** Caps per investigation; the loop ends with an incomplete finding when one is reached. */
  budget?: InvestigationBudget;
  /** Per-tool-result cap in tokens (default 10,000). */
  toolResultTokens?: number;
  clock?: () => Date;
}

export const now = (dependencies: WorkflowDependencies): Date => (dependencies.clock ?? (() => new Date()))();
