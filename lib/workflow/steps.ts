import { callModel } from './call-model.ts';
import type { StepName } from './control.ts';
import type { WorkflowDependencies } from './dependencies.ts';
import { plan } from './plan.ts';
import { publish } from './publish.ts';
import { recordFailure } from './record-failure.ts';
import { requestApproval } from './request-approval.ts';
import { resolveApproval } from './resolve-approval.ts';
import { runTools } from './run-tools.ts';
import { startInvestigation } from './start-investigation.ts';
import { writeFinding } from './write-finding.ts';

export type StepHandler = (input: unknown) => Promise<unknown>;

/** Every workflow step bound to its dependencies: what Lambda handlers and the local runner call. */
export const createSteps = (dependencies: WorkflowDependencies): Record<StepName, StepHandler> => ({
  'start-investigation': (input) => startInvestigation(dependencies, input),
  plan: (input) => plan(dependencies, input),
  'call-model': (input) => callModel(dependencies, input),
  'run-tools': (input) => runTools(dependencies, input),
  'request-approval': (input) => requestApproval(dependencies, input),
  'resolve-approval': (input) => resolveApproval(dependencies, input),
  'write-finding': (input) => writeFinding(dependencies, input),
  publish: (input) => publish(dependencies, input),
  'record-failure': (input) => recordFailure(dependencies, input),
});
