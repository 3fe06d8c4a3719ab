import { App, Duration, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, InvestigationApi, WEBHOOK_ROUTE } from '../../cdk/investigation-api.ts';
import { InvestigationTriggers } from '../../cdk/triggers.ts';
import { cdkJsonContext } from '../cdk/cdk-context.ts';

type Resource = { Type: string; Properties: Record<string, any> };

describe('API and trigger constructs', () => {
  let template: Template;
  let stack: Stack;
  let api: InvestigationApi;
  let triggers: InvestigationTriggers;

  beforeAll(() => {
    const app = new App({ context: cdkJsonContext() });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    stack = new Stack(app, 'ConstructsUnderTest', { env: { account: '123456789012', region: 'us-east-1' } });
    const key = new kms.Key(stack, 'Key', { enableKeyRotation: true });
    const table = new dynamodb.Table(stack, 'Table', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'sk', type: dynamodb.AttributeType.STRING },
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryptionKey: key,
      encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
    });
    const stateMachine = new sfn.StateMachine(stack, 'Machine', { definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(stack, 'Pass')) });
    const deadLetters = new sqs.Queue(stack, 'DeadLetters', { enforceSSL: true, encryption: sqs.QueueEncryption.KMS_MANAGED });
    const webhookSecret = new secretsmanager.Secret(stack, 'WebhookSecret');
    // The fixtures stand in for the stack's own table, workflow, queue and secret; their findings are the stack's business.
    Validations.of(stateMachine).acknowledge({ id: 'AwsSolutions-SF1', reason: 'test fixture' }, { id: 'AwsSolutions-SF2', reason: 'test fixture' });
    Validations.of(deadLetters).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'test fixture: it is the dead-letter queue' });
    Validations.of(webhookSecret).acknowledge({ id: 'AwsSolutions-SMG4', reason: 'test fixture: PagerDuty rotates webhook secrets, not Secrets Manager' });
    const shared = { table, key, stateMachine, retention: logs.RetentionDays.ONE_MONTH };
    api = new InvestigationApi(stack, 'Api', { ...shared, webhookSecret, maxRunning: 5 });
    triggers = new InvestigationTriggers(stack, 'Triggers', { ...shared, sweepRate: Duration.hours(1), alarmDeadLetterQueue: deadLetters });
    template = Template.fromStack(stack);
  });

  const resources = (type: string): Record<string, Resource> => template.findResources(type) as Record<string, Resource>;
  const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as never);

  it('puts IAM auth on every route but the PagerDuty webhook, which is open (signature-verified)', () => {
    const paths = new Map<string, string>();
    const resourceList = resources('AWS::ApiGateway::Resource');
    const pathOf = (id: string): string => {
      const resource = resourceList[id];
      if (!resource) return '';
      const parent = resource.Properties.ParentId;
      return `${typeof parent === 'object' && 'Ref' in parent ? pathOf(parent.Ref) : ''}/${resource.Properties.PathPart}`;
    };
    for (const id of Object.keys(resourceList)) paths.set(id, pathOf(id));
    const methods = Object.values(resources('AWS::ApiGateway::Method')).map((method) => ({
      path: paths.get(method.Properties.ResourceId.Ref) ?? '/',
      method: method.Properties.HttpMethod as string,
      auth: method.Properties.AuthorizationType as string,
    }));
    expect(methods.map(({ path, method }) => [path, method]).sort()).toEqual([...API_ROUTES].map(([path, method]) => [path, method]).sort());
    for (const { path, auth } of methods) expect(auth).toBe(path === WEBHOOK_ROUTE ? 'NONE' : 'AWS_IAM');
  });

  it('grants the webhook secret only to the API function', () => {
    const secretId = Object.keys(resources('AWS::SecretsManager::Secret'))[0]!;
    const policies = Object.entries(resources('AWS::IAM::Policy'));
    const readers = policies
      .filter(([, policy]) => JSON.stringify(policy.Properties.PolicyDocument).includes(secretId))
      .flatMap(([, policy]) => policy.Properties.Roles.map((role: { Ref: string }) => role.Ref));
    expect(readers).toEqual([logicalId(api.handler.role)]);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ PAGERDUTY_WEBHOOK_SECRET_ARN: { Ref: secretId }, SRE_AGENT_MAX_RUNNING: '5' }) },
    });
  });

  it('routes CloudWatch alarms entering ALARM through admission, with a dead-letter queue', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: ['aws.cloudwatch'], 'detail-type': ['CloudWatch Alarm State Change'], detail: { state: { value: ['ALARM'] } } },
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId(triggers.triggerAdmission.function), 'Arn'] }, DeadLetterConfig: Match.anyValue() })],
    });
  });

  it('schedules the health sweep with EventBridge Scheduler at the configured rate, through admission with its scheduled time', () => {
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(1 hour)',
      Target: Match.objectLike({
        Arn: { 'Fn::GetAtt': [logicalId(triggers.triggerAdmission.function), 'Arn'] },
        Input: JSON.stringify({ schedule: { sweep: 'health', scheduledAt: '<aws.scheduler.scheduled-time>' } }),
      }),
    });
  });

  it('sends execution status changes to the lifecycle function and alarms on failed executions', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: ['aws.states'], 'detail-type': ['Step Functions Execution Status Change'], detail: Match.anyValue() },
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'ExecutionsFailed', Namespace: 'AWS/States', Threshold: 1 });
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    template.resourceCountIs('AWS::Events::EventBus', 1);
  });
});
