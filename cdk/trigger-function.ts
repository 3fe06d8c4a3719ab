import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArnFormat, Duration, RemovalPolicy, Stack, Token, Validations, type CfnElement } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { esmBundling } from './esm-bundling.ts';
import { tableLayout } from '../lib/store/table-layout.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * What the store and the trigger ledger issue for the doors: item reads and writes, conditional
 * updates, transactions (Put/Update members), queue deletes, queries of the list index.
 */
export const TRIGGER_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:Query'] as const;

export interface TriggerFunctionProps {
  /** `functions/<handler>.ts`. */
  readonly handler: string;
  readonly description: string;
  readonly table: dynamodb.ITable;
  readonly key: kms.IKey;
  readonly stateMachine: sfn.StateMachine;
  readonly retention: logs.RetentionDays;
  readonly environment?: Record<string, string>;
  readonly timeout?: Duration;
}

/**
 * A Lambda function of the doors (API, alarm admission, execution status): its own role and log
 * group, the table and its index, the key through DynamoDB, and starting and stopping executions
 * of the investigation state machine. Secrets and buses are granted by the construct that needs them.
 */
export class TriggerFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: TriggerFunctionProps) {
    super(scope, id);
    const logGroup = new logs.LogGroup(this, 'Logs', { retention: props.retention, encryptionKey: props.key, removalPolicy: RemovalPolicy.DESTROY });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `sre-agent ${props.handler}: its log group, the investigations table, starting and stopping investigations`,
    });
    logGroup.grantWrite(this.role);
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'InvestigationsTable',
        actions: [...TRIGGER_TABLE_ACTIONS],
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
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ sid: 'StartInvestigations', actions: ['states:StartExecution'], resources: [props.stateMachine.stateMachineArn] }),
    );
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'StopInvestigations',
        actions: ['states:StopExecution'],
        resources: [
          Stack.of(this).formatArn({ service: 'states', resource: 'execution', resourceName: `${props.stateMachine.stateMachineName}:*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME }),
        ],
      }),
    );
    this.function = new NodejsFunction(this, 'Function', {
      description: props.description,
      entry: fileURLToPath(new URL(`../functions/${props.handler}.ts`, import.meta.url)),
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 512,
      timeout: props.timeout ?? Duration.seconds(29),
      tracing: lambda.Tracing.ACTIVE,
      role: this.role,
      logGroup,
      environment: {
        TABLE_NAME: props.table.tableName,
        // Ledger items, like investigations, expire (TTL) after as many days as the logs are kept.
        RETENTION_DAYS: String(props.retention),
        STATE_MACHINE_ARN: props.stateMachine.stateMachineArn,
        POWERTOOLS_SERVICE_NAME: 'sre-agent',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
      bundling: esmBundling,
    });
    const stack = Stack.of(this);
    const literal = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
    const machineName = `<${stack.getLogicalId(props.stateMachine.node.defaultChild as CfnElement)}.Name>`;
    Validations.of(this.role).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::arn:${literal(stack.partition, 'AWS::Partition')}:states:${literal(stack.region, 'AWS::Region')}:${literal(stack.account, 'AWS::AccountId')}:execution:${machineName}:*]`,
        reason: 'Cancelling stops executions of this one state machine; their names (investigation ids) are not known at deploy time.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'Active X-Ray tracing adds xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions (Resource "*").',
      },
    );
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'The design pins nodejs22.x, the Node.js major the handlers are bundled for (esbuild target node22).',
    });
  }
}
