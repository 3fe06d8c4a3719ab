import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Duration, Stack, type CfnElement } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { InvestigationWorkflow, stepNames, type StepName } from './investigation-workflow.ts';

export const LOCAL_PARTITION = 'aws';
export const LOCAL_REGION = 'us-east-1';
export const LOCAL_ACCOUNT = '123456789012';

/** The Resource of a Lambda invoke that waits for a task token (its function is in Parameters.FunctionName). */
const WAIT_FOR_TASK_TOKEN_RESOURCE = `arn:${LOCAL_PARTITION}:states:::lambda:invoke.waitForTaskToken`;

/** The placeholder ARN a step's Task state carries in the local definition. */
export function localStepFunctionArn(step: StepName): string {
  return `arn:${LOCAL_PARTITION}:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:sre-agent-${step}`;
}

export interface LocalWorkflowDefinition {
  /** Amazon States Language, with every CloudFormation token resolved to a plain string. */
  definition: Record<string, unknown>;
  /** Task state name → step, read back from each Task's Resource ARN (a `.waitForTaskToken` state's from its FunctionName). */
  stateSteps: Record<string, StepName>;
  /** Task states that wait for a task token: the local runner emulates the wait. */
  waitStates: string[];
}

/**
 * Builds the ASL of the very same `InvestigationWorkflow` construct that is deployed, for local
 * execution (aws-local-stepfunctions). Steps are imported functions with placeholder ARNs, so
 * nothing is bundled; the state machine's DefinitionString is taken from the synthesized
 * template and its intrinsics are resolved to the placeholder account/region.
 */
export function buildLocalWorkflowDefinition(options: { maxIterations?: number; approvalTimeoutSeconds?: number } = {}): LocalWorkflowDefinition {
  const outdir = mkdtempSync(join(tmpdir(), 'sre-agent-asl-'));
  try {
    // The built-in CloudFormation template validation (a WASM linter, seconds on first use) is
    // skipped for this throwaway app: the deployed stack's synth validates the same construct.
    const app = new App({ outdir, builtinCloudFormationValidation: false });
    const stack = new Stack(app, 'SreAgentLocalWorkflow', {
      env: { account: LOCAL_ACCOUNT, region: LOCAL_REGION },
    });
    const arnToStep = new Map<string, StepName>();
    const steps = {} as Record<StepName, lambda.IFunction>;
    for (const step of stepNames) {
      const arn = localStepFunctionArn(step);
      arnToStep.set(arn, step);
      steps[step] = lambda.Function.fromFunctionArn(stack, `Step-${step}`, arn);
    }
    const workflow = new InvestigationWorkflow(stack, 'Workflow', {
      steps,
      ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
      ...(options.approvalTimeoutSeconds !== undefined ? { approvalTimeout: Duration.seconds(options.approvalTimeoutSeconds) } : {}),
    });

    const template = app.synth().getStackByName(stack.stackName).template as {
      Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
    };
    const logicalId = stack.getLogicalId(workflow.stateMachine.node.defaultChild as CfnElement);
    const resource = template.Resources[logicalId];
    if (!resource || resource.Type !== 'AWS::StepFunctions::StateMachine') {
      throw new Error(`buildLocalWorkflowDefinition: state machine ${logicalId} not found in the synthesized template`);
    }
    const raw = resolveIntrinsics(resource.Properties?.['DefinitionString'], 'DefinitionString');
    if (typeof raw !== 'string') {
      throw new Error('buildLocalWorkflowDefinition: DefinitionString did not resolve to a string');
    }
    const definition = JSON.parse(raw) as Record<string, unknown>;

    const stateSteps: Record<string, StepName> = {};
    const waitStates: string[] = [];
    const states = definition['States'] as Record<string, { Type?: string; Resource?: unknown; Parameters?: { FunctionName?: unknown } }>;
    for (const [name, state] of Object.entries(states)) {
      if (state.Type !== 'Task') continue;
      const waits = state.Resource === WAIT_FOR_TASK_TOKEN_RESOURCE;
      if (waits) waitStates.push(name);
      const arn = waits ? state.Parameters?.FunctionName : state.Resource;
      const step = typeof arn === 'string' ? arnToStep.get(arn) : undefined;
      if (!step) {
        throw new Error(`buildLocalWorkflowDefinition: Task "${name}" has Resource ${JSON.stringify(state.Resource)}, which is no step's placeholder ARN`);
      }
      stateSteps[name] = step;
    }
    return { definition, stateSteps, waitStates };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

const PSEUDO_PARAMETERS: Record<string, string> = {
  'AWS::Partition': LOCAL_PARTITION,
  'AWS::Region': LOCAL_REGION,
  'AWS::AccountId': LOCAL_ACCOUNT,
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::StackName': 'SreAgentLocalWorkflow',
};

function placeholderArn(logicalId: string): string {
  return `arn:${LOCAL_PARTITION}:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:placeholder-${logicalId}`;
}

/** Resolves the CloudFormation intrinsics a definition can contain: Fn::Join, Ref, Fn::GetAtt. */
export function resolveIntrinsics(value: unknown, where = '$'): unknown {
  if (Array.isArray(value)) return value.map((item, i) => resolveIntrinsics(item, `${where}[${i}]`));
  if (value === null || typeof value !== 'object') return value;

  const entries = Object.entries(value as Record<string, unknown>);
  const [only] = entries;
  if (entries.length === 1 && only && (only[0] === 'Ref' || only[0].startsWith('Fn::'))) {
    const [fn, arg] = only;
    switch (fn) {
      case 'Ref': {
        if (typeof arg !== 'string') throw new Error(`Unsupported Ref argument at ${where}: ${JSON.stringify(arg)}`);
        if (arg.startsWith('AWS::')) {
          const pseudo = PSEUDO_PARAMETERS[arg];
          if (pseudo === undefined) throw new Error(`Unsupported pseudo parameter ${arg} at ${where}`);
          return pseudo;
        }
        return placeholderArn(arg);
      }
      case 'Fn::GetAtt': {
        const target = Array.isArray(arg) ? arg[0] : typeof arg === 'string' ? arg.split('.')[0] : undefined;
        if (typeof target !== 'string') throw new Error(`Unsupported Fn::GetAtt argument at ${where}: ${JSON.stringify(arg)}`);
        return placeholderArn(target);
      }
      case 'Fn::Join': {
        if (!Array.isArray(arg) || arg.length !== 2 || typeof arg[0] !== 'string' || !Array.isArray(arg[1])) {
          throw new Error(`Malformed Fn::Join at ${where}: ${JSON.stringify(arg)}`);
        }
        const parts = (resolveIntrinsics(arg[1], `${where}.Fn::Join`) as unknown[]).map((part) => {
          if (typeof part !== 'string') throw new Error(`Fn::Join part at ${where} did not resolve to a string: ${JSON.stringify(part)}`);
          return part;
        });
        return parts.join(arg[0]);
      }
      default:
        throw new Error(`Unsupported CloudFormation intrinsic ${fn} at ${where}: cannot resolve it for local execution`);
    }
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, resolveIntrinsics(v, `${where}.${k}`)]));
}
