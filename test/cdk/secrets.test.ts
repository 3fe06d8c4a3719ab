import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { SreAgentStack } from '../../cdk/sre-agent-stack.ts';
import { REPORT_SECRET_KEYS } from '../../lib/notify/report-secret.ts';
import { cdkJsonContext } from './cdk-context.ts';

type Resource = { Type: string; Properties: Record<string, any> };
type Statement = { Action: string | string[]; Resource?: unknown };

const MODEL_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:sre-agent/model-AbCdEf';
const WEBHOOK_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:sre-agent/pagerduty-webhook-GhIjKl';
const REPORT_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:sre-agent/report-MnOpQr';

let stack: SreAgentStack;
let resources: Record<string, Resource>;

beforeAll(() => {
  // What is granted is the question here, not the bundles: skip esbuild (test/cdk/stack.test.ts checks them).
  const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  stack = new SreAgentStack(app, 'SecretsTest', {
    env: { account: '123456789012', region: 'us-east-1' },
    modelProvider: 'openai',
    modelName: 'gpt-test',
    modelSecretArn: MODEL_SECRET_ARN,
    webhookSecretArn: WEBHOOK_SECRET_ARN,
    reportSecretArn: REPORT_SECRET_ARN,
    reportChannels: { pagerDutyFrom: 'sre-agent@example.com', slackChannel: 'C0INCIDENTS', publicUrl: 'https://sre-agent.example.com' },
  });
  resources = Template.fromStack(stack).toJSON()['Resources'] as Record<string, Resource>;
});

const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const roleOf = (fn: { role?: unknown }) => stack.getLogicalId((fn.role as { node: { defaultChild: CfnElement } }).node.defaultChild);
const actionsOf = (statement: Statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]);

describe('secrets on AWS', () => {
  it('grants secretsmanager:GetSecretValue on each secret to exactly the function that reads it, and nothing else of Secrets Manager to anyone', () => {
    const grants = ofType('AWS::IAM::Policy').flatMap(([, policy]) =>
      (policy.Properties['PolicyDocument'].Statement as Statement[])
        .filter((statement) => actionsOf(statement).some((action) => action.startsWith('secretsmanager:')))
        .flatMap((statement) =>
          (policy.Properties['Roles'] as { Ref: string }[]).map((role) => ({ role: role.Ref, actions: actionsOf(statement), resource: statement.Resource })),
        ),
    );
    expect(grants).toHaveLength(3);
    expect(grants).toEqual(
      expect.arrayContaining([
        { role: roleOf(stack.functions['call-model']), actions: ['secretsmanager:GetSecretValue'], resource: MODEL_SECRET_ARN },
        { role: roleOf(stack.functions.publish), actions: ['secretsmanager:GetSecretValue'], resource: REPORT_SECRET_ARN },
        { role: roleOf({ role: stack.api.handler.role }), actions: ['secretsmanager:GetSecretValue'], resource: WEBHOOK_SECRET_ARN },
      ]),
    );
  });

  it('tells each reader where its secret is, and puts no token in any environment', () => {
    const functions = ofType('AWS::Lambda::Function').map(([id, fn]) => ({ id, variables: (fn.Properties['Environment']?.Variables ?? {}) as Record<string, unknown> }));
    const holding = (name: string) => functions.filter(({ variables }) => name in variables).map(({ id }) => id);
    const idOf = (fn: { node: { defaultChild?: unknown } }) => stack.getLogicalId(fn.node.defaultChild as CfnElement);
    expect(holding('SRE_AGENT_MODEL_SECRET_ARN')).toEqual([idOf(stack.functions['call-model'])]);
    expect(holding('SRE_AGENT_REPORT_SECRET_ARN')).toEqual([idOf(stack.functions.publish)]);
    expect(holding('PAGERDUTY_WEBHOOK_SECRET_ARN')).toEqual([idOf(stack.api.handler.function)]);
    for (const key of [...REPORT_SECRET_KEYS, 'PAGERDUTY_WEBHOOK_SECRET']) expect(holding(key), key).toEqual([]);
    const publish = functions.find(({ id }) => id === idOf(stack.functions.publish))!;
    expect(publish.variables).toMatchObject({
      SRE_AGENT_REPORT_SECRET_ARN: REPORT_SECRET_ARN,
      PAGERDUTY_FROM: 'sre-agent@example.com',
      SLACK_CHANNEL: 'C0INCIDENTS',
      SRE_AGENT_PUBLIC_URL: 'https://sre-agent.example.com',
    });
  });

  it('refuses a secret given by name instead of ARN before synthesis', () => {
    const scratch = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    expect(() => new SreAgentStack(scratch, 'BadReport', { reportSecretArn: 'sre-agent/report' })).toThrow(/reportSecretArn must be a Secrets Manager secret ARN/);
    expect(() => new SreAgentStack(scratch, 'BadWebhook', { webhookSecretArn: 'pagerduty' })).toThrow(/webhookSecretArn must be a Secrets Manager secret ARN/);
  });
});
