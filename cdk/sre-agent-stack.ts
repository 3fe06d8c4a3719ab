import { z } from 'zod';
import { awsToolSettings } from '../integrations/aws/settings.ts';
import { esmBundling } from './esm-bundling.ts';
import { investigationToolStatements, remediationRoleStatements, remediationStepStatements } from './tool-permissions.ts';
import { ApprovalRedelivery } from './approval-redelivery.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CfnOutput,
  Duration,
  Names,
  RemovalPolicy,
  Stack,
  Token,
  Validations,
  type CfnElement,
  type StackProps,
} from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  DEFAULT_MAX_ITERATIONS,
  InvestigationWorkflow,
  stepNames,
  workflowStateSteps,
  type StateName,
  type StepName,
} from './investigation-workflow.ts';
import { tableLayout } from '../lib/store/table-layout.ts';
import { InvestigationApi } from './investigation-api.ts';
import { InvestigationTriggers } from './triggers.ts';

/** Repository root, resolved from this file so synthesis does not depend on the working directory. */
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export const DEFAULT_RETENTION_DAYS = logs.RetentionDays.ONE_MONTH;
export const DEFAULT_MODEL = 'offline';

export interface SreAgentStackProps extends StackProps {
  /** Model round trips before the agent is asked for its final answer. Default 8. */
  readonly maxIterations?: number;
  /** Days every log group keeps its logs and the table keeps an investigation (TTL); a CloudWatch Logs retention value. Default 30. */
  readonly retentionDays?: number;
  /** SRE_AGENT_MODEL_PROVIDER for the functions. Default "offline". */
  readonly modelProvider?: string;
  /** SRE_AGENT_MODEL for the functions (hosted providers only). */
  readonly modelName?: string;
  /** Secrets Manager secret holding the model credentials; only CallModel may read it. */
  readonly modelSecretArn?: string;
  /** How often the scheduled health sweep runs, in minutes. Default 60. */
  readonly sweepRateMinutes?: number;
  /** Secrets Manager secret (a plain string) holding the PagerDuty webhook signing secret; only the API function may read it. */
  readonly webhookSecretArn?: string;
  /** Secrets Manager secret (a plain string) holding the Slack app's signing secret: enables the approval buttons (POST /webhooks/slack); only the API function may read it. */
  readonly slackSigningSecretArn?: string;
  /** `<Slack user id>=<principal ARN>` pairs, comma-separated: who a Slack button click decides as. */
  readonly slackApprovers?: string;
  /**
   * Secrets Manager secret (JSON with any of PAGERDUTY_API_TOKEN, SLACK_BOT_TOKEN, SLACK_WEBHOOK_URL)
   * holding the report channels' tokens; only Publish may read it.
   */
  readonly reportSecretArn?: string;
  /** The report channels' other settings, given to Publish: a PagerDuty user's email (PAGERDUTY_FROM), a Slack channel for the bot token, the console's base URL for links. */
  readonly reportChannels?: { readonly pagerDutyFrom?: string; readonly slackChannel?: string; readonly publicUrl?: string };
  /** Investigations running at once; the rest are queued. Default 10. */
  readonly maxRunning?: number;
  /** Minutes a storm group stays open after its last trigger. Default 30. */
  readonly groupWindowMinutes?: number;
  /** The AWS tools: which are enabled, how services map to resources, the cross-account role (see README). Default: all tools, tag `service`. */
  readonly awsTools?: z.input<typeof awsToolSettings>;
}

interface StepSettings {
  readonly memorySize: number;
  readonly timeout: Duration;
}
const DEFAULT_STEP_SETTINGS: StepSettings = { memorySize: 512, timeout: Duration.minutes(5) };
const STEP_SETTINGS: Partial<Record<StepName, StepSettings>> = {
  'call-model': { memorySize: 1024, timeout: Duration.minutes(10) },
};

/**
 * The table actions the store (lib/store/dynamodb-store.ts) issues, and nothing else: GetItem
 * (a payload's item), Query (a chunked payload's parts, the transcript events) and PutItem (every
 * member of its TransactWriteItems is a Put; conditional Puts need nothing more). Every step reads
 * its investigation and commits through the store, so each needs all three. No step lists
 * investigations, so none may query the list index.
 */
export const STORE_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'] as const;
/** The approval steps also move an approval record from pending, conditionally (UpdateItem). */
export const APPROVAL_TABLE_ACTIONS = ['dynamodb:UpdateItem'] as const;
const APPROVAL_STEPS: ReadonlySet<StepName> = new Set<StepName>(['request-approval', 'resolve-approval']);
/** The steps that tell humans: Publish announces findings, RequestApproval asks for decisions, on the same channels. */
const ANNOUNCING_STEPS: ReadonlySet<StepName> = new Set<StepName>(['publish', 'request-approval']);

/**
 * Actions the account (and through it, IAM policies) may perform on the key. Written out instead
 * of `kms:*`; kms:PutKeyPolicy is included, so the key can never be locked out.
 */
const KEY_ACCOUNT_ACTIONS = [
  'kms:CancelKeyDeletion',
  'kms:CreateAlias',
  'kms:CreateGrant',
  'kms:Decrypt',
  'kms:DeleteAlias',
  'kms:DescribeKey',
  'kms:DisableKey',
  'kms:DisableKeyRotation',
  'kms:EnableKey',
  'kms:EnableKeyRotation',
  'kms:Encrypt',
  'kms:GenerateDataKey',
  'kms:GenerateDataKeyWithoutPlaintext',
  'kms:GetKeyPolicy',
  'kms:GetKeyRotationStatus',
  'kms:ListGrants',
  'kms:ListKeyPolicies',
  'kms:ListKeyRotations',
  'kms:ListResourceTags',
  'kms:PutKeyPolicy',
  'kms:ReEncryptFrom',
  'kms:ReEncryptTo',
  'kms:RetireGrant',
  'kms:RevokeGrant',
  'kms:RotateKeyOnDemand',
  'kms:ScheduleKeyDeletion',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:UpdateAlias',
  'kms:UpdateKeyDescription',
];

/** What CloudWatch Logs needs to encrypt a log group with the key. */
const KEY_LOGS_ACTIONS = [
  'kms:Decrypt',
  'kms:DescribeKey',
  'kms:Encrypt',
  'kms:GenerateDataKey',
  'kms:GenerateDataKeyWithoutPlaintext',
  'kms:ReEncryptFrom',
  'kms:ReEncryptTo',
];

const stateNameOf = Object.fromEntries(
  Object.entries(workflowStateSteps).map(([state, step]) => [step, state]),
) as Record<StepName, StateName>;

function retentionOf(days: number | undefined): logs.RetentionDays {
  if (days === undefined) return DEFAULT_RETENTION_DAYS;
  const allowed = Object.values(logs.RetentionDays).filter((v): v is number => typeof v === 'number');
  if (!allowed.includes(days)) {
    throw new Error(`SreAgentStack: retentionDays must be one of ${allowed.join(', ')}; got ${days}`);
  }
  return days as logs.RetentionDays;
}

/**
 * sre-agent on AWS: an EventBridge rule starts the investigation state machine on CloudWatch
 * alarms; the Lambda steps keep the transcript and finding in one DynamoDB table and publish the
 * finding to an SNS topic. Everything at rest is encrypted with one customer-managed key.
 */
export class SreAgentStack extends Stack {
  readonly key: kms.Key;
  readonly table: dynamodb.Table;
  readonly topic: sns.Topic;
  readonly functions: Readonly<Record<StepName, NodejsFunction>>;
  readonly workflow: InvestigationWorkflow;
  readonly alarmRule: events.Rule;
  readonly alarmRuleDeadLetterQueue: sqs.Queue;
  readonly triggers: InvestigationTriggers;
  readonly api: InvestigationApi;
  readonly approvalRedelivery: ApprovalRedelivery;
  /** The role approved actions are made through; present when a remediation tool is enabled. */
  readonly remediationRole?: iam.Role;

  constructor(scope: Construct, id: string, props: SreAgentStackProps = {}) {
    super(scope, id, props);

    const maxIterations = props.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    const retention = retentionOf(props.retentionDays);
    const sweepRate = Duration.minutes(props.sweepRateMinutes ?? 60);
    const admission = {
      ...(props.maxRunning === undefined ? {} : { maxRunning: props.maxRunning }),
      ...(props.groupWindowMinutes === undefined ? {} : { groupWindowMinutes: props.groupWindowMinutes }),
    };
    const toolSettings = awsToolSettings.safeParse(props.awsTools ?? {});
    if (!toolSettings.success) throw new Error(`SreAgentStack: awsTools is not valid: ${z.prettifyError(toolSettings.error)}`);
    const modelProvider = props.modelProvider ?? DEFAULT_MODEL;
    const modelName = props.modelName ?? DEFAULT_MODEL;
    const modelSecretArn = props.modelSecretArn;
    for (const [name, arn] of Object.entries({ modelSecretArn, webhookSecretArn: props.webhookSecretArn, reportSecretArn: props.reportSecretArn, slackSigningSecretArn: props.slackSigningSecretArn })) {
      if (arn !== undefined && !Token.isUnresolved(arn) && !/^arn:[a-z-]+:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+$/.test(arn)) {
        throw new Error(`SreAgentStack: ${name} must be a Secrets Manager secret ARN; got ${arn}`);
      }
    }

    // --- Encryption key -------------------------------------------------------------------------
    this.key = new kms.Key(this, 'Key', {
      description: 'sre-agent: investigations table, notifications topic, dead-letter queue and log groups',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
      policy: new iam.PolicyDocument({
        statements: [
          new iam.PolicyStatement({
            sid: 'AccountAdministersAndDelegatesToIam',
            principals: [new iam.AccountRootPrincipal()],
            actions: KEY_ACCOUNT_ACTIONS,
            resources: ['*'],
          }),
          new iam.PolicyStatement({
            sid: 'CloudWatchLogsEncryptsThisAccountsLogGroups',
            principals: [new iam.ServicePrincipal(`logs.${this.region}.amazonaws.com`)],
            actions: KEY_LOGS_ACTIONS,
            resources: ['*'],
            conditions: {
              ArnLike: {
                'kms:EncryptionContext:aws:logs:arn': `arn:${this.partition}:logs:${this.region}:${this.account}:log-group:*`,
              },
            },
          }),
        ],
      }),
    });

    // Log groups go with the stack (they expire anyway); the table and the key it needs are retained.
    const logGroup = (id: string, logGroupName?: string): logs.LogGroup =>
      new logs.LogGroup(this, id, {
        ...(logGroupName ? { logGroupName } : {}),
        retention,
        encryptionKey: this.key,
        removalPolicy: RemovalPolicy.DESTROY,
      });

    // --- Storage and notifications -------------------------------------------------------------
    this.table = new dynamodb.Table(this, 'Investigations', {
      partitionKey: { name: tableLayout.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: tableLayout.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.key,
      timeToLiveAttribute: tableLayout.ttlAttribute,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: tableLayout.listIndex.name,
      partitionKey: { name: tableLayout.listIndex.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: tableLayout.listIndex.sortKey, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.ALL,
    });

    this.topic = new sns.Topic(this, 'Notifications', {
      displayName: 'sre-agent findings',
      masterKey: this.key,
      enforceSSL: true,
    });

    // --- Step functions (Lambda) ---------------------------------------------------------------
    const remediationSteps = remediationStepStatements(this, toolSettings.data);
    const functions = {} as Record<StepName, NodejsFunction>;
    for (const step of stepNames) {
      const name = stateNameOf[step];
      const settings = STEP_SETTINGS[step] ?? DEFAULT_STEP_SETTINGS;

      const fnLogs = logGroup(`${name}Logs`);
      const role = new iam.Role(this, `${name}Role`, {
        assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
        description: `sre-agent ${step}: writes its own log group, reads and writes investigations in the table`,
      });
      fnLogs.grantWrite(role);
      // Not table.grant(): with an index on the table it also grants `<table>/index/*`, which no step reads.
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'InvestigationsTable',
          actions: [...STORE_TABLE_ACTIONS, ...(APPROVAL_STEPS.has(step) ? APPROVAL_TABLE_ACTIONS : [])],
          resources: [this.table.tableArn],
        }),
      );
      const viaServices = [`dynamodb.${this.region}.amazonaws.com`];
      if (ANNOUNCING_STEPS.has(step)) viaServices.push(`sns.${this.region}.amazonaws.com`);
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'EncryptionKeyViaServices',
          actions: ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey'],
          resources: [this.key.keyArn],
          conditions: { StringEquals: { 'kms:ViaService': viaServices } },
        }),
      );

      const environment: Record<string, string> = {
        TABLE_NAME: this.table.tableName,
        POWERTOOLS_SERVICE_NAME: 'sre-agent',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        SRE_AGENT_MODEL_PROVIDER: modelProvider,
        ...(modelProvider === 'offline' ? {} : { SRE_AGENT_MODEL: modelName }),
        MAX_ITERATIONS: String(maxIterations),
        // The table's items expire (TTL) after as many days as the logs are kept.
        RETENTION_DAYS: String(retention),
        NODE_OPTIONS: '--enable-source-maps',
      };
      if (step === 'plan' || step === 'run-tools' || APPROVAL_STEPS.has(step)) {
        environment['SRE_AGENT_AWS_TOOLS'] = JSON.stringify(toolSettings.data);
        environment['STACK_ACCOUNT_ID'] = this.account;
      }
      // Only the step that runs tools calls AWS APIs on the investigation's behalf.
      if (step === 'run-tools') {
        for (const statement of investigationToolStatements(this, toolSettings.data)) role.addToPrincipalPolicy(statement);
        Validations.of(role).acknowledge({
          id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:*:<AWS::AccountId>:log-group:*]',
          reason:
            'Logs Insights queries the log groups of whichever services an investigation finds, in any region of this account; they are not known at deploy time. The grant is narrowed to log groups and to the query actions the tools declare.',
        });
      }
      // Remediation (when enabled): previews read the value an action changes; ResolveApproval executes the approved action.
      if (step === 'request-approval') for (const statement of remediationSteps.request) role.addToPrincipalPolicy(statement);
      if (step === 'resolve-approval') for (const statement of remediationSteps.resolve) role.addToPrincipalPolicy(statement);
      if (ANNOUNCING_STEPS.has(step)) {
        environment['NOTIFICATION_TOPIC_ARN'] = this.topic.topicArn;
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({ sid: 'PublishFindings', actions: ['sns:Publish'], resources: [this.topic.topicArn] }),
        );
      }
      // The report channels' tokens come from their secret, never from the environment; the rest of their settings do.
      if (ANNOUNCING_STEPS.has(step)) {
        const { pagerDutyFrom, slackChannel, publicUrl } = props.reportChannels ?? {};
        if (pagerDutyFrom !== undefined) environment['PAGERDUTY_FROM'] = pagerDutyFrom;
        if (slackChannel !== undefined) environment['SLACK_CHANNEL'] = slackChannel;
        if (publicUrl !== undefined) environment['SRE_AGENT_PUBLIC_URL'] = publicUrl;
      }
      if (ANNOUNCING_STEPS.has(step) && props.reportSecretArn !== undefined) {
        environment['SRE_AGENT_REPORT_SECRET_ARN'] = props.reportSecretArn;
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({ sid: 'ReadReportSecret', actions: ['secretsmanager:GetSecretValue'], resources: [props.reportSecretArn] }),
        );
      }
      if (step === 'call-model' && modelProvider === 'bedrock') {
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            sid: 'InvokeBedrockModel',
            actions: ['bedrock:InvokeModel'],
            resources: [`arn:${Stack.of(this).partition}:bedrock:${Stack.of(this).region}::foundation-model/${modelName}`],
          }),
        );
      }
      if (step === 'call-model' && modelSecretArn !== undefined) {
        environment['SRE_AGENT_MODEL_SECRET_ARN'] = modelSecretArn;
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            sid: 'ReadModelSecret',
            actions: ['secretsmanager:GetSecretValue'],
            resources: [modelSecretArn],
          }),
        );
      }

      functions[step] = new NodejsFunction(this, `${name}Function`, {
        description: `sre-agent step ${step}`,
        entry: fileURLToPath(new URL(`../functions/${step}.ts`, import.meta.url)),
        handler: 'handler',
        projectRoot: REPO_ROOT,
        depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
        runtime: lambda.Runtime.NODEJS_22_X,
        architecture: lambda.Architecture.ARM_64,
        memorySize: settings.memorySize,
        timeout: settings.timeout,
        tracing: lambda.Tracing.ACTIVE,
        role,
        logGroup: fnLogs,
        environment,
        bundling: esmBundling,
      });

      Validations.of(role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Active X-Ray tracing adds xray:PutTraceSegments and xray:PutTelemetryRecords, and RunTools\' read-only investigation APIs (DescribeAlarms, GetMetricData, LookupEvents, GetServiceGraph, ...) support no resource-level permissions (Resource "*"); every other statement names this stack\'s table, index, key, log group, topic or secret.',
      });
      Validations.of(functions[step]).acknowledge({
        id: 'AwsSolutions-L1',
        reason:
          'The design pins nodejs22.x, the Node.js major the handlers are bundled for (esbuild target node22); a newer runtime is adopted deliberately, not by default.',
      });
    }
    this.functions = functions;

    // --- Remediation role: only the function executing approved actions may assume it ----------
    const changes = remediationRoleStatements(toolSettings.data);
    if (changes.length > 0 && toolSettings.data.remediation) {
      this.remediationRole = new iam.Role(this, 'RemediationRole', {
        roleName: toolSettings.data.remediation.roleName,
        assumedBy: new iam.ArnPrincipal(functions['resolve-approval'].role!.roleArn),
        maxSessionDuration: Duration.hours(1),
        description: 'sre-agent: makes an approved change; each session is narrowed by its session policy to that action on that resource',
      });
      for (const statement of changes) this.remediationRole.addToPrincipalPolicy(statement);
      Validations.of(this.remediationRole).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'The services and functions an approved action changes are found during the investigation, not at deploy time; every session is assumed with a session policy that allows exactly one action on one resource ARN, and only ResolveApproval may assume the role.',
      });
    }

    // --- Workflow -------------------------------------------------------------------------------
    const workflowLogs = logGroup(
      'WorkflowLogs',
      // The vended-logs prefix keeps Step Functions from growing the account's log resource policy.
      `/aws/vendedlogs/states/${Names.uniqueResourceName(this, { maxLength: 200 })}-workflow`,
    );
    this.workflow = new InvestigationWorkflow(this, 'Workflow', {
      steps: functions,
      maxIterations,
      logGroup: workflowLogs,
      tracing: true,
    });
    const stateMachine = this.workflow.stateMachine;
    Validations.of(stateMachine).acknowledge(
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Step Functions log delivery (logs:CreateLogDelivery, logs:GetLogDelivery, ...) and X-Ray (xray:PutTraceSegments, ...) support no resource-level permissions, so they need Resource "*".',
      },
      ...stepNames.map((step) => ({
        // The finding names the function's logical id, e.g. Resource::<PlanFunction1A2B3C4D.Arn>:*
        id: `AwsSolutions-IAM5[Resource::<${this.getLogicalId(functions[step].node.defaultChild as CfnElement)}.Arn>:*]`,
        reason: `LambdaInvoke grants lambda:InvokeFunction on the ${step} function and its qualified versions/aliases (<function ARN>:*); the wildcard covers only that function's qualifiers.`,
      })),
    );

    // --- Trigger: CloudWatch alarms -----------------------------------------------------------
    this.alarmRuleDeadLetterQueue = new sqs.Queue(this, 'AlarmTriggerDeadLetterQueue', {
      encryption: sqs.QueueEncryption.KMS,
      encryptionMasterKey: this.key,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.alarmRuleDeadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself the dead-letter queue of the alarm rule\'s Step Functions target; a DLQ of a DLQ would only move the same undeliverable events again.',
    });

    // EventBridge writes undeliverable events to the queue, so it must be able to use the queue's key.
    // The rule is named by pattern, not by reference: the rule depends on the queue, which depends on the key.
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'EventBridgeWritesTheDeadLetterQueue',
        principals: [new iam.ServicePrincipal('events.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey'],
        resources: ['*'],
        conditions: {
          StringEquals: { 'aws:SourceAccount': this.account },
          ArnLike: { 'aws:SourceArn': `arn:${this.partition}:events:${this.region}:${this.account}:rule/*` },
        },
      }),
    );
    // --- Doors: alarm admission, health sweeps, lifecycle events, the investigations API -------
    const doors = { table: this.table, key: this.key, stateMachine, retention, ...admission };
    this.triggers = new InvestigationTriggers(this, 'Triggers', { ...doors, sweepRate, alarmDeadLetterQueue: this.alarmRuleDeadLetterQueue });
    // A decision waiting is a lifecycle event too (approval.requested).
    functions['request-approval'].addEnvironment('LIFECYCLE_BUS_NAME', this.triggers.lifecycleBus.eventBusName);
    this.triggers.lifecycleBus.grantPutEventsTo(functions['request-approval'].role!);
    this.alarmRule = this.triggers.alarmRule;
    this.api = new InvestigationApi(this, 'Api', {
      ...doors,
      ...(props.webhookSecretArn ? { webhookSecret: secretsmanager.Secret.fromSecretCompleteArn(this, 'WebhookSecret', props.webhookSecretArn) } : {}),
      ...(props.slackSigningSecretArn ? { slackSigningSecret: secretsmanager.Secret.fromSecretCompleteArn(this, 'SlackSigningSecret', props.slackSigningSecretArn) } : {}),
      ...(props.slackApprovers ? { slackApprovers: props.slackApprovers } : {}),
    });

    this.approvalRedelivery = new ApprovalRedelivery(this, 'ApprovalRedelivery', { table: this.table, key: this.key, stateMachine, retention });

    // --- Outputs --------------------------------------------------------------------------------
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'Investigations table' });
    new CfnOutput(this, 'StateMachineArn', { value: stateMachine.stateMachineArn, description: 'Investigation state machine' });
    new CfnOutput(this, 'NotificationTopicArn', { value: this.topic.topicArn, description: 'Findings topic' });
    new CfnOutput(this, 'ApiUrl', { value: this.api.api.url, description: 'Investigations API (IAM auth; the PagerDuty webhook is signature-verified)' });
    new CfnOutput(this, 'LifecycleBusName', { value: this.triggers.lifecycleBus.eventBusName, description: 'Lifecycle events bus' });
  }
}
