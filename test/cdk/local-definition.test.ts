import { StateMachine, type RunOptions } from 'aws-local-stepfunctions';
import { beforeAll, describe, expect, it } from 'vitest';
import { stepNames, workflowStateSteps, type StepName } from '../../cdk/investigation-workflow.ts';
import { stepNames as workflowStepNames } from '../../lib/workflow/control.ts';
import {
  buildLocalWorkflowDefinition,
  localStepFunctionArn,
  resolveIntrinsics,
  type LocalWorkflowDefinition,
} from '../../cdk/local-definition.ts';

type State = Record<string, unknown> & { Type: string };
type LocalHandlers = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>;
type Json = Parameters<LocalHandlers[string]>[0];
type JsonObject = { [key: string]: Json };
const asObject = (value: Json): JsonObject => value as JsonObject;

// aws-local-stepfunctions 3.0.0 declares node >=22: every Task state calls Promise.withResolvers
// (ES2024, Node 22+). The project allows Node >=20.19, so these tests supply it when missing.
const promiseStatics = Promise as unknown as { withResolvers?: () => unknown };
if (typeof promiseStatics.withResolvers !== 'function') {
  promiseStatics.withResolvers = () => {
    let resolve!: (value: unknown) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

const TASK_STATES = Object.keys(workflowStateSteps);
/** The approval state waits for a task token; every other Task is a plain Lambda invoke. */
const WAIT_STATE = 'AwaitApproval';
const INVOKE_STATES = TASK_STATES.filter((name) => name !== WAIT_STATE);
const EXPECTED_STATES = [
  ...TASK_STATES,
  'ToolCallsOrAnswer',
  'IterationCap',
  'ApprovalNeeded',
  'AskForFinalAnswer',
  'Done',
  'InvestigationFailed',
];
const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
];

/** Step Functions hands every execution its id; StartInvestigation records it to tell retries from duplicates. */
const executionContext = {
  Execution: { Id: 'arn:aws:states:us-east-1:123456789012:execution:sre-agent:test', Input: {}, StartTime: '2026-01-01T00:00:00.000Z' },
};

describe('buildLocalWorkflowDefinition', () => {
  let built: LocalWorkflowDefinition;
  let states: Record<string, State>;

  beforeAll(() => {
    built = buildLocalWorkflowDefinition();
    states = built.definition['States'] as Record<string, State>;
  });

  it('starts at StartInvestigation and has exactly the expected states', () => {
    expect(built.definition['StartAt']).toBe('StartInvestigation');
    expect(Object.keys(states).sort()).toEqual([...EXPECTED_STATES].sort());
  });

  it('leaves no CloudFormation token behind', () => {
    const text = JSON.stringify(built.definition);
    expect(text).not.toMatch(/Fn::|"Ref"|\$\{Token\[/);
  });

  it('gives every Task a plain Lambda function ARN and maps it to its step', () => {
    const tasks = Object.entries(states).filter(([, s]) => s.Type === 'Task');
    expect(tasks.map(([name]) => name).sort()).toEqual([...TASK_STATES].sort());
    for (const [name, state] of tasks.filter(([name]) => name !== WAIT_STATE)) {
      const step = workflowStateSteps[name as keyof typeof workflowStateSteps];
      expect(state['Resource']).toBe(localStepFunctionArn(step));
      expect(state['Resource']).toMatch(/^arn:aws:lambda:us-east-1:123456789012:function:sre-agent-[a-z-]+$/);
    }
    expect(states[WAIT_STATE]?.['Resource']).toBe('arn:aws:states:::lambda:invoke.waitForTaskToken');
    expect(built.waitStates).toEqual([WAIT_STATE]);
    expect(built.stateSteps).toEqual(workflowStateSteps);
    expect(new Set(Object.values(built.stateSteps))).toEqual(new Set<StepName>(stepNames));
  });

  it('names the same steps as the workflow code', () => {
    expect([...stepNames].sort()).toEqual([...workflowStepNames].sort());
  });

  it('passes the whole execution input and maxIterations to StartInvestigation', () => {
    expect(states['StartInvestigation']?.['Parameters']).toEqual({ 'input.$': '$', maxIterations: 8, 'executionId.$': '$$.Execution.Id' });
    const custom = buildLocalWorkflowDefinition({ maxIterations: 3 });
    const customStates = custom.definition['States'] as Record<string, State>;
    expect(customStates['StartInvestigation']?.['Parameters']).toEqual({ 'input.$': '$', maxIterations: 3, 'executionId.$': '$$.Execution.Id' });
    expect(() => buildLocalWorkflowDefinition({ maxIterations: 0 })).toThrow(/maxIterations/);
  });

  it('wires the loop: model → tools or answer, iteration cap → final answer', () => {
    expect(states['StartInvestigation']?.['Next']).toBe('Plan');
    expect(states['Plan']?.['Next']).toBe('CallModel');
    expect(states['CallModel']?.['Next']).toBe('ToolCallsOrAnswer');
    expect(states['ToolCallsOrAnswer']).toMatchObject({
      Type: 'Choice',
      Choices: [{ Variable: '$.next', StringEquals: 'tools', Next: 'RunTools' }],
      Default: 'WriteFinding',
    });
    expect(states['RunTools']?.['Next']).toBe('ApprovalNeeded');
    expect(states['ApprovalNeeded']).toMatchObject({
      Type: 'Choice',
      Choices: [{ Variable: '$.pendingApprovals[0]', IsPresent: true, Next: 'AwaitApproval' }],
      Default: 'IterationCap',
    });
    expect(states['ResolveApproval']?.['Next']).toBe('ApprovalNeeded');
    expect(states['IterationCap']).toMatchObject({
      Type: 'Choice',
      Choices: [{ Variable: '$.iteration', NumericGreaterThanEqualsPath: '$.maxIterations', Next: 'AskForFinalAnswer' }],
      Default: 'CallModel',
    });
    expect(states['AskForFinalAnswer']).toMatchObject({ Type: 'Pass', Result: true, ResultPath: '$.finalOnly', Next: 'CallModel' });
    expect(states['WriteFinding']?.['Next']).toBe('Publish');
    expect(states['Publish']?.['Next']).toBe('Done');
    expect(states['Done']?.Type).toBe('Succeed');
    expect(states['RecordFailure']?.['Next']).toBe('InvestigationFailed');
    expect(states['InvestigationFailed']?.Type).toBe('Fail');
  });

  it('waits for the approval with the token in its payload, expires after 30 minutes and routes timeouts and rejections to ResolveApproval', () => {
    const wait = states[WAIT_STATE]!;
    expect(wait['Parameters']).toMatchObject({ Payload: { 'state.$': '$', 'taskToken.$': '$$.Task.Token', expiresInSeconds: 1800 } });
    expect(wait['TimeoutSeconds']).toBe(1800);
    expect(wait['ResultPath']).toBeNull();
    expect(wait['Next']).toBe('ResolveApproval');
    expect(wait['Catch']).toEqual([
      { ErrorEquals: ['States.Timeout', 'States.HeartbeatTimeout', 'ApprovalRejected'], ResultPath: '$.approvalError', Next: 'ResolveApproval' },
      { ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'RecordFailure' },
    ]);
    const short = buildLocalWorkflowDefinition({ approvalTimeoutSeconds: 5 }).definition['States'] as Record<string, State>;
    expect(short[WAIT_STATE]?.['TimeoutSeconds']).toBe(5);
  });

  it('retries Lambda service errors, times out and catches every task', () => {
    for (const name of INVOKE_STATES) {
      const state = states[name]!;
      expect(state['Retry'], name).toEqual([
        { ErrorEquals: LAMBDA_SERVICE_ERRORS, IntervalSeconds: 2, MaxAttempts: 3, BackoffRate: 2 },
      ]);
      expect(state['TimeoutSeconds'], name).toBe(name === 'CallModel' ? 600 : 300);
      const target = name === 'RecordFailure' ? 'InvestigationFailed' : 'RecordFailure';
      expect(state['Catch'], name).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: target }]);
      // payloadResponseOnly: the function's result is the next state, untouched.
      expect(state).not.toHaveProperty('ResultPath');
      expect(state).not.toHaveProperty('ResultSelector');
      if (name !== 'StartInvestigation') expect(state).not.toHaveProperty('Parameters');
    }
  });

  it('is valid ASL for aws-local-stepfunctions, ARN checks included', () => {
    expect(() => new StateMachine(built.definition as never)).not.toThrow();
  });

  it('runs locally end to end with every step overridden', async () => {
    const calls: string[] = [];
    let iteration = 0;
    const handlers: Record<string, (input: JsonObject) => Promise<Json>> = {
      StartInvestigation: async () => ({ investigationId: 'inv-1', iteration: 0, maxIterations: 2, finalOnly: false }),
      Plan: async (s) => s,
      CallModel: async (s) => {
        iteration += 1;
        return { ...s, iteration, next: s['finalOnly'] ? 'final' : 'tools' };
      },
      RunTools: async (s) => s,
      WriteFinding: async (s) => s,
      Publish: async (s) => s,
      RecordFailure: async (s) => s,
    };
    const taskResourceLocalHandlers: LocalHandlers = Object.fromEntries(
      Object.entries(handlers).map(([name, fn]) => [
        name,
        async (input: Json) => {
          calls.push(name);
          return fn(asObject(input));
        },
      ]),
    );
    const machine = new StateMachine(built.definition as never);
    const result = await machine.run({ trigger: { question: 'why?' } }, { overrides: { taskResourceLocalHandlers }, context: executionContext }).result;
    expect(result).toMatchObject({ investigationId: 'inv-1', iteration: 3, finalOnly: true, next: 'final' });
    expect(calls).toEqual([
      'StartInvestigation',
      'Plan',
      'CallModel',
      'RunTools',
      'CallModel',
      'RunTools',
      'CallModel',
      'WriteFinding',
      'Publish',
    ]);
  });

  it('routes a failing step to RecordFailure with the error under $.failure', async () => {
    let recorded: JsonObject | undefined;
    const machine = new StateMachine(built.definition as never);
    const run = machine.run(
      { trigger: { question: 'why?' } },
      {
        context: executionContext,
        overrides: {
          taskResourceLocalHandlers: {
            StartInvestigation: async () => ({ investigationId: 'inv-2', iteration: 0, maxIterations: 8, finalOnly: false }),
            Plan: async () => {
              throw Object.assign(new Error('plan exploded'), { name: 'PlanError' });
            },
            RecordFailure: async (input) => {
              recorded = asObject(input);
              return { investigationId: recorded['investigationId'] ?? null, status: 'failed' };
            },
          },
        },
      },
    );
    await expect(run.result).rejects.toThrow();
    expect(recorded).toMatchObject({ investigationId: 'inv-2', failure: { Error: 'PlanError' } });
  });
});

describe('resolveIntrinsics', () => {
  it('resolves Fn::Join, Ref and Fn::GetAtt', () => {
    expect(
      resolveIntrinsics({
        'Fn::Join': [
          '',
          ['arn:', { Ref: 'AWS::Partition' }, ':states:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':x'],
        ],
      }),
    ).toBe('arn:aws:states:us-east-1:123456789012:x');
    expect(resolveIntrinsics({ 'Fn::GetAtt': ['PlanFunction1234', 'Arn'] })).toMatch(/^arn:aws:lambda:us-east-1:123456789012:function:/);
    expect(resolveIntrinsics({ Ref: 'SomeTopic' })).toMatch(/^arn:aws:/);
  });

  it('throws on an intrinsic it does not know', () => {
    expect(() => resolveIntrinsics({ a: { 'Fn::Sub': 'x' } })).toThrow(/Unsupported CloudFormation intrinsic Fn::Sub/);
    expect(() => resolveIntrinsics({ Ref: 'AWS::NotificationARNs' })).toThrow(/pseudo parameter/);
  });
});
