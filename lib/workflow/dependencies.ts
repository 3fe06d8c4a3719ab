import type { MaskingOptions } from '../masking/index.ts';
import type { InvestigationBudget } from './budget.ts';
import type { ModelPort } from '../model/port.ts';
import type { ApprovalStore } from '../store/approval-store.ts';
import type { Notifier } from '../notify/port.ts';
import type { InvestigationStore } from '../store/port.ts';
import type { ToolSource } from '../tools/source.ts';
import type { JoinedTriggerReader } from '../triggers/ledger.ts';
import type { LifecyclePublisher } from '../triggers/lifecycle.ts';

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
  /** Tool calls run per model turn (default 16); the rest are answered "not run" so the model can ask again. */
  maxToolCallsPerTurn?: number;
  /** Approval records; without them a call that needs approval fails its investigation instead of running. */
  approvals?: ApprovalStore;
  /** Re-firings and related alarms that joined the investigation; the model sees them on its next turn. */
  joinedTriggers?: JoinedTriggerReader;
  /** The lifecycle event bus: `approval.requested` goes there when a decision is waiting. */
  lifecycle?: LifecyclePublisher;
  clock?: () => Date;
}

export const now = (dependencies: Pick<WorkflowDependencies, 'clock'>): Date => (dependencies.clock ?? (() => new Date()))();

type Core = Pick<WorkflowDependencies, 'store' | 'clock' | 'masking'>;

/**
 * What each step needs, and no more: a Lambda builds only its own step's ports, so a step that
 * never calls the model neither builds it nor reads its secret.
 */
export interface StepDependencies {
  'start-investigation': Core & { model: Pick<ModelPort, 'name'> };
  plan: Core & Pick<WorkflowDependencies, 'tools'>;
  'call-model': Core & Pick<WorkflowDependencies, 'model' | 'budget' | 'joinedTriggers'>;
  'run-tools': Core & Pick<WorkflowDependencies, 'tools' | 'toolResultTokens' | 'maxToolCallsPerTurn'>;
  'request-approval': Core & Pick<WorkflowDependencies, 'tools' | 'approvals'> & Partial<Pick<WorkflowDependencies, 'notifier' | 'lifecycle'>>;
  'resolve-approval': Core & Pick<WorkflowDependencies, 'tools' | 'approvals' | 'toolResultTokens'>;
  'write-finding': Core;
  publish: Core & Pick<WorkflowDependencies, 'notifier'>;
  'record-failure': Core;
}
