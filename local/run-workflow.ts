import { randomUUID } from 'node:crypto';
import { StateMachine } from 'aws-local-stepfunctions';
import { APPROVAL_WAIT_ERRORS } from '../cdk/investigation-workflow.ts';
import { buildLocalWorkflowDefinition } from '../cdk/local-definition.ts';
import type { ExecutionInput } from '../lib/workflow/control.ts';
import type { WorkflowDependencies } from '../lib/workflow/dependencies.ts';
import { createSteps } from '../lib/workflow/steps.ts';
import { installPromiseWithResolvers } from './promise-with-resolvers.ts';
import type { LocalTaskTokenWaits } from './task-token-waits.ts';

/** The local approval wait: where tokens wait, and who is told an approval was requested (a policy, a prompt, or nobody under serve). */
export interface LocalApprovalWaits {
  waits: LocalTaskTokenWaits;
  onRequested?: (approvalId: string) => void;
}

export interface LocalExecution {
  status: 'SUCCEEDED' | 'FAILED';
  output: unknown;
  error?: string;
}

export interface LocalRunOptions {
  dependencies: WorkflowDependencies;
  input: ExecutionInput;
  maxIterations?: number;
  /** One line per state entered, retried or failed. */
  onProgress?: (line: string) => void;
  /** Aborting stops the execution (as StopExecution does on AWS). */
  signal?: AbortSignal;
  /** How approval waits are answered; without it an approval state fails its investigation. */
  approvals?: LocalApprovalWaits;
  /** The approval state's timeout (default 30 minutes). */
  approvalTimeoutSeconds?: number;
}

const approvalPayload = (payload: unknown): Record<string, unknown> => {
  const inner = (payload as { Payload?: unknown } | undefined)?.Payload;
  if (!inner || typeof inner !== 'object') throw new Error('the approval state was invoked without its Payload');
  return inner as Record<string, unknown>;
};

/**
 * Runs the deployed workflow's ASL with aws-local-stepfunctions, each Lambda task overridden
 * by the same step code the Lambda handlers call, in process.
 */
export const runWorkflowLocally = async ({ dependencies, input, maxIterations, onProgress, signal, approvals, approvalTimeoutSeconds }: LocalRunOptions): Promise<LocalExecution> => {
  installPromiseWithResolvers();
  const { definition, stateSteps, waitStates } = buildLocalWorkflowDefinition({
    ...(maxIterations === undefined ? {} : { maxIterations }),
    ...(approvalTimeoutSeconds === undefined ? {} : { approvalTimeoutSeconds }),
  });
  const steps = createSteps(dependencies);
  // The Fail state's cause is generic; the error worth reporting is the step's own.
  let stepError: string | undefined;
  const taskResourceLocalHandlers = Object.fromEntries(
    Object.entries(stateSteps).map(([state, step]) => [
      state,
      async (payload: unknown) => {
        try {
          if (waitStates.includes(state)) {
            // The token is made here, kept by the waits and the approval record, and never leaves them.
            if (!approvals) throw new Error('a tool call needs a human approval, but this run has no way to ask for one');
            const request = approvalPayload(payload);
            const { taskToken, decision } = approvals.waits.open(Number(request.expiresInSeconds));
            const { approvalId } = (await steps[step]({ ...request, taskToken })) as { approvalId: string };
            approvals.onRequested?.(approvalId);
            return (await decision) as never;
          }
          return (await steps[step](payload)) as never;
        } catch (error) {
          // A rejection or an expiry ends the wait as the ASL expects; it is no step's failure.
          const endsWait = waitStates.includes(state) && error instanceof Error && (APPROVAL_WAIT_ERRORS as readonly string[]).includes(error.name);
          if (!endsWait) stepError ??= error instanceof Error ? `${error.name}: ${error.message}` : String(error);
          throw error;
        }
      },
    ]),
  );
  // Retries keep their ASL semantics, without the real back-off pauses.
  const retryIntervalOverrides = Object.fromEntries(Object.keys(stateSteps).map((state) => [state, 0]));
  const machine = new StateMachine(definition as never, { validationOptions: { checkArn: true, checkPaths: true } });
  const executionName = randomUUID();
  const execution = machine.run(input as never, {
    overrides: { taskResourceLocalHandlers, retryIntervalOverrides },
    context: {
      Execution: {
        Id: `arn:aws:states:us-east-1:123456789012:execution:sre-agent-local:${executionName}`,
        Name: executionName,
        Input: input as never,
        StartTime: new Date().toISOString(),
      },
      // The ASL reads $$.Task.Token; the local handler replaces it with a token of its own.
      Task: { Token: 'replaced-by-the-local-approval-wait' },
    },
  });
  signal?.addEventListener('abort', () => execution.abort(), { once: true });
  const progress = (async () => {
    for await (const event of execution.eventLogs) {
      if (!onProgress) continue;
      if (event.type === 'StateEntered') onProgress(`→ ${event.state.name}`);
      else if (event.type === 'StateRetried') onProgress(`↻ ${event.state.name} retried`);
      else if (event.type === 'StateFailed') onProgress(`✗ ${event.state.name}: ${event.Error}`);
    }
  })();
  try {
    const output = await execution.result;
    await progress;
    return { status: 'SUCCEEDED', output };
  } catch (error) {
    await progress.catch(() => undefined);
    return { status: 'FAILED', output: undefined, error: stepError ?? (error instanceof Error ? error.message : String(error)) };
  }
};
