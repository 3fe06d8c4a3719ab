import { randomUUID } from 'node:crypto';
import { StateMachine } from 'aws-local-stepfunctions';
import { buildLocalWorkflowDefinition } from '../cdk/local-definition.ts';
import type { ExecutionInput } from '../lib/workflow/control.ts';
import type { WorkflowDependencies } from '../lib/workflow/dependencies.ts';
import { createSteps } from '../lib/workflow/steps.ts';
import { installPromiseWithResolvers } from './promise-with-resolvers.ts';

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
}

/**
 * Runs the deployed workflow's ASL with aws-local-stepfunctions, each Lambda task overridden
 * by the same step code the Lambda handlers call, in process.
 */
export const runWorkflowLocally = async ({ dependencies, input, maxIterations, onProgress, signal }: LocalRunOptions): Promise<LocalExecution> => {
  installPromiseWithResolvers();
  const { definition, stateSteps } = buildLocalWorkflowDefinition(maxIterations === undefined ? {} : { maxIterations });
  const steps = createSteps(dependencies);
  // The Fail state's cause is generic; the error worth reporting is the step's own.
  let stepError: string | undefined;
  const taskResourceLocalHandlers = Object.fromEntries(
    Object.entries(stateSteps).map(([state, step]) => [
      state,
      async (payload: unknown) => {
        try {
          return (await steps[step](payload)) as never;
        } catch (error) {
          stepError ??= error instanceof Error ? `${error.name}: ${error.message}` : String(error);
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
