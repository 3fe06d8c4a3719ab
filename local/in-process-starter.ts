import type { InvestigationStarter } from '../lib/triggers/starter.ts';
import type { ExecutionInput } from '../lib/workflow/control.ts';
import type { WorkflowDependencies } from '../lib/workflow/dependencies.ts';
import { runWorkflowLocally, type LocalApprovalWaits } from './run-workflow.ts';

export interface InProcessStarterOptions {
  dependencies: WorkflowDependencies;
  maxIterations?: number;
  /** Where approval waits are answered (under serve: the API's POST /approvals/{id}). */
  approvals?: LocalApprovalWaits;
  log?: (line: string) => void;
  /** Called when an execution ends, any way; the local counterpart of the Step Functions status-change event. */
  onEnded: (investigationId: string) => Promise<unknown>;
}

/** Runs investigations on the local workflow in this process, in the background; stop aborts the run. */
export class InProcessStarter implements InvestigationStarter {
  private readonly runs = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(private readonly options: InProcessStarterOptions) {}

  async start(investigationId: string, input: ExecutionInput): Promise<void> {
    if (this.runs.has(investigationId)) return;
    const abort = new AbortController();
    const log = this.options.log ?? (() => undefined);
    const done = runWorkflowLocally({
      dependencies: this.options.dependencies,
      input,
      signal: abort.signal,
      ...(this.options.maxIterations === undefined ? {} : { maxIterations: this.options.maxIterations }),
      ...(this.options.approvals ? { approvals: this.options.approvals } : {}),
      onProgress: (line) => log(`investigation ${investigationId} ${line}`),
    })
      .then((execution) => log(`investigation ${investigationId} ${abort.signal.aborted ? 'stopped' : execution.status.toLowerCase()}${execution.error && !abort.signal.aborted ? `: ${execution.error}` : ''}`))
      .catch((error: unknown) => log(`investigation ${investigationId} crashed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(async () => {
        this.runs.delete(investigationId);
        await this.options.onEnded(investigationId).catch((error: unknown) => log(`after investigation ${investigationId}: ${error instanceof Error ? error.message : String(error)}`));
      });
    this.runs.set(investigationId, { abort, done });
  }

  async stop(investigationId: string): Promise<void> {
    this.runs.get(investigationId)?.abort.abort();
  }

  /** Resolves when every run has ended; `abort` stops them first. */
  async idle({ abort = false } = {}): Promise<void> {
    if (abort) for (const run of this.runs.values()) run.abort.abort();
    await Promise.all([...this.runs.values()].map((run) => run.done));
  }
}
