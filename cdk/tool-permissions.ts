import { Aws, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { awsToolIamActions } from '../integrations/aws/index.ts';
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
