import { ArnFormat, Duration, Stack, Token, Validations, type CfnElement } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { buildTableFunction, tracingWildcardAcknowledgement } from './table-function.ts';

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
    ({ function: this.function, role: this.role } = buildTableFunction(this, {
      handler: props.handler,
      description: props.description,
      roleDescription: `sre-agent ${props.handler}: its log group, the investigations table, starting and stopping investigations`,
      table: props.table,
      key: props.key,
      retention: props.retention,
      tableStatementId: 'InvestigationsTable',
      tableActions: TRIGGER_TABLE_ACTIONS,
      memorySize: 512,
      timeout: props.timeout ?? Duration.seconds(29),
      environment: { STATE_MACHINE_ARN: props.stateMachine.stateMachineArn, ...props.environment },
    }));
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
    const stack = Stack.of(this);
    const literal = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
    const machineName = `<${stack.getLogicalId(props.stateMachine.node.defaultChild as CfnElement)}.Name>`;
    Validations.of(this.role).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::arn:${literal(stack.partition, 'AWS::Partition')}:states:${literal(stack.region, 'AWS::Region')}:${literal(stack.account, 'AWS::AccountId')}:execution:${machineName}:*]`,
        reason: 'Cancelling stops executions of this one state machine; their names (investigation ids) are not known at deploy time.',
      },
      tracingWildcardAcknowledgement,
    );
  }
}
