import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { tableLayout } from '../lib/store/table-layout.ts';
import { esmBundling } from './esm-bundling.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

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
    const logGroup = new logs.LogGroup(this, 'Logs', { retention: props.retention, encryptionKey: props.key, removalPolicy: RemovalPolicy.DESTROY });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'sre-agent redeliver-decisions: its log group, approval records, answering approval waits',
    });
    logGroup.grantWrite(this.role);
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'ApprovalRecords',
        actions: [...REDELIVERY_TABLE_ACTIONS],
        resources: [props.table.tableArn, `${props.table.tableArn}/index/${tableLayout.listIndex.name}`],
      }),
    );
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'EncryptionKeyViaDynamoDb',
        actions: ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey'],
        resources: [props.key.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${props.table.stack.region}.amazonaws.com` } },
      }),
    );
    this.role.addToPrincipalPolicy(taskCallbackStatement(props.stateMachine));
    this.function = new NodejsFunction(this, 'Function', {
      description: 'sre-agent: redelivers approval decisions whose callback to Step Functions failed',
      entry: fileURLToPath(new URL('../functions/redeliver-decisions.ts', import.meta.url)),
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 256,
      timeout: Duration.seconds(50),
      tracing: lambda.Tracing.ACTIVE,
      role: this.role,
      logGroup,
      environment: {
        TABLE_NAME: props.table.tableName,
        RETENTION_DAYS: String(props.retention),
        POWERTOOLS_SERVICE_NAME: 'sre-agent',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        NODE_OPTIONS: '--enable-source-maps',
      },
      bundling: esmBundling,
    });
    this.rule = new events.Rule(this, 'Schedule', {
      description: 'sre-agent: retry approval decisions whose callback failed',
      schedule: events.Schedule.rate(props.rate ?? Duration.minutes(1)),
    });
    this.rule.addTarget(new targets.LambdaFunction(this.function, { retryAttempts: 0 }));
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Active X-Ray tracing adds xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions (Resource "*").',
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'The design pins nodejs22.x, the Node.js major the handlers are bundled for (esbuild target node22).',
    });
  }
}
