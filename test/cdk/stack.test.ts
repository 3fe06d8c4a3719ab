import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { stepNames, workflowStateSteps, type StepName } from '../../cdk/investigation-workflow.ts';
import { buildLocalWorkflowDefinition, localStepFunctionArn, resolveIntrinsics } from '../../cdk/local-definition.ts';
import { SreAgentStack } from '../../cdk/sre-agent-stack.ts';
import { awsToolIamActions } from '../../integrations/aws/index.ts';
import { awsToolSettings } from '../../integrations/aws/settings.ts';
import { cdkJsonContext } from './cdk-context.ts';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };
type Statement = { Effect: string; Action: string | string[]; Resource?: unknown; Condition?: unknown; Sid?: string };

const MODEL_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:sre-agent/model-AbCdEf';
const MAX_ITERATIONS = 6;
const ESM_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

const actionsOf = (statement: Statement): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

/** DynamoDB SDK command → the IAM action it needs; a transaction's actions are those of its members. */
const COMMAND_ACTIONS: Record<string, string[]> = {
  Get: ['GetItem'], GetItem: ['GetItem'], TransactGet: ['GetItem'], TransactGetItems: ['GetItem'],
  Put: ['PutItem'], PutItem: ['PutItem'],
  Update: ['UpdateItem'], UpdateItem: ['UpdateItem'],
  Delete: ['DeleteItem'], DeleteItem: ['DeleteItem'],
  Query: ['Query'], Scan: ['Scan'],
  BatchGet: ['BatchGetItem'], BatchGetItem: ['BatchGetItem'],
  BatchWrite: ['BatchWriteItem'], BatchWriteItem: ['BatchWriteItem'],
  DescribeTable: ['DescribeTable'],
};
const TRANSACTION_MEMBER_ACTIONS: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' };

/**
 * The table actions a function's bundle can issue. The SDK stays external to the bundle, so every
 * DynamoDB command the function's code constructs is a named import of the SDK's packages; for a
 * transaction, the kinds of member the code builds (`Put:{`, `Update:{`, ...) say what it writes.
 */
function tableActionsOfBundle(code: string): Set<string> {
  const used = new Set<string>();
  const commands = [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']@aws-sdk\/(?:lib-dynamodb|client-dynamodb)["']/g)]
    .flatMap((match) => match[1]!.split(','))
    .map((binding) => binding.trim().split(/\s+as\s+/)[0]!)
    .filter((name) => name.endsWith('Command'));
  for (const command of commands) {
    const name = command.replace(/Command$/, '');
    if (name === 'TransactWrite' || name === 'TransactWriteItems') {
      for (const [member, action] of Object.entries(TRANSACTION_MEMBER_ACTIONS)) {
        if (new RegExp(`[{,]\\s*${member}\\s*:\\s*\\{`).test(code)) used.add(action);
      }
      continue;
    }
    const actions = COMMAND_ACTIONS[name];
    if (!actions) throw new Error(`a bundle sends ${command}: add the IAM action it needs to COMMAND_ACTIONS`);
    for (const action of actions) used.add(action);
  }
  return new Set([...used].map((action) => `dynamodb:${action}`));
}

// One synthesis (seven esbuild bundles) shared by every test in this file.
let app: App;
let stack: SreAgentStack;
let template: Template;
let resources: Record<string, Resource>;

function ofType(type: string): Record<string, Resource> {
  return Object.fromEntries(Object.entries(resources).filter(([, r]) => r.Type === type));
}
function logicalId(element: unknown): string {
  return stack.getLogicalId(element as CfnElement);
}
function functionOf(step: StepName): Resource {
  const fn = resources[logicalId(stack.functions[step].node.defaultChild)];
  if (!fn) throw new Error(`no function for ${step}`);
  return fn;
}
function bundleOf(step: StepName): string {
  const assetHash = String(functionOf(step).Properties['Code'].S3Key).replace(/\.zip$/, '');
  return readFileSync(join(app.outdir, `asset.${assetHash}`, 'index.mjs'), 'utf8');
}
function policyStatementsOf(step: StepName): Statement[] {
  const roleId = logicalId(stack.functions[step].role!.node.defaultChild);
  return Object.values(ofType('AWS::IAM::Policy'))
    .filter((p) => (p.Properties['Roles'] as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId })))
    .flatMap((p) => p.Properties['PolicyDocument'].Statement as Statement[]);
}

beforeAll(() => {
  // CloudFormation rule validation (~13 s of WASM for this template) runs in nag.test.ts.
  app = new App({ context: cdkJsonContext(), builtinCloudFormationValidation: false });
  stack = new SreAgentStack(app, 'SreAgentTest', {
    maxIterations: MAX_ITERATIONS,
    modelProvider: 'bedrock',
    modelName: 'test-model',
    modelSecretArn: MODEL_SECRET_ARN,
    retentionDays: 14,
  });
  template = Template.fromStack(stack);
  resources = template.toJSON()['Resources'] as Record<string, Resource>;
});

describe('SreAgentStack', () => {
  it('has the Investigations table: pk/sk, on demand, PITR, KMS, TTL, byCreatedAt, retained', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayWith([
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
          { AttributeName: 'gsi1pk', AttributeType: 'S' },
          { AttributeName: 'gsi1sk', AttributeType: 'S' },
        ]),
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: {
          SSEEnabled: true,
          SSEType: 'KMS',
          KMSMasterKeyId: { 'Fn::GetAtt': [logicalId(stack.key.node.defaultChild), 'Arn'] },
        },
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
        GlobalSecondaryIndexes: [
          {
            IndexName: 'byCreatedAt',
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      },
    });
  });

  it('encrypts every queue with the project key', () => {
    const keyArn = { 'Fn::GetAtt': [logicalId(stack.key.node.defaultChild), 'Arn'] };
    const queues = Object.entries(ofType('AWS::SQS::Queue'));
    expect(queues.length).toBeGreaterThan(0);
    for (const [id, queue] of queues) {
      expect(queue.Properties['KmsMasterKeyId'], id).toEqual(keyArn);
      expect(queue.Properties, id).not.toHaveProperty('SqsManagedSseEnabled');
    }
  });

  it('has one customer-managed key with rotation, used by the topic and every log group', () => {
    template.resourceCountIs('AWS::KMS::Key', 1);
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    const keyArn = { 'Fn::GetAtt': [logicalId(stack.key.node.defaultChild), 'Arn'] };
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: keyArn });
    const logGroups = Object.values(ofType('AWS::Logs::LogGroup'));
    expect(logGroups).toHaveLength(15); // nine step functions, the workflow, three trigger functions, the approval redelivery, the API access logs
    for (const group of logGroups) {
      expect(group.Properties['KmsKeyId']).toEqual(keyArn);
      expect(group.Properties['RetentionInDays']).toBe(14);
    }
  });

  it('has thirteen Node.js 22 arm64 functions (nine steps, three doors, the approval redelivery), traced, each with its own log group', () => {
    const functions = ofType('AWS::Lambda::Function');
    expect(Object.keys(functions)).toHaveLength(13);
    const logGroupIds = new Set(Object.keys(ofType('AWS::Logs::LogGroup')));
    const seenLogGroups = new Set<string>();
    for (const fn of Object.values(functions)) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
      });
      const group = fn.Properties['LoggingConfig']?.LogGroup?.Ref as string;
      expect(logGroupIds.has(group)).toBe(true);
      seenLogGroups.add(group);
    }
    expect(seenLogGroups.size).toBe(Object.keys(functions).length);
  });

  it('sizes, configures and bundles each step', () => {
    for (const step of stepNames) {
      const fn = functionOf(step);
      const callModel = step === 'call-model';
      expect(fn.Properties['MemorySize'], step).toBe(callModel ? 1024 : 512);
      expect(fn.Properties['Timeout'], step).toBe(callModel ? 600 : 300);
      const env = fn.Properties['Environment'].Variables as Record<string, unknown>;
      expect(env, step).toMatchObject({
        TABLE_NAME: { Ref: logicalId(stack.table.node.defaultChild) },
        POWERTOOLS_SERVICE_NAME: 'sre-agent',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        SRE_AGENT_MODEL_PROVIDER: 'bedrock',
        SRE_AGENT_MODEL: 'test-model',
        MAX_ITERATIONS: String(MAX_ITERATIONS),
      });
      if (step === 'publish' || step === 'request-approval') {
        expect(env['NOTIFICATION_TOPIC_ARN']).toEqual({ Ref: logicalId(stack.topic.node.defaultChild) });
      } else {
        expect(env, step).not.toHaveProperty('NOTIFICATION_TOPIC_ARN');
      }
      if (callModel) expect(env['SRE_AGENT_MODEL_SECRET_ARN']).toBe(MODEL_SECRET_ARN);
      else expect(env, step).not.toHaveProperty('SRE_AGENT_MODEL_SECRET_ARN');

      // Bundled locally by esbuild as ESM with the require() shim banner and a source map.
      const assetHash = String(fn.Properties['Code'].S3Key).replace(/\.zip$/, '');
      const assetDir = join(app.outdir, `asset.${assetHash}`);
      const code = readFileSync(join(assetDir, 'index.mjs'), 'utf8');
      expect(code.startsWith(ESM_BANNER), step).toBe(true);
      expect(code).toMatch(/export\s*\{[^}]*as handler\s*\}|export\s+(async\s+)?(const|function)\s+handler/);
      expect(code).toContain('//# sourceMappingURL=index.mjs.map');
    }
  });

  it('has no wildcard action in any IAM policy', () => {
    const policies = Object.entries(ofType('AWS::IAM::Policy'));
    expect(policies.length).toBeGreaterThanOrEqual(9); // 7 functions, state machine, EventBridge
    for (const [id, policy] of policies) {
      for (const statement of policy.Properties['PolicyDocument'].Statement as Statement[]) {
        for (const action of actionsOf(statement)) expect(action, `${id}: ${action}`).not.toContain('*');
      }
    }
    for (const [id, role] of Object.entries(ofType('AWS::IAM::Role'))) {
      expect(role.Properties['ManagedPolicyArns'], `${id} managed policies`).toBeUndefined();
      expect(role.Properties['Policies'], `${id} inline policies`).toBeUndefined();
    }
  });

  it('has no wildcard action in any Allow statement of a resource policy', () => {
    const documents: Array<[string, Statement[]]> = [
      ...Object.entries(ofType('AWS::KMS::Key')).map(
        ([id, r]): [string, Statement[]] => [id, r.Properties['KeyPolicy'].Statement],
      ),
      ...Object.entries({ ...ofType('AWS::SQS::QueuePolicy'), ...ofType('AWS::SNS::TopicPolicy') }).map(
        ([id, r]): [string, Statement[]] => [id, r.Properties['PolicyDocument'].Statement],
      ),
    ];
    expect(documents).toHaveLength(3);
    for (const [id, statements] of documents) {
      for (const statement of statements.filter((s) => s.Effect === 'Allow')) {
        for (const action of actionsOf(statement)) expect(action, `${id}: ${action}`).not.toContain('*');
      }
    }
    // The key keeps PutKeyPolicy for the account, so its explicit action list can never lock it out.
    const keyPolicy = Object.values(ofType('AWS::KMS::Key'))[0]!.Properties['KeyPolicy'].Statement as Statement[];
    expect(keyPolicy.flatMap(actionsOf)).toContain('kms:PutKeyPolicy');
  });

  it('grants each function only its table, key, log group and step-specific extras', () => {
    const tableArn = { 'Fn::GetAtt': [logicalId(stack.table.node.defaultChild), 'Arn'] };
    for (const step of stepNames) {
      const statements = policyStatementsOf(step);
      const actions = statements.flatMap(actionsOf);
      const table = statements.find((s) => s.Sid === 'InvestigationsTable');
      expect(table?.Resource, step).toEqual(tableArn);
      const key = statements.find((s) => s.Sid === 'EncryptionKeyViaServices');
      expect(key?.Condition, step).toBeDefined();
      expect(actions, step).toEqual(expect.arrayContaining(['logs:CreateLogStream', 'logs:PutLogEvents']));

      const services = new Set(actions.map((a) => a.split(':')[0]));
      const expected = new Set(['logs', 'dynamodb', 'kms', 'xray']);
      if (step === 'publish') expected.add('sns');
      // RequestApproval asks the approvers on the findings' channels and puts approval.requested on the lifecycle bus.
      if (step === 'request-approval') expected.add('sns').add('events');
      if (step === 'call-model') expected.add('secretsmanager').add('bedrock');
      // RunTools calls the investigation tools' read APIs (test/cdk/tool-permissions.test.ts checks them action by action).
      if (step === 'run-tools') for (const action of awsToolIamActions(awsToolSettings.parse({}))) expected.add(action.split(':')[0]!);
      expect(services, step).toEqual(expected);
    }
    const publish = policyStatementsOf('publish').find((s) => actionsOf(s).includes('sns:Publish'));
    expect(publish?.Resource).toEqual({ Ref: logicalId(stack.topic.node.defaultChild) });
    const secret = policyStatementsOf('call-model').find((s) => actionsOf(s).includes('secretsmanager:GetSecretValue'));
    expect(secret).toMatchObject({ Action: 'secretsmanager:GetSecretValue', Resource: MODEL_SECRET_ARN });
  });

  it('grants each function exactly the table actions its bundled code issues: none unused, none missing', () => {
    for (const step of stepNames) {
      const used = tableActionsOfBundle(bundleOf(step));
      // Every step reads its investigation and commits through the store's transaction of Puts; the approval steps also update approval records from pending.
      const approvalStep = step === 'request-approval' || step === 'resolve-approval';
      expect([...used].sort(), step).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', ...(approvalStep ? ['dynamodb:UpdateItem'] : [])]);
      const granted = policyStatementsOf(step).flatMap(actionsOf).filter((action) => action.startsWith('dynamodb:'));
      expect(new Set(granted), step).toEqual(used);
      for (const unused of ['dynamodb:Scan', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:BatchGetItem', ...(approvalStep ? [] : ['dynamodb:UpdateItem']), 'dynamodb:DescribeTable']) {
        expect(granted, step).not.toContain(unused);
      }
    }
    // No step lists investigations, so no step's statement reaches the table's indexes.
    for (const step of stepNames) expect(JSON.stringify(policyStatementsOf(step)), step).not.toContain('/index/');
  });

  it('lets only the deciding functions answer an approval wait: the API and the scheduled redelivery', () => {
    const callbackActions = ['states:SendTaskSuccess', 'states:SendTaskFailure'];
    const roleIdsOf = (policy: Resource) => (policy.Properties['Roles'] as { Ref: string }[]).map((role) => role.Ref);
    const answering = Object.values(ofType('AWS::IAM::Policy')).filter((policy) =>
      (policy.Properties['PolicyDocument'].Statement as Statement[]).some((statement) => actionsOf(statement).some((action) => callbackActions.includes(action))),
    );
    expect(answering.flatMap(roleIdsOf).sort()).toEqual([logicalId(stack.api.handler.role.node.defaultChild), logicalId(stack.approvalRedelivery.role.node.defaultChild)].sort());
    const machineArn = { Ref: logicalId(stack.workflow.stateMachine.node.defaultChild) };
    for (const policy of answering) {
      const statement = (policy.Properties['PolicyDocument'].Statement as Statement[]).find((candidate) => candidate.Sid === 'AnswerApprovalWaits');
      expect([...actionsOf(statement!)].sort()).toEqual([...callbackActions].sort());
      expect(statement?.Resource).toEqual(machineArn);
    }
    // The redelivery runs every minute and may read, list (the status index) and mark approval records, nothing else.
    const redelivery = Object.values(ofType('AWS::IAM::Policy')).find((policy) => roleIdsOf(policy).includes(logicalId(stack.approvalRedelivery.role.node.defaultChild)))!;
    const table = (redelivery.Properties['PolicyDocument'].Statement as Statement[]).find((statement) => statement.Sid === 'ApprovalRecords');
    expect(actionsOf(table!).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    expect(JSON.stringify(table!.Resource)).toContain('/index/');
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId(stack.approvalRedelivery.function.node.defaultChild), 'Arn'] } })],
    });
  });

  it('expires the table items after the log retention: one setting, in every function', () => {
    // Every function that writes items (the steps and the doors' trigger ledger) sets their TTL from it.
    for (const [id, fn] of Object.entries(ofType('AWS::Lambda::Function'))) {
      expect(fn.Properties['Environment'].Variables['RETENTION_DAYS'], id).toBe('14');
    }
    for (const group of Object.values(ofType('AWS::Logs::LogGroup'))) expect(group.Properties['RetentionInDays']).toBe(14);
  });

  it('runs a Standard state machine with ALL logging (no execution data) and X-Ray', () => {
    template.resourceCountIs('AWS::StepFunctions::StateMachine', 1);
    template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineType: 'STANDARD',
      LoggingConfiguration: {
        Level: 'ALL',
        IncludeExecutionData: false,
        Destinations: [{ CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WorkflowLogs'), 'Arn'] } } }],
      },
      TracingConfiguration: { Enabled: true },
    });
  });

  it('deploys the same definition the local runner executes', () => {
    const machine = Object.values(ofType('AWS::StepFunctions::StateMachine'))[0]!;
    const deployed = JSON.parse(resolveIntrinsics(machine.Properties['DefinitionString']) as string) as {
      States: Record<string, Record<string, unknown>>;
    };
    for (const [state, step] of Object.entries(workflowStateSteps)) {
      const task = deployed.States[state]!;
      const fnId = logicalId(stack.functions[step].node.defaultChild);
      // The approval state waits for a task token: its function is in Parameters, not Resource.
      const invoked = task['Resource'] === 'arn:aws:states:::lambda:invoke.waitForTaskToken' ? (task['Parameters'] as Record<string, unknown>) : task;
      const field = invoked === task ? 'Resource' : 'FunctionName';
      expect(invoked[field], state).toMatch(new RegExp(`placeholder-${fnId}$`));
      invoked[field] = localStepFunctionArn(step);
    }
    expect(deployed).toEqual(buildLocalWorkflowDefinition({ maxIterations: MAX_ITERATIONS }).definition);
  });

  it('starts an investigation for every CloudWatch alarm entering ALARM, with a DLQ', () => {
    const queueId = logicalId(stack.alarmRuleDeadLetterQueue.node.defaultChild);
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.cloudwatch'],
        'detail-type': ['CloudWatch Alarm State Change'],
        detail: { state: { value: ['ALARM'] } },
      },
      // Through admission (dedup, storm grouping, the running cap), which starts the state machine.
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [logicalId(stack.triggers.triggerAdmission.function.node.defaultChild), 'Arn'] },
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queueId, 'Arn'] } },
        }),
      ],
    });
    // The rule may use the key only for this account's rules: EventBridge encrypts what it sends to the DLQ.
    const keyPolicy = Object.values(ofType('AWS::KMS::Key'))[0]!.Properties['KeyPolicy'].Statement as Statement[];
    const eventBridge = keyPolicy.find((statement) => statement.Sid === 'EventBridgeWritesTheDeadLetterQueue');
    expect(eventBridge).toMatchObject({ Effect: 'Allow', Principal: { Service: 'events.amazonaws.com' } });
    expect(actionsOf(eventBridge!).sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey']);
    expect(JSON.stringify(eventBridge!.Condition)).toContain('aws:SourceAccount');
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('enforces SSL on the notifications topic', () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('outputs the table name, state machine ARN and topic ARN', () => {
    template.hasOutput('TableName', { Value: { Ref: logicalId(stack.table.node.defaultChild) } });
    template.hasOutput('StateMachineArn', { Value: { Ref: logicalId(stack.workflow.stateMachine.node.defaultChild) } });
    template.hasOutput('NotificationTopicArn', { Value: { Ref: logicalId(stack.topic.node.defaultChild) } });
  });

  it('rejects invalid props before synthesis', () => {
    const scratch = new App();
    expect(() => new SreAgentStack(scratch, 'BadRetention', { retentionDays: 10 })).toThrow(/retentionDays/);
    expect(() => new SreAgentStack(scratch, 'BadSecret', { modelSecretArn: 'my-secret' })).toThrow(/modelSecretArn/);
  });
});
