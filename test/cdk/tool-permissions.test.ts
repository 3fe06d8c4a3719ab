import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { awsRemediationIamActions, awsToolIamActions } from '../../integrations/aws/index.ts';
import { awsToolSettings } from '../../integrations/aws/settings.ts';
import { SreAgentStack, type SreAgentStackProps } from '../../cdk/sre-agent-stack.ts';
import { stepNames, type StepName } from '../../lib/workflow/control.ts';
import { cdkJsonContext } from './cdk-context.ts';

type Statement = { Action: string | string[]; Resource?: unknown; Sid?: string };

/** Every statement of each step function's role, by step. */
const statementsByStep = (props: SreAgentStackProps = {}): Record<StepName, Statement[]> => {
  const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
  const template = Template.fromStack(new SreAgentStack(app, 'ToolPermissions', { env: { account: '123456789012', region: 'us-east-1' }, ...props }));
  const functions = template.findResources('AWS::Lambda::Function');
  const policies = Object.values(template.findResources('AWS::IAM::Policy'));
  const byStep = {} as Record<StepName, Statement[]>;
  for (const step of stepNames) {
    const fn = Object.values(functions).find((resource) => resource.Properties.Description === `sre-agent step ${step}`);
    const roleRef = JSON.stringify(fn?.Properties.Role);
    const roleId = /"Fn::GetAtt":\["([^"]+)"/.exec(roleRef)?.[1];
    byStep[step] = policies
      .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${roleId}"`))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
  }
  return byStep;
};

const actionsOf = (statements: readonly Statement[]): string[] => statements.flatMap((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]));

describe('the AWS tools\' permissions', () => {
  const defaults = awsToolIamActions(awsToolSettings.parse({}));
  const statements = statementsByStep();

  it('grants the tool-running function exactly the enabled tools\' declared actions, no * action', () => {
    expect(defaults.length).toBeGreaterThan(10);
    const granted = actionsOf(statements['run-tools'].filter((statement) => statement.Sid?.startsWith('InvestigationTools')));
    expect([...new Set(granted)].sort()).toEqual(defaults);
    for (const action of actionsOf(statements['run-tools'])) expect(action).not.toMatch(/\*/);
  });

  it('gives no other step any tool action', () => {
    for (const step of stepNames.filter((name) => name !== 'run-tools')) {
      const leaked = actionsOf(statements[step]).filter((action) => defaults.includes(action) && !action.startsWith('logs:Create') && !action.startsWith('logs:Put'));
      expect(leaked, step).toEqual([]);
    }
  });

  it('narrows Logs Insights queries to log groups', () => {
    const startQuery = statements['run-tools'].find((statement) => actionsOf([statement]).includes('logs:StartQuery'));
    expect(JSON.stringify(startQuery?.Resource)).toContain(':log-group:*');
  });

  it('follows the settings: fewer tools, fewer actions; a cross-account role may be assumed', () => {
    const narrow = statementsByStep({ awsTools: { enabledTools: ['list_alarms', 'get_metrics'], crossAccount: { roleName: 'sre-agent-read-only' } } });
    const granted = actionsOf(narrow['run-tools'].filter((statement) => statement.Sid?.startsWith('InvestigationTools')));
    expect(granted.every((action) => action.startsWith('cloudwatch:') || action.startsWith('tag:') || action.startsWith('ecs:'))).toBe(true);
    expect(granted).not.toContain('logs:StartQuery');
    const assume = narrow['run-tools'].find((statement) => statement.Sid === 'AssumeCrossAccountReadOnlyRole');
    expect(assume?.Action).toBe('sts:AssumeRole');
    expect(JSON.stringify(assume?.Resource)).toContain(':role/sre-agent-read-only');
  });

  it('refuses settings that do not parse, naming the field', () => {
    expect(() => statementsByStep({ awsTools: { enabledTools: ['no_such_tool' as never] } })).toThrow(/awsTools is not valid[\s\S]*enabledTools/);
  });

  it('with remediation enabled: only ResolveApproval may assume the remediation role, which alone holds the change actions; the approval steps get the reads', () => {
    const settings = { enabledTools: ['list_alarms', 'get_metrics', 'describe_service', 'ecs_rollback_task_definition', 'lambda_set_reserved_concurrency'] as never, remediation: { roleName: 'sre-agent-remediation' } };
    const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
    const stack = new SreAgentStack(app, 'Remediation', { env: { account: '123456789012', region: 'us-east-1' }, awsTools: settings });
    const template = Template.fromStack(stack);
    const { reads, changes } = awsRemediationIamActions(awsToolSettings.parse(settings));
    expect(changes).toEqual(['ecs:UpdateService', 'lambda:PutFunctionConcurrency']);
    const roleId = stack.getLogicalId(stack.remediationRole!.node.defaultChild as never);
    const role = template.toJSON().Resources[roleId];
    expect(role.Properties.RoleName).toBe('sre-agent-remediation');
    const resolveRoleId = stack.getLogicalId(stack.functions['resolve-approval'].role!.node.defaultChild as never);
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { AWS: { 'Fn::GetAtt': [resolveRoleId, 'Arn'] } } },
    ]);
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    const holders = (action: string) =>
      policies
        .filter((policy) => actionsOf(policy.Properties.PolicyDocument.Statement).includes(action))
        .flatMap((policy) => policy.Properties.Roles.map((ref: { Ref: string }) => ref.Ref));
    for (const action of changes) expect(holders(action), action).toEqual([roleId]);
    expect(holders('sts:AssumeRole')).toEqual([resolveRoleId]);
    const byStep = statementsByStep({ awsTools: settings });
    expect(byStep['resolve-approval'].find((statement) => statement.Sid === 'AssumeRemediationRole')?.Resource).toBe('arn:aws:iam::123456789012:role/sre-agent-remediation');
    for (const step of ['request-approval', 'resolve-approval'] as const) expect(actionsOf(byStep[step]), step).toEqual(expect.arrayContaining(reads));
    // Verification re-reads the alarm and its metric after the action.
    expect(actionsOf(byStep['resolve-approval'])).toEqual(expect.arrayContaining(['cloudwatch:DescribeAlarms', 'cloudwatch:GetMetricData']));
    for (const step of stepNames.filter((name) => name !== 'request-approval' && name !== 'resolve-approval')) {
      expect(actionsOf(byStep[step]).filter((action) => reads.includes(action) && !defaults.includes(action)), step).toEqual([]);
    }
  });

  it('without a remediation tool enabled there is no remediation role and no approval step reads anything', () => {
    const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
    const stack = new SreAgentStack(app, 'NoRemediation', { env: { account: '123456789012', region: 'us-east-1' } });
    expect(stack.remediationRole).toBeUndefined();
    for (const step of ['request-approval', 'resolve-approval'] as const) expect(actionsOf(statements[step]).filter((action) => action.startsWith('ecs:') || action.startsWith('sts:') || action.startsWith('cloudwatch:')), step).toEqual([]);
  });
});
