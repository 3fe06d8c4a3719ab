import type { Event, LookupEventsCommandInput, LookupEventsCommandOutput } from '@aws-sdk/client-cloudtrail';
import type { changeRecord } from '../../../lib/domain/scenario.ts';
import type { z } from 'zod';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { baseEventName } from '../changes/event-kinds.ts';
import { serviceException, type ServiceEmulation } from './emulator.ts';
import { emulatedAccount, emulatedRegion, serviceArnOf, serviceNamed } from './service-identity.ts';

type ChangeRecord = z.infer<typeof changeRecord>;

/** Small pages, so the tool's pagination and its request spacing really run. */
const EVENTS_PER_PAGE = 5;
/** CloudTrail keeps 90 days of management events. */
const RETENTION_MINUTES = 90 * 24 * 60;

interface EventIdentity {
  eventName: string;
  eventSource: string;
  parameters: Record<string, unknown>;
}

/** The count a scaling change ended at: after its arrow (`8 -> 14`), else its last number. */
const lastNumber = (text: string): number | undefined => {
  const found = /->\s*(\d+)/.exec(text)?.[1] ?? /(\d+)\D*$/.exec(text)?.[1];
  return found === undefined ? undefined : Number(found);
};

/**
 * The API call a recorded change most plausibly was, by its kind, its service's kind and its own
 * words, when the scenario does not name it.
 */
const impliedCall = (change: ChangeRecord, serviceKind: string | undefined): EventIdentity => {
  const text = change.summary;
  const call = (eventName: string, source: string, parameters: Record<string, unknown> = {}): EventIdentity => ({ eventName, eventSource: `${source}.amazonaws.com`, parameters });
  switch (change.kind) {
    case 'deploy':
      if (serviceKind === 'lambda') return call('UpdateFunctionCode20150331v2', 'lambda', { functionName: change.service });
      if (serviceKind === 'ecs') return call('UpdateService', 'ecs', { service: change.service, taskDefinition: change.service });
      return call('CreateDeployment', 'codedeploy', { applicationName: change.service });
    case 'config':
      if (serviceKind === 'lambda') return call('UpdateFunctionConfiguration20150331v2', 'lambda', { functionName: change.service });
      if (serviceKind === 'rds') return call('ModifyDBParameterGroup', 'rds', { dBParameterGroupName: `${change.service}-params` });
      if (serviceKind === 'dynamodb') return call('UpdateTable', 'dynamodb', { tableName: change.service });
      if (serviceKind === 'sqs') return call('SetQueueAttributes', 'sqs', { queueUrl: change.service, attributes: {} });
      if (serviceKind === 'sns') return call('SetTopicAttributes', 'sns', { topicArn: change.service });
      if (serviceKind === 'apigateway') return call('UpdateStage', 'apigateway', { restApiId: change.service });
      if (serviceKind === 's3') return call('PutBucketLifecycleConfiguration', 's3', { bucketName: change.service });
      if (serviceKind === 'elb') return call('ModifyTargetGroupAttributes', 'elasticloadbalancing', {});
      if (/appconfig/i.test(text)) return call('StartDeployment', 'appconfig', { applicationId: change.service });
      return call('PutParameter', 'ssm', { name: `/${change.service}/config` });
    case 'feature-flag':
      return call('StartDeployment', 'appconfig', { applicationId: change.service, configurationProfileId: 'feature-flags' });
    case 'scaling': {
      const to = typeof change.details?.to === 'number' ? change.details.to : lastNumber(text);
      if (serviceKind === 'ecs' && to !== undefined) return call('UpdateService', 'ecs', { service: change.service, desiredCount: to });
      if (/scheduled action/i.test(text)) return call('PutScheduledAction', 'application-autoscaling', { resourceId: change.service });
      if (serviceKind === 'lambda') return call('PutProvisionedConcurrencyConfig', 'lambda', { functionName: change.service });
      return call('RegisterScalableTarget', 'application-autoscaling', { resourceId: change.service });
    }
    case 'infrastructure':
      if (serviceKind === 'rds') return call(/failover/i.test(text) ? 'FailoverDBCluster' : 'ApplyPendingMaintenanceAction', 'rds', {});
      return call('UpdateStack', 'cloudformation', { stackName: change.service });
    case 'iam':
      if (/\bkms\b|\bkey\b/i.test(text)) return call('DisableKey', 'kms', {});
      return call('PutRolePolicy', 'iam', { roleName: `${change.service}-role` });
    case 'network':
      if (/dns|route ?53|record/i.test(text)) return call('ChangeResourceRecordSets', 'route53', {});
      if (/revok|remov/i.test(text)) return call('RevokeSecurityGroupIngress', 'ec2', {});
      if (/authori[sz]|allow|open/i.test(text)) return call('AuthorizeSecurityGroupIngress', 'ec2', {});
      return call('ModifySecurityGroupRules', 'ec2', {});
    case 'certificate':
      return call('ImportCertificate', 'acm', {});
    default:
      return serviceKind === 'ecs' ? call('RunTask', 'ecs', { taskDefinition: change.service }) : call('StartExecution', 'states', { name: change.service });
  }
};

const sourcesByEvent: Readonly<Record<string, string>> = {
  UpdateService: 'ecs', RunTask: 'ecs', RegisterTaskDefinition: 'ecs',
  PutFunctionConcurrency: 'lambda', UpdateFunctionConfiguration: 'lambda', CreateFunction: 'lambda', PublishVersion: 'lambda', UpdateAlias: 'lambda',
  ModifyDBParameterGroup: 'rds', ModifyDBInstance: 'rds', RebootDBInstance: 'rds', FailoverDBCluster: 'rds',
  RevokeSecurityGroupIngress: 'ec2', AuthorizeSecurityGroupIngress: 'ec2',
  ChangeResourceRecordSets: 'route53', PutRolePolicy: 'iam', AttachRolePolicy: 'iam', DisableKey: 'kms', RotateSecret: 'secretsmanager',
  SetQueueAttributes: 'sqs', DeleteQueue: 'sqs', SetSubscriptionAttributes: 'sns', StartDeployment: 'appconfig', UpdateWebACL: 'wafv2',
  UpdateSchedule: 'scheduler', ModifyTargetGroup: 'elasticloadbalancing', DeregisterScalableTarget: 'application-autoscaling', PutScheduledAction: 'application-autoscaling',
};

/**
 * The call behind a change: the one the scenario names in its details, else the implied one. Details
 * become the request's parameters; when the named call is the implied one, the parameters its kind
 * implies fill what the details leave out (an ECS deploy by UpdateService names a task definition).
 */
const callOf = (change: ChangeRecord, serviceKind: string | undefined): EventIdentity => {
  const { eventName, eventSource, requestParameters, ...rest } = change.details ?? {};
  const implied = impliedCall(change, serviceKind);
  const named = typeof eventName === 'string' ? eventName : undefined;
  const source = typeof eventSource === 'string' ? eventSource : named && sourcesByEvent[named] ? `${sourcesByEvent[named]}.amazonaws.com` : implied.eventSource;
  const given = typeof requestParameters === 'object' && requestParameters !== null ? (requestParameters as Record<string, unknown>) : {};
  return {
    eventName: named ?? implied.eventName,
    eventSource: source,
    // The change's own words ride along as the request's description, as deploy and configuration APIs carry one.
    parameters: { ...(named && baseEventName(named) !== baseEventName(implied.eventName) ? {} : implied.parameters), ...rest, ...given, description: change.summary },
  };
};

const eventsOf = (environment: RecordedEnvironment): Event[] => {
  const region = emulatedRegion(environment);
  const account = emulatedAccount(environment);
  return environment
    .changes(RETENTION_MINUTES)
    .map((change, index) => {
      const spec = serviceNamed(environment, change.service);
      const { eventName, eventSource, parameters } = callOf(change, spec?.kind);
      // An ARN several services share (one EKS cluster's workloads) names none of them; the request's own parameters do.
      const arn = spec ? ownArnOf(environment, spec) : undefined;
      const actor = change.actor ?? 'unknown';
      const eventId = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
      const userIdentity = { type: 'IAMUser', principalId: `AIDA${String(index).padStart(16, '0')}`, arn: `arn:aws:iam::${account}:user/${actor.replace(/[^\w+=,.@-]/g, '_')}`, accountId: account, userName: actor };
      const resources = arn ? [{ ARN: arn, accountId: account, type: resourceTypeOf(arn) }] : [];
      return {
        EventId: eventId,
        EventName: eventName,
        ReadOnly: 'false',
        EventTime: new Date(change.timestamp),
        EventSource: eventSource,
        Username: actor,
        Resources: arn ? [{ ResourceType: resourceTypeOf(arn), ResourceName: arn }] : [{ ResourceType: 'AWS::Unknown', ResourceName: change.service }],
        CloudTrailEvent: JSON.stringify({
          eventVersion: '1.09',
          userIdentity,
          eventTime: new Date(change.timestamp).toISOString().replace('.000Z', 'Z'),
          eventSource,
          eventName,
          awsRegion: region,
          sourceIPAddress: '203.0.113.10',
          userAgent: 'emulated',
          requestParameters: parameters,
          responseElements: null,
          requestID: eventId,
          eventID: eventId,
          readOnly: false,
          ...(resources.length > 0 ? { resources } : {}),
          eventType: 'AwsApiCall',
          managementEvent: true,
          recipientAccountId: account,
          eventCategory: 'Management',
        }),
      };
    })
    .sort((a, b) => b.EventTime.getTime() - a.EventTime.getTime());
};

const ownArnOf = (environment: RecordedEnvironment, spec: NonNullable<ReturnType<typeof serviceNamed>>): string | undefined => {
  const arn = serviceArnOf(environment, spec);
  const sharers = environment.services.filter((service) => serviceArnOf(environment, service) === arn);
  return sharers.length > 1 ? undefined : arn;
};

const resourceTypeOf = (arn: string): string => {
  const service = arn.split(':')[2] ?? '';
  const types: Record<string, string> = { lambda: 'AWS::Lambda::Function', ecs: 'AWS::ECS::Service', rds: 'AWS::RDS::DBInstance', dynamodb: 'AWS::DynamoDB::Table', sqs: 'AWS::SQS::Queue', sns: 'AWS::SNS::Topic', s3: 'AWS::S3::Bucket' };
  return types[service] ?? `AWS::${service}`;
};

const attributeMatches = (event: Event, key: string | undefined, value: string | undefined): boolean => {
  switch (key) {
    case undefined:
      return true;
    case 'ReadOnly':
      return value === 'false';
    case 'EventName':
      return event.EventName === value;
    case 'EventSource':
      return event.EventSource === value;
    case 'Username':
      return event.Username === value;
    case 'ResourceName':
      return (event.Resources ?? []).some((resource) => resource.ResourceName === value);
    case 'EventId':
      return event.EventId === value;
    default:
      throw serviceException('InvalidLookupAttributesException', `the emulation does not look events up by ${key}`);
  }
};

const lookupEvents = (input: LookupEventsCommandInput, environment: RecordedEnvironment): Omit<LookupEventsCommandOutput, '$metadata'> => {
  const attributes = input.LookupAttributes ?? [];
  if (attributes.length > 1) throw serviceException('InvalidLookupAttributesException', 'You cannot specify more than one lookup attribute.');
  if ((input.MaxResults ?? 50) > 50) throw serviceException('InvalidMaxResultsException', 'MaxResults must be at most 50.');
  const start = input.StartTime?.getTime() ?? environment.nowMillis - RETENTION_MINUTES * 60_000;
  const end = input.EndTime?.getTime() ?? environment.nowMillis;
  const [attribute] = attributes;
  const matching = eventsOf(environment).filter(
    (event) => event.EventTime!.getTime() >= start && event.EventTime!.getTime() <= end && attributeMatches(event, attribute?.AttributeKey, attribute?.AttributeValue),
  );
  const offset = input.NextToken === undefined ? 0 : Number(input.NextToken);
  if (!Number.isInteger(offset) || offset < 0) throw serviceException('InvalidNextTokenException', `invalid NextToken ${input.NextToken}`);
  const size = Math.min(input.MaxResults ?? 50, EVENTS_PER_PAGE);
  const next = offset + size < matching.length ? String(offset + size) : undefined;
  return { Events: matching.slice(offset, offset + size), ...(next ? { NextToken: next } : {}) };
};

export const cloudTrailEmulation: ServiceEmulation = { LookupEventsCommand: lookupEvents };
