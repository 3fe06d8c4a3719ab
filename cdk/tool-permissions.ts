import { Aws, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { awsRemediationIamActions, awsToolIamActions } from '../integrations/aws/index.ts';
import type { AwsToolSettings } from '../integrations/aws/settings.ts';

/** Every log group of the account, in any region: the groups an investigation queries are found at run time. */
export const LOG_GROUPS_RESOURCE = `arn:${Aws.PARTITION}:logs:*:${Aws.ACCOUNT_ID}:log-group:*`;

/** Actions whose resources IAM can narrow, and to what; every other read API takes only `*`. */
const scopedResources = (stack: Stack, settings: AwsToolSettings): Record<string, string[]> => {
  const logGroups = LOG_GROUPS_RESOURCE;
  const scoped: Record<string, string[]> = { 'logs:StartQuery': [logGroups], 'logs:FilterLogEvents': [logGroups], 'logs:DescribeLogGroups': [logGroups] };
  const s3 = settings.runbooks.s3Uri?.match(/^s3:\/\/([^/]+)\/?(.*)$/);
  if (s3) {
    scoped['s3:ListBucket'] = [`arn:${stack.partition}:s3:::${s3[1]}`];
    scoped['s3:GetObject'] = [`arn:${stack.partition}:s3:::${s3[1]}/${s3[2] ?? ''}*`];
  }
  return scoped;
};

/**
 * The statements that let the tool-running function call exactly the enabled tools' declared
 * actions (no `*` action), narrowed to resources where the API allows, and assume the
 * cross-account read-only role when one is configured.
 */
export const investigationToolStatements = (stack: Stack, settings: AwsToolSettings): iam.PolicyStatement[] => {
  const actions = awsToolIamActions(settings);
  const scoped = scopedResources(stack, settings);
  const anyResource = actions.filter((action) => scoped[action] === undefined);
  const statements = [
    ...(anyResource.length > 0 ? [new iam.PolicyStatement({ sid: 'InvestigationToolsRead', actions: anyResource, resources: ['*'] })] : []),
    ...actions
      .filter((action) => scoped[action] !== undefined)
      .map((action) => new iam.PolicyStatement({ sid: `InvestigationTools${action.replace(/[^A-Za-z0-9]/g, '')}`, actions: [action], resources: scoped[action]! })),
  ];
  if (settings.crossAccount) {
    statements.push(
      new iam.PolicyStatement({
        sid: 'AssumeCrossAccountReadOnlyRole',
        actions: ['sts:AssumeRole'],
        resources: [`arn:${stack.partition}:iam::*:role/${settings.crossAccount.roleName}`],
      }),
    );
  }
  return statements;
};

/** The read tools an approved action's verification calls (lib/workflow/verify-recovery.ts): the alarm, then its metric. */
const VERIFICATION_TOOLS = ['list_alarms', 'get_metrics'];

/**
 * What the approval steps need when remediation tools are enabled: their reads (the previous value
 * shown to the approver, the plan of a rollback) for both steps, and for the step that executes the
 * approved action the verification's reads and assuming the remediation role; nothing when none is enabled.
 */
export const remediationStepStatements = (stack: Stack, settings: AwsToolSettings): { request: iam.PolicyStatement[]; resolve: iam.PolicyStatement[] } => {
  const { reads, changes } = awsRemediationIamActions(settings);
  if (changes.length === 0 || !settings.remediation) return { request: [], resolve: [] };
  const previews = new iam.PolicyStatement({ sid: 'RemediationReads', actions: reads, resources: ['*'] });
  const verification = awsToolIamActions({ ...settings, enabledTools: settings.enabledTools.filter((name) => VERIFICATION_TOOLS.includes(name)) });
  const roleName = settings.remediation.roleName;
  return {
    request: [previews],
    resolve: [
      previews,
      ...(verification.length > 0 ? [new iam.PolicyStatement({ sid: 'VerificationReads', actions: verification, resources: ['*'] })] : []),
      new iam.PolicyStatement({
        sid: 'AssumeRemediationRole',
        actions: ['sts:AssumeRole'],
        // Cross-account investigations change things through the same-named role in the alarm's account.
        resources: [settings.crossAccount ? `arn:${stack.partition}:iam::*:role/${roleName}` : `arn:${stack.partition}:iam::${stack.account}:role/${roleName}`],
      }),
    ],
  };
};

/** The remediation role's grant: the enabled tools' change actions, each session narrowed further to one action on one resource. */
export const remediationRoleStatements = (settings: AwsToolSettings): iam.PolicyStatement[] => {
  const { changes } = awsRemediationIamActions(settings);
  return changes.length === 0 ? [] : [new iam.PolicyStatement({ sid: 'RemediationChanges', actions: changes, resources: ['*'] })];
};
