import type { changeKinds } from '../../../lib/domain/vocabulary.ts';

export type ChangeKind = (typeof changeKinds)[number];

/**
 * Which CloudTrail write events are changes worth an investigator's eye, and of which kind (the
 * vocabulary of lib/domain/vocabulary.ts). Events not named here are changes of kind `other` when
 * they touch a known service, unless they are the background noise every account produces.
 */
const kinds: Readonly<Record<string, ChangeKind>> = {
  UpdateFunctionCode: 'deploy',
  PublishVersion: 'deploy',
  UpdateAlias: 'deploy',
  CreateAlias: 'deploy',
  CreateFunction: 'deploy',
  RegisterTaskDefinition: 'deploy',
  CreateDeployment: 'deploy',

  PutScalingPolicy: 'scaling',
  DeleteScalingPolicy: 'scaling',
  RegisterScalableTarget: 'scaling',
  DeregisterScalableTarget: 'scaling',
  PutScheduledAction: 'scaling',
  PutScheduledUpdateGroupAction: 'scaling',
  DeleteScheduledAction: 'scaling',
  SetDesiredCapacity: 'scaling',
  PutProvisionedConcurrencyConfig: 'scaling',
  DeleteProvisionedConcurrencyConfig: 'scaling',

  UpdateFunctionConfiguration: 'config',
  PutFunctionConcurrency: 'config',
  DeleteFunctionConcurrency: 'config',
  UpdateEventSourceMapping: 'config',
  CreateEventSourceMapping: 'config',
  ModifyDBParameterGroup: 'config',
  ModifyDBClusterParameterGroup: 'config',
  ResetDBParameterGroup: 'config',
  PutParameter: 'config',
  SetTopicAttributes: 'config',
  SetSubscriptionAttributes: 'config',
  UpdateTable: 'config',
  UpdateTimeToLive: 'config',
  ModifyLoadBalancerAttributes: 'config',
  ModifyTargetGroup: 'config',
  ModifyTargetGroupAttributes: 'config',
  UpdateStage: 'config',
  UpdateWebACL: 'config',
  UpdateSchedule: 'config',
  PutRule: 'config',
  PutTargets: 'config',
  UpdateDistribution: 'config',
  PutBucketLifecycleConfiguration: 'config',
  PutBucketCors: 'config',
  RotateSecret: 'config',
  PutSecretValue: 'config',
  UpdateSecret: 'config',
  UpdateSecretVersionStage: 'config',
  ModifyCacheParameterGroup: 'config',
  PutMetricAlarm: 'config',
  UpdateCachePolicy: 'config',
  UpdateOriginRequestPolicy: 'config',
  UpdateResponseHeadersPolicy: 'config',
  UpdateUsagePlan: 'config',
  UpdateAuthorizer: 'config',
  UpdateIntegration: 'config',
  UpdateMethod: 'config',
  UpdateContributorInsights: 'config',
  UpdateContinuousBackups: 'config',
  UpdateStateMachine: 'config',

  // A new service is new infrastructure: it changes no version of anything that ran before.
  CreateService: 'infrastructure',
  RebootDBInstance: 'infrastructure',
  RebootDBCluster: 'infrastructure',
  FailoverDBCluster: 'infrastructure',
  ApplyPendingMaintenanceAction: 'infrastructure',
  DeleteQueue: 'infrastructure',
  DeleteTable: 'infrastructure',
  DeleteFunction: 'infrastructure',
  DeleteService: 'infrastructure',
  DeleteDBInstance: 'infrastructure',
  CreateStack: 'infrastructure',
  UpdateStack: 'infrastructure',
  DeleteStack: 'infrastructure',
  ExecuteChangeSet: 'infrastructure',
  ModifyVolume: 'infrastructure',
  TerminateInstances: 'infrastructure',
  StopInstances: 'infrastructure',
  ModifyInstanceAttribute: 'infrastructure',
  StartInstanceRefresh: 'infrastructure',
  ModifyCacheCluster: 'infrastructure',
  ModifyReplicationGroup: 'infrastructure',
  StartReplicationTask: 'infrastructure',
  StopReplicationTask: 'infrastructure',
  UpdateAddon: 'infrastructure',
  UpdateNodegroupVersion: 'infrastructure',
  UpdateClusterVersion: 'infrastructure',
  CreateLaunchTemplateVersion: 'infrastructure',
  ModifyLaunchTemplate: 'infrastructure',

  PutRolePolicy: 'iam',
  DeleteRolePolicy: 'iam',
  AttachRolePolicy: 'iam',
  DetachRolePolicy: 'iam',
  UpdateAssumeRolePolicy: 'iam',
  CreatePolicyVersion: 'iam',
  SetDefaultPolicyVersion: 'iam',
  PutUserPolicy: 'iam',
  AttachUserPolicy: 'iam',
  DetachUserPolicy: 'iam',
  DisableKey: 'iam',
  ScheduleKeyDeletion: 'iam',
  PutKeyPolicy: 'iam',
  RevokeGrant: 'iam',
  AddPermission: 'iam',
  RemovePermission: 'iam',
  PutBucketPolicy: 'iam',
  DeleteBucketPolicy: 'iam',
  PutResourcePolicy: 'iam',

  AuthorizeSecurityGroupIngress: 'network',
  AuthorizeSecurityGroupEgress: 'network',
  RevokeSecurityGroupIngress: 'network',
  RevokeSecurityGroupEgress: 'network',
  ModifySecurityGroupRules: 'network',
  ChangeResourceRecordSets: 'network',
  CreateRoute: 'network',
  DeleteRoute: 'network',
  ReplaceRoute: 'network',
  CreateNetworkAclEntry: 'network',
  ReplaceNetworkAclEntry: 'network',
  DeleteNetworkAclEntry: 'network',
  ModifyVpcEndpoint: 'network',
  CreateVpcEndpoint: 'network',
  DeleteVpcEndpoints: 'network',
  DeleteNatGateway: 'network',
  DisassociateAddress: 'network',
  ReplaceRouteTableAssociation: 'network',

  ImportCertificate: 'certificate',
  RenewCertificate: 'certificate',
  DeleteCertificate: 'certificate',
  RequestCertificate: 'certificate',
  AddListenerCertificates: 'certificate',
  RemoveListenerCertificates: 'certificate',
};

/** Write events every account produces on its own, which are nobody's change. */
const noise = /^(CreateLogStream|CreateLogGroup|PutLogEvents|CreateNetworkInterface|DeleteNetworkInterface|AttachNetworkInterface|DetachNetworkInterface|AssumeRole.*|ConsoleLogin|CreateGrant|RetireGrant|GenerateDataKey.*|Decrypt|Encrypt|PutEvaluations|UpdateInstanceInformation|SubmitContainerStateChange|SubmitTaskStateChange|StartQuery|StopQuery|GetQueryResults|SendMessage|DeleteMessage|ReceiveMessage|PutMetricData|Invoke)$/;

/** Lambda's event names carry the API version (`UpdateFunctionCode20150331v2`). */
export const baseEventName = (eventName: string): string => eventName.replace(/\d{8}(v\d+)?$/, '');

const mentionsFlag = (parameters: Record<string, unknown>): boolean =>
  ['configurationProfileId', 'configurationProfile', 'profile'].some((key) => /flag/i.test(String(parameters[key] ?? '')));

const LAUNCH_PARAMETERS = ['launchTemplate', 'launchConfigurationName', 'mixedInstancesPolicy'];

const INFRASTRUCTURE_PARAMETERS = ['dBInstanceClass', 'allocatedStorage', 'engineVersion', 'multiAZ', 'storageType', 'iops'];

/**
 * The kind of change a write event is, refined by its parameters where one API does several
 * things (ECS UpdateService deploys, scales or reconfigures). Undefined: not a change we know.
 */
export const changeKindOf = (eventName: string, eventSource: string, parameters: Record<string, unknown>): ChangeKind | undefined => {
  const name = baseEventName(eventName);
  if (noise.test(name)) return undefined;
  switch (name) {
    case 'UpdateService':
      if (parameters.taskDefinition !== undefined || parameters.forceNewDeployment === true) return 'deploy';
      return parameters.desiredCount !== undefined ? 'scaling' : 'config';
    case 'StartDeployment':
      if (eventSource.startsWith('appconfig')) return mentionsFlag(parameters) ? 'feature-flag' : 'config';
      return 'deploy';
    case 'SetQueueAttributes': {
      const attributes = (parameters.attributes ?? {}) as Record<string, unknown>;
      return 'Policy' in attributes ? 'iam' : 'config';
    }
    case 'ModifyDBInstance':
    case 'ModifyDBCluster':
      return INFRASTRUCTURE_PARAMETERS.some((key) => key in parameters) ? 'infrastructure' : 'config';
    case 'UpdateAutoScalingGroup':
      // A new launch template or instance mix replaces the hosts; the rest of the call sets their number.
      return LAUNCH_PARAMETERS.some((key) => key in parameters) ? 'infrastructure' : 'scaling';
    case 'ModifyListener':
      return 'certificates' in parameters ? 'certificate' : 'config';
    default:
      return kinds[name];
  }
};

/** Whether an event outside the table is still someone's change (it is not background noise). */
export const isNoise = (eventName: string): boolean => noise.test(baseEventName(eventName));
