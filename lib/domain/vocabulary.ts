import { z } from 'zod';

export const rootCauseCategories = [
  'deploy',
  'config',
  'resource-exhaustion',
  'traffic',
  'dependency',
  'external',
  'certificate',
  'permissions',
  'network',
  'data',
  'infrastructure',
  'none',
] as const;
export const rootCauseCategory = z.enum(rootCauseCategories);
export type RootCauseCategory = z.infer<typeof rootCauseCategory>;

export const remediationActions = [
  'rollback',
  'restart',
  'scale',
  'revert-config',
  'apply-fix',
  'rotate-credentials',
  'renew-certificate',
  'failover',
  'limit-traffic',
  'escalate',
  'none',
] as const;
export const remediationAction = z.enum(remediationActions);
export type RemediationAction = z.infer<typeof remediationAction>;

export const serviceKinds = [
  'ecs', 'eks', 'lambda', 'ec2', 'rds', 'dynamodb', 'sqs', 'sns', 'apigateway', 'elb', 'cloudfront', 's3', 'external', 'other',
] as const;

export const changeKinds = [
  'deploy', 'config', 'scaling', 'infrastructure', 'iam', 'network', 'certificate', 'feature-flag', 'other',
] as const;
