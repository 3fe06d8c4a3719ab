import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { SLACK_INTERACTIONS_ROUTE } from '../../cdk/investigation-api.ts';
import { SreAgentStack } from '../../cdk/sre-agent-stack.ts';
import { cdkJsonContext } from './cdk-context.ts';

const SIGNING_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:sre-agent/slack-signing-AbCdEf';

const synth = (props: { slackSigningSecretArn?: string; slackApprovers?: string } = {}) => {
  const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
  const stack = new SreAgentStack(app, 'SlackButtons', { env: { account: '123456789012', region: 'us-east-1' }, ...props });
  return { stack, template: Template.fromStack(stack) };
};

describe('Slack approval buttons on AWS', () => {
  it('with a signing secret: an open POST /webhooks/slack (Slack signs it), the secret readable by the API function alone, the user mapping in its environment', () => {
    const { stack, template } = synth({ slackSigningSecretArn: SIGNING_SECRET_ARN, slackApprovers: 'U0ALICE=arn:aws:iam::123456789012:user/alice' });
    const resources = template.findResources('AWS::ApiGateway::Resource');
    const slackId = Object.entries(resources).find(([, resource]) => resource.Properties.PathPart === SLACK_INTERACTIONS_ROUTE.split('/').at(-1))?.[0];
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method')).filter((method) => method.Properties.ResourceId?.Ref === slackId);
    expect(methods.map((method) => [method.Properties.HttpMethod, method.Properties.AuthorizationType])).toEqual([['POST', 'NONE']]);
    const readers = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties.PolicyDocument).includes(SIGNING_SECRET_ARN))
      .flatMap((policy) => policy.Properties.Roles.map((role: { Ref: string }) => role.Ref));
    expect(readers).toEqual([stack.getLogicalId(stack.api.handler.role.node.defaultChild as never)]);
    const api = template.toJSON().Resources[stack.getLogicalId(stack.api.handler.function.node.defaultChild as never)];
    expect(api.Properties.Environment.Variables).toMatchObject({ SLACK_SIGNING_SECRET_ARN: SIGNING_SECRET_ARN, SRE_AGENT_SLACK_APPROVERS: 'U0ALICE=arn:aws:iam::123456789012:user/alice' });
  });

  it('without one there is no Slack route', () => {
    const { template } = synth();
    expect(Object.values(template.findResources('AWS::ApiGateway::Resource')).map((resource) => resource.Properties.PathPart)).not.toContain('slack');
  });
});
