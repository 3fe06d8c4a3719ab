import { Duration, Names, RemovalPolicy, Token } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';

import { stepNames, type StepName } from '../lib/workflow/control.ts';

/** The Lambda-backed steps of an investigation, one handler file each (`functions/<step>.ts`): the workflow's own list. */
export { stepNames, type StepName };

/** Task state name → the step (Lambda handler) it invokes. */
export const workflowStateSteps = {
  StartInvestigation: 'start-investigation',
  Plan: 'plan',
  CallModel: 'call-model',
  RunTools: 'run-tools',
  AwaitApproval: 'request-approval',
  ResolveApproval: 'resolve-approval',
  WriteFinding: 'write-finding',
  Publish: 'publish',
  RecordFailure: 'record-failure',
} as const satisfies Record<string, StepName>;
export type StateName = keyof typeof workflowStateSteps;

/** Names of the non-Task states, for callers that inspect the definition. */
export const workflowControlStates = {
  toolCallsOrAnswer: 'ToolCallsOrAnswer',
  iterationCap: 'IterationCap',
  approvalNeeded: 'ApprovalNeeded',
  askForFinalAnswer: 'AskForFinalAnswer',
  done: 'Done',
  failed: 'InvestigationFailed',
} as const;

export const DEFAULT_MAX_ITERATIONS = 8;

/** How long a proposed action waits for a human before it expires. */
export const DEFAULT_APPROVAL_TIMEOUT = Duration.minutes(30);

/** What ends an approval wait without a decision: the state's own timeouts, and a rejection's SendTaskFailure. */
export const APPROVAL_WAIT_ERRORS = ['States.Timeout', 'States.HeartbeatTimeout', 'ApprovalRejected'] as const;

/** Errors the Lambda service (not the handler) raises; these are safe to retry. */
export const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
] as const;

const DEFAULT_TASK_TIMEOUT = Duration.minutes(5);
const TASK_TIMEOUTS: Partial<Record<StateName, Duration>> = { CallModel: Duration.minutes(10) };

export interface InvestigationWorkflowProps {
  /** One function per step. */
  readonly steps: Readonly<Record<StepName, lambda.IFunction>>;
  /** Model round trips before the agent is asked for a final answer. Default 8. */
  readonly maxIterations?: number;
  /** Destination of the state machine's execution logs. Default: a new log group (one month retention). */
  readonly logGroup?: logs.ILogGroup;
  /** How long an approval waits (the state's TimeoutSeconds; the record's expiry). Default 30 minutes. */
  readonly approvalTimeout?: Duration;
  /** The approval state's HeartbeatSeconds, when the deciding side sends heartbeats. Default none. */
  readonly approvalHeartbeat?: Duration;
  /** X-Ray tracing of executions. Default true. */
  readonly tracing?: boolean;
}

/**
 * The investigation loop as a Standard Step Functions state machine:
 * StartInvestigation → Plan → CallModel ⇄ RunTools (→ AwaitApproval → ResolveApproval, one call at a time) (capped) → WriteFinding → Publish → Done,
 * with every task's failure routed to RecordFailure → InvestigationFailed.
 *
 * Workflow state carries ids and small control fields only; each Lambda result replaces the state.
 */
export class InvestigationWorkflow extends Construct {
  /** Task state name → step. */
  static readonly stateSteps: Readonly<Record<StateName, StepName>> = workflowStateSteps;

  readonly stateMachine: sfn.StateMachine;
  readonly logGroup: logs.ILogGroup;
  readonly maxIterations: number;

  constructor(scope: Construct, id: string, props: InvestigationWorkflowProps) {
    super(scope, id);

    const maxIterations = props.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    if (!Token.isUnresolved(maxIterations) && (!Number.isInteger(maxIterations) || maxIterations < 1)) {
      throw new Error(`InvestigationWorkflow: maxIterations must be a positive integer, got ${maxIterations}`);
    }
    for (const step of stepNames) {
      if (!props.steps[step]) throw new Error(`InvestigationWorkflow: no function given for step "${step}"`);
    }
    this.maxIterations = maxIterations;

    this.logGroup =
      props.logGroup ??
      new logs.LogGroup(this, 'Logs', {
        // The vended-logs prefix keeps Step Functions from growing the account's log resource policy.
        logGroupName: `/aws/vendedlogs/states/${Names.uniqueResourceName(this, { maxLength: 200 })}`,
        retention: logs.RetentionDays.ONE_MONTH,
        // A named log group left behind would block the next deployment of the same name.
        removalPolicy: RemovalPolicy.DESTROY,
      });

    const task = (state: StateName, payload?: sfn.TaskInput): tasks.LambdaInvoke => {
      const invoke = new tasks.LambdaInvoke(this, state, {
        lambdaFunction: props.steps[workflowStateSteps[state]],
        // The function's result becomes the state; Resource is the function ARN.
        payloadResponseOnly: true,
        retryOnServiceExceptions: false,
        ...(payload ? { payload } : {}),
        taskTimeout: sfn.Timeout.duration(TASK_TIMEOUTS[state] ?? DEFAULT_TASK_TIMEOUT),
      });
      invoke.addRetry({
        errors: [...LAMBDA_SERVICE_ERRORS],
        interval: Duration.seconds(2),
        maxAttempts: 3,
        backoffRate: 2,
      });
      return invoke;
    };

    const failed = new sfn.Fail(this, workflowControlStates.failed, {
      error: 'InvestigationFailed',
      cause: 'A step failed; RecordFailure stored the error and a partial finding marked incomplete.',
    });
    const recordFailure = task('RecordFailure');
    recordFailure.addCatch(failed, { errors: [sfn.Errors.ALL], resultPath: '$.failure' });
    recordFailure.next(failed);

    const guarded = (invoke: tasks.LambdaInvoke): tasks.LambdaInvoke => {
      invoke.addCatch(recordFailure, { errors: [sfn.Errors.ALL], resultPath: '$.failure' });
      return invoke;
    };

    const start = guarded(
      task(
        'StartInvestigation',
        sfn.TaskInput.fromObject({ input: sfn.JsonPath.entirePayload, maxIterations, executionId: sfn.JsonPath.stringAt('$$.Execution.Id') }),
      ),
    );
    const plan = guarded(task('Plan'));
    const callModel = guarded(task('CallModel'));
    const runTools = guarded(task('RunTools'));
    const resolveApproval = guarded(task('ResolveApproval'));
    const approvalTimeout = props.approvalTimeout ?? DEFAULT_APPROVAL_TIMEOUT;
    // The Lambda writes the approval record with the token; the state then waits for SendTaskSuccess/Failure.
    const awaitApproval = new tasks.LambdaInvoke(this, 'AwaitApproval', {
      lambdaFunction: props.steps['request-approval'],
      integrationPattern: sfn.IntegrationPattern.WAIT_FOR_TASK_TOKEN,
      payload: sfn.TaskInput.fromObject({
        state: sfn.JsonPath.entirePayload,
        taskToken: sfn.JsonPath.taskToken,
        expiresInSeconds: approvalTimeout.toSeconds(),
      }),
      resultPath: sfn.JsonPath.DISCARD,
      taskTimeout: sfn.Timeout.duration(approvalTimeout),
      ...(props.approvalHeartbeat ? { heartbeatTimeout: sfn.Timeout.duration(props.approvalHeartbeat) } : {}),
    });
    awaitApproval.addRetry({ errors: [...LAMBDA_SERVICE_ERRORS], interval: Duration.seconds(2), maxAttempts: 3, backoffRate: 2 });
    awaitApproval.addCatch(resolveApproval, { errors: [...APPROVAL_WAIT_ERRORS], resultPath: '$.approvalError' });
    awaitApproval.addCatch(recordFailure, { errors: [sfn.Errors.ALL], resultPath: '$.failure' });
    awaitApproval.next(resolveApproval);
    const writeFinding = guarded(task('WriteFinding'));
    const publish = guarded(task('Publish'));
    const done = new sfn.Succeed(this, workflowControlStates.done);

    const askForFinalAnswer = new sfn.Pass(this, workflowControlStates.askForFinalAnswer, {
      result: sfn.Result.fromBoolean(true),
      resultPath: '$.finalOnly',
    });
    askForFinalAnswer.next(callModel);

    const iterationCap = new sfn.Choice(this, workflowControlStates.iterationCap)
      .when(sfn.Condition.numberGreaterThanEqualsJsonPath('$.iteration', '$.maxIterations'), askForFinalAnswer)
      .otherwise(callModel);
    // Calls that need approval wait one at a time; each resolution goes back for the next.
    const approvalNeeded = new sfn.Choice(this, workflowControlStates.approvalNeeded)
      .when(sfn.Condition.isPresent('$.pendingApprovals[0]'), awaitApproval)
      .otherwise(iterationCap);
    runTools.next(approvalNeeded);
    resolveApproval.next(approvalNeeded);

    writeFinding.next(publish);
    publish.next(done);

    const toolCallsOrAnswer = new sfn.Choice(this, workflowControlStates.toolCallsOrAnswer)
      .when(sfn.Condition.stringEquals('$.next', 'tools'), runTools)
      .otherwise(writeFinding);

    const definition = start.next(plan).next(callModel).next(toolCallsOrAnswer);

    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      comment: 'sre-agent investigation: plan, call the model, run tools, write and publish the finding',
      stateMachineType: sfn.StateMachineType.STANDARD,
      definitionBody: sfn.DefinitionBody.fromChainable(definition),
      tracingEnabled: props.tracing ?? true,
      logs: { destination: this.logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
    });
  }
}
