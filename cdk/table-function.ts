import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { tableLayout } from '../lib/store/table-layout.ts';
import { esmBundling } from './esm-bundling.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface TableFunctionProps {
  /** `functions/<handler>.ts`. */
  readonly handler: string;
  readonly description: string;
  /** What the role is for, in the console's role list. */
  readonly roleDescription: string;
  readonly table: dynamodb.ITable;
  readonly key: kms.IKey;
  readonly retention: logs.RetentionDays;
  /** The policy statement's id for the table grant (what the function keeps there). */
  readonly tableStatementId: string;
  /** Exactly the table calls the function makes, on the table and its list index. */
  readonly tableActions: readonly string[];
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly environment?: Record<string, string>;
}

/**
 * The parts every function outside the workflow shares, built into `scope` (so their ids are the
 * caller's): a log group under the project key, a role of its own with the table and its index and
 * the key through DynamoDB, and the function bundled as ESM for nodejs22.x with active tracing.
 */
export function buildTableFunction(scope: Construct, props: TableFunctionProps): { function: NodejsFunction; role: iam.Role } {
  const logGroup = new logs.LogGroup(scope, 'Logs', { retention: props.retention, encryptionKey: props.key, removalPolicy: RemovalPolicy.DESTROY });
  const role = new iam.Role(scope, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'), description: props.roleDescription });
  logGroup.grantWrite(role);
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      sid: props.tableStatementId,
      actions: [...props.tableActions],
      resources: [props.table.tableArn, `${props.table.tableArn}/index/${tableLayout.listIndex.name}`],
    }),
  );
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      sid: 'EncryptionKeyViaDynamoDb',
      actions: ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey'],
      resources: [props.key.keyArn],
      conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${props.table.stack.region}.amazonaws.com` } },
    }),
  );
  const fn = new NodejsFunction(scope, 'Function', {
    description: props.description,
    entry: fileURLToPath(new URL(`../functions/${props.handler}.ts`, import.meta.url)),
    handler: 'handler',
    projectRoot: REPO_ROOT,
    depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
    runtime: lambda.Runtime.NODEJS_22_X,
    architecture: lambda.Architecture.ARM_64,
    memorySize: props.memorySize,
    timeout: props.timeout,
    tracing: lambda.Tracing.ACTIVE,
    role,
    logGroup,
    environment: {
      TABLE_NAME: props.table.tableName,
      // Items written here expire (TTL) after as many days as the logs are kept.
      RETENTION_DAYS: String(props.retention),
      POWERTOOLS_SERVICE_NAME: 'sre-agent',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      NODE_OPTIONS: '--enable-source-maps',
      ...props.environment,
    },
    bundling: esmBundling,
  });
  Validations.of(fn).acknowledge({
    id: 'AwsSolutions-L1',
    reason: 'The design pins nodejs22.x, the Node.js major the handlers are bundled for (esbuild target node22).',
  });
  return { function: fn, role };
}

/** cdk-nag's finding for the X-Ray grant that active tracing adds, with its reason. */
export const tracingWildcardAcknowledgement = {
  id: 'AwsSolutions-IAM5[Resource::*]',
  reason: 'Active X-Ray tracing adds xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions (Resource "*").',
};
