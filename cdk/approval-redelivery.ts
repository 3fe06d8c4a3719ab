import { Duration, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { buildTableFunction, tracingWildcardAcknowledgement } from './table-function.ts';

/** What answering a waiting approval state takes: the deciding functions, and no other, are granted these. */
export const TASK_CALLBACK_ACTIONS = ['states:SendTaskSuccess', 'states:SendTaskFailure'] as const;

/**
 * The approval store's calls when redelivering: list decided records on the index (Query), read
 * each record and its token (GetItem), mark the callback delivered or closed (UpdateItem).
 */
export const REDELIVERY_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem'] as const;

export interface ApprovalRedeliveryProps {
  readonly table: dynamodb.ITable;
  readonly key: kms.IKey;
  readonly stateMachine: sfn.StateMachine;
  readonly retention: logs.RetentionDays;
  /** How often undelivered decisions are retried. Default one minute. */
  readonly rate?: Duration;
}

/** The grant of SendTaskSuccess/SendTaskFailure on the investigation state machine's tasks. */
export const taskCallbackStatement = (stateMachine: sfn.StateMachine): iam.PolicyStatement =>
  new iam.PolicyStatement({ sid: 'AnswerApprovalWaits', actions: [...TASK_CALLBACK_ACTIONS], resources: [stateMachine.stateMachineArn] });

/**
 * A decision is recorded before Step Functions hears of it; when that callback fails, this
 * function sends it again on a schedule until Step Functions answers (or says the task closed).
 */
export class ApprovalRedelivery extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: ApprovalRedeliveryProps) {
    super(scope, id);
    ({ function: this.function, role: this.role } = buildTableFunction(this, {
      handler: 'redeliver-decisions',
      description: 'sre-agent: redelivers approval decisions whose callback to Step Functions failed',
      roleDescription: 'sre-agent redeliver-decisions: its log group, approval records, answering approval waits',
      table: props.table,
      key: props.key,
      retention: props.retention,
      tableStatementId: 'ApprovalRecords',
      tableActions: REDELIVERY_TABLE_ACTIONS,
      memorySize: 256,
      timeout: Duration.seconds(50),
    }));
    this.role.addToPrincipalPolicy(taskCallbackStatement(props.stateMachine));
    this.rule = new events.Rule(this, 'Schedule', {
      description: 'sre-agent: retry approval decisions whose callback failed',
      schedule: events.Schedule.rate(props.rate ?? Duration.minutes(1)),
    });
    this.rule.addTarget(new targets.LambdaFunction(this.function, { retryAttempts: 0 }));
    Validations.of(this.role).acknowledge(tracingWildcardAcknowledgement);
  }
}
