import { Duration, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as schedulerTargets from 'aws-cdk-lib/aws-scheduler-targets';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { TriggerFunction } from './trigger-function.ts';

/** The EMF namespace functions/execution-status.ts writes. */
export const METRICS_NAMESPACE = 'SreAgent';

export interface InvestigationTriggersProps {
  readonly table: dynamodb.ITable;
  readonly key: kms.IKey;
  readonly stateMachine: sfn.StateMachine;
  readonly retention: logs.RetentionDays;
  /** How often the scheduled health sweep runs. */
  readonly sweepRate: Duration;
  /** Where undeliverable alarm events go. */
  readonly alarmDeadLetterQueue: sqs.IQueue;
  readonly maxRunning?: number;
  readonly groupWindowMinutes?: number;
}

/**
 * The doors that are not HTTP, and the agent's own health: alarms and EventBridge Scheduler's health
 * sweeps go through admission (grouped, deduplicated, capped), execution status changes free
 * running slots and become lifecycle events on a bus and EMF metrics; a dashboard and an alarm on
 * failed executions watch the agent.
 */
export class InvestigationTriggers extends Construct {
  readonly alarmRule: events.Rule;
  /** Admits alarms and scheduled sweeps. */
  readonly triggerAdmission: TriggerFunction;
  readonly sweepSchedule: scheduler.Schedule;
  readonly lifecycleBus: events.EventBus;
  readonly executionStatus: TriggerFunction;
  readonly failedExecutionsAlarm: cloudwatch.Alarm;
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: InvestigationTriggersProps) {
    super(scope, id);
    const shared = { table: props.table, key: props.key, stateMachine: props.stateMachine, retention: props.retention };
    const admission = {
      ...(props.maxRunning === undefined ? {} : { SRE_AGENT_MAX_RUNNING: String(props.maxRunning) }),
      ...(props.groupWindowMinutes === undefined ? {} : { SRE_AGENT_GROUP_WINDOW_MINUTES: String(props.groupWindowMinutes) }),
    };

    // --- Alarms and scheduled sweeps, through admission ----------------------------------------
    this.triggerAdmission = new TriggerFunction(this, 'TriggerAdmission', {
      ...shared,
      handler: 'admit-trigger',
      description: 'sre-agent: admits CloudWatch alarms and scheduled health sweeps (dedup, storm grouping, running cap)',
      environment: admission,
    });
    this.alarmRule = new events.Rule(this, 'AlarmStateChange', {
      description: 'Admits an sre-agent investigation when a CloudWatch alarm enters ALARM',
      eventPattern: { source: ['aws.cloudwatch'], detailType: ['CloudWatch Alarm State Change'], detail: { state: { value: ['ALARM'] } } },
    });
    this.alarmRule.addTarget(new targets.LambdaFunction(this.triggerAdmission.function, { deadLetterQueue: props.alarmDeadLetterQueue, retryAttempts: 8, maxEventAge: Duration.hours(2) }));

    // --- Scheduled health sweeps -------------------------------------------------------------
    const schedulerRole = new iam.Role(this, 'SweepSchedulerRole', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com'),
      description: 'sre-agent: EventBridge Scheduler hands the health sweep to admission',
    });
    // Scheduler delivers at least once; the scheduled time identifies the sweep, so a repeat starts nothing.
    this.sweepSchedule = new scheduler.Schedule(this, 'HealthSweep', {
      description: 'sre-agent scheduled health sweep',
      schedule: scheduler.ScheduleExpression.rate(props.sweepRate),
      target: new schedulerTargets.LambdaInvoke(this.triggerAdmission.function, {
        role: schedulerRole,
        input: scheduler.ScheduleTargetInput.fromObject({ schedule: { sweep: 'health', scheduledAt: scheduler.ContextAttribute.scheduledTime } }),
        retryAttempts: 3,
      }),
    });
    const admissionFunctionId = Stack.of(this).getLogicalId(this.triggerAdmission.function.node.defaultChild as CfnElement);
    Validations.of(schedulerRole).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${admissionFunctionId}.Arn>:*]`,
      reason: 'The Scheduler target grants lambda:InvokeFunction on the admission function and its qualified versions (<function ARN>:*); the wildcard covers only that function\'s qualifiers.',
    });

    // --- Lifecycle events, slot release, metrics ------------------------------------------------
    this.lifecycleBus = new events.EventBus(this, 'LifecycleBus', { description: 'sre-agent lifecycle: investigation.started, .completed, .failed, .cancelled' });
    this.executionStatus = new TriggerFunction(this, 'ExecutionStatus', {
      ...shared,
      handler: 'execution-status',
      description: 'sre-agent: execution status changes free running slots, publish lifecycle events and metrics',
      environment: { ...admission, LIFECYCLE_BUS_NAME: this.lifecycleBus.eventBusName, POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE },
    });
    this.lifecycleBus.grantPutEventsTo(this.executionStatus.role);
    new events.Rule(this, 'ExecutionStatusChange', {
      description: 'sre-agent investigation executions changing status',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: { stateMachineArn: [props.stateMachine.stateMachineArn] },
      },
      targets: [new targets.LambdaFunction(this.executionStatus.function, { deadLetterQueue: props.alarmDeadLetterQueue, retryAttempts: 8 })],
    });

    const failed = props.stateMachine.metricFailed({ period: Duration.minutes(5), statistic: 'Sum' });
    this.failedExecutionsAlarm = new cloudwatch.Alarm(this, 'FailedInvestigations', {
      alarmDescription: 'An sre-agent investigation execution failed',
      metric: failed,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    const emf = (metricName: string, statistic = 'Sum') =>
      new cloudwatch.Metric({ namespace: METRICS_NAMESPACE, metricName, dimensionsMap: { service: 'sre-agent' }, statistic, period: Duration.minutes(5) });
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      widgets: [
        [
          new cloudwatch.GraphWidget({
            title: 'Investigations',
            left: [emf('InvestigationsStarted'), emf('InvestigationsSucceeded'), emf('InvestigationsFailed'), emf('InvestigationsCancelled')],
          }),
          new cloudwatch.GraphWidget({ title: 'Duration (ms)', left: [emf('InvestigationDuration', 'Average'), emf('InvestigationDuration', 'p90')] }),
        ],
        [
          new cloudwatch.GraphWidget({ title: 'Tokens and cost (USD)', left: [emf('InvestigationTokens')], right: [emf('InvestigationCostUsd')] }),
          new cloudwatch.AlarmWidget({ title: 'Failed executions', alarm: this.failedExecutionsAlarm }),
        ],
      ],
    });
  }
}
