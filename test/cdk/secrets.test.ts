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
  const functions = () =>
    ofType('AWS::Lambda::Function').map(([id, fn]) => ({
      id,
      role: (fn.Properties['Role'] as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0],
      variables: (fn.Properties['Environment']?.Variables ?? {}) as Record<string, unknown>,
    }));
  /** The functions that tell humans (findings, and any other notice) hold the topic; they alone need the channels' tokens. */
  const announcing = () => functions().filter(({ variables }) => 'NOTIFICATION_TOPIC_ARN' in variables);
  const idOf = (fn: { node: { defaultChild?: unknown } }) => stack.getLogicalId(fn.node.defaultChild as CfnElement);

  it('grants secretsmanager:GetSecretValue on each secret to exactly the functions that read it, and nothing else of Secrets Manager to anyone', () => {
    const readers = new Map<unknown, string[]>();
    for (const [, policy] of ofType('AWS::IAM::Policy')) {
      for (const statement of policy.Properties['PolicyDocument'].Statement as Statement[]) {
        if (!actionsOf(statement).some((action) => action.startsWith('secretsmanager:'))) continue;
        expect(actionsOf(statement)).toEqual(['secretsmanager:GetSecretValue']);
        const roles = (policy.Properties['Roles'] as { Ref: string }[]).map((role) => role.Ref);
        readers.set(statement.Resource, [...(readers.get(statement.Resource) ?? []), ...roles].sort());
      }
    }
    expect([...readers.keys()].sort()).toEqual([MODEL_SECRET_ARN, REPORT_SECRET_ARN, WEBHOOK_SECRET_ARN].sort());
    expect(readers.get(MODEL_SECRET_ARN)).toEqual([roleOf(stack.functions['call-model'])]);
    expect(readers.get(WEBHOOK_SECRET_ARN)).toEqual([roleOf({ role: stack.api.handler.role })]);
    expect(readers.get(REPORT_SECRET_ARN)).toEqual(announcing().map(({ role }) => role).sort());
    expect(readers.get(REPORT_SECRET_ARN)).toContain(roleOf(stack.functions.publish));
  });

  it('tells each reader where its secret is, and puts no token in any environment', () => {
    const holding = (name: string) => functions().filter(({ variables }) => name in variables).map(({ id }) => id).sort();
    expect(holding('SRE_AGENT_MODEL_SECRET_ARN')).toEqual([idOf(stack.functions['call-model'])]);
    expect(holding('SRE_AGENT_REPORT_SECRET_ARN')).toEqual(announcing().map(({ id }) => id).sort());
    expect(holding('PAGERDUTY_WEBHOOK_SECRET_ARN')).toEqual([idOf(stack.api.handler.function)]);
    for (const key of [...REPORT_SECRET_KEYS, 'PAGERDUTY_WEBHOOK_SECRET']) expect(holding(key), key).toEqual([]);
    const publish = functions().find(({ id }) => id === idOf(stack.functions.publish))!;
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
