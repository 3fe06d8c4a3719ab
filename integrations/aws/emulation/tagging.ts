import { createHash } from 'node:crypto';
import type { GetResourcesCommandInput, GetResourcesCommandOutput, ResourceTagMapping } from '@aws-sdk/client-resource-groups-tagging-api';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { serviceException, type ServiceEmulation } from './emulator.ts';
import { emulatedMetrics } from './cloudwatch.ts';
import { emulatedLogGroups } from './log-groups.ts';
import { emulatedAccount, emulatedRegion, serviceArnOf } from './service-identity.ts';

/** Small pages, so the catalog's pagination really runs. */
const RESOURCES_PER_PAGE = 4;

/** A stable id in a resource id's shape (a WAF web ACL's UUID), derived from what names the resource. */
const derivedUuid = (name: string): string => {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/**
 * The taggable resource a metric's identifying dimension names: the instance, volume, table,
 * queue, stream, cache cluster, NAT gateway, KMS key, web ACL... CloudWatch publishes its metrics
 * under. The most specific dimension wins (an ECS service before its cluster).
 */
const resourceNamedBy = (dimensions: Record<string, string>, region: string, account: string): string | undefined => {
  const at = (service: string, resource: string) => `arn:aws:${service}:${region}:${account}:${resource}`;
  const {
    DBInstanceIdentifier, DBClusterIdentifier, InstanceId, VolumeId, DomainName, TargetGroup, LoadBalancer, CanaryName, ClusterName, ServiceName,
    FunctionName, TableName, QueueName, TopicName, StreamName, DeliveryStreamName, CacheClusterId, ReplicationGroupId, NatGatewayId, KeyId, WebACL,
    HostedZoneId, CertificateArn, StateMachineArn, RuleName, EventBusName, DistributionId, AutoScalingGroupName,
  } = dimensions;
  if (DBInstanceIdentifier) return at('rds', `db:${DBInstanceIdentifier}`);
  if (DBClusterIdentifier) return at('rds', `cluster:${DBClusterIdentifier}`);
  if (InstanceId) return at('ec2', `instance/${InstanceId}`);
  if (VolumeId) return at('ec2', `volume/${VolumeId}`);
  if (NatGatewayId) return at('ec2', `natgateway/${NatGatewayId}`);
  if (AutoScalingGroupName) return at('autoscaling', `autoScalingGroup:${derivedUuid(AutoScalingGroupName)}:autoScalingGroupName/${AutoScalingGroupName}`);
  if (DomainName) return at('es', `domain/${DomainName}`);
  if (TargetGroup) return at('elasticloadbalancing', TargetGroup);
  if (LoadBalancer) return at('elasticloadbalancing', `loadbalancer/${LoadBalancer}`);
  if (CanaryName) return at('synthetics', `canary:${CanaryName}`);
  if (ClusterName && ServiceName) return at('ecs', `service/${ClusterName}/${ServiceName}`);
  if (FunctionName) return at('lambda', `function:${FunctionName.split(':')[0]}`);
  if (TableName) return at('dynamodb', `table/${TableName}`);
  if (QueueName) return at('sqs', QueueName);
  if (TopicName) return at('sns', TopicName);
  if (StreamName) return at('kinesis', `stream/${StreamName}`);
  if (DeliveryStreamName) return at('firehose', `deliverystream/${DeliveryStreamName}`);
  if (CacheClusterId) return at('elasticache', `cluster:${CacheClusterId}`);
  if (ReplicationGroupId) return at('elasticache', `replicationgroup:${ReplicationGroupId}`);
  if (KeyId) return at('kms', `key/${KeyId}`);
  // A web ACL's metrics carry a Region dimension when it is regional; a CloudFront one's do not, and it lives in us-east-1.
  if (WebACL) {
    const scope = dimensions.Region ? `regional` : 'global';
    return `arn:aws:wafv2:${dimensions.Region ?? 'us-east-1'}:${account}:${scope}/webacl/${WebACL}/${derivedUuid(`${scope}/${WebACL}`)}`;
  }
  if (HostedZoneId) return `arn:aws:route53:::hostedzone/${HostedZoneId}`;
  if (CertificateArn?.startsWith('arn:')) return CertificateArn;
  if (StateMachineArn?.startsWith('arn:')) return StateMachineArn;
  if (RuleName) return at('events', `rule/${EventBusName && EventBusName !== 'default' ? `${EventBusName}/` : ''}${RuleName}`);
  if (DistributionId) return `arn:aws:cloudfront::${account}:distribution/${DistributionId}`;
  return undefined;
};

/**
 * The account's tagged resources: each scenario service's own resource (its ARN, or the one its
 * kind implies) and its log groups, tagged with the asked-for service tag naming the service, plus
 * the service's own tags; the resources its metrics are published under (propagated from its
 * cluster, Auto Scaling group or stack, as teams tag them); and each alarm, tagged with the service
 * it watches (CloudWatch alarms are taggable, and teams tag them so: it is how an alarm on a third
 * party's endpoint names it).
 */
const taggedResources = (environment: RecordedEnvironment, serviceTag: string): ResourceTagMapping[] => {
  const region = emulatedRegion(environment);
  const account = emulatedAccount(environment);
  const logGroups = emulatedLogGroups(environment);
  const names = [...new Set([...environment.services.map((service) => service.name), ...logGroups.keys()])];
  const alarms = environment.alarms.map((alarm) => ({
    ResourceARN: `arn:aws:cloudwatch:${region}:${account}:alarm:${alarm.name}`,
    Tags: [{ Key: serviceTag, Value: alarm.service }],
  }));
  // The resources behind a service's metrics carry its tag too, so their metrics find their way to
  // it; a service's own resource keeps its own tag (a resource holds one value of a tag key).
  const owned = new Set(environment.services.map((service) => serviceArnOf(environment, service)));
  const members = new Map<string, string>();
  for (const metric of emulatedMetrics(environment)) {
    const arn = resourceNamedBy(metric.dimensions, region, account);
    if (arn && !owned.has(arn) && !members.has(arn)) members.set(arn, metric.service);
  }
  const memberResources = [...members].map(([ResourceARN, service]) => ({ ResourceARN, Tags: [{ Key: serviceTag, Value: service }] }));
  const resources = names.flatMap((name) => {
    const spec = environment.services.find((service) => service.name === name);
    const tags = [...Object.entries(spec?.tags ?? {}).filter(([key]) => key !== serviceTag), [serviceTag, name]].map(([Key, Value]) => ({ Key, Value }));
    const arn = spec ? serviceArnOf(environment, spec) : undefined;
    return [
      ...(arn ? [{ ResourceARN: arn, Tags: tags }] : []),
      ...(logGroups.get(name) ?? []).map((group) => ({ ResourceARN: `arn:aws:logs:${region}:${account}:log-group:${group}`, Tags: [{ Key: serviceTag, Value: name }] })),
    ];
  });
  return [...resources, ...memberResources, ...alarms];
};

const getResources = (input: GetResourcesCommandInput, environment: RecordedEnvironment): Omit<GetResourcesCommandOutput, '$metadata'> => {
  const keys = (input.TagFilters ?? []).map((filter) => filter.Key).filter((key): key is string => key !== undefined);
  const [serviceTag] = keys;
  if (!serviceTag) throw serviceException('InvalidParameterException', 'the emulation answers GetResources filtered by the service tag key only');
  const all = taggedResources(environment, serviceTag);
  const start = input.PaginationToken ? Number(input.PaginationToken) : 0;
  if (!Number.isInteger(start) || start < 0 || start > all.length) throw serviceException('PaginationTokenExpiredException', `invalid PaginationToken ${input.PaginationToken}`);
  const pageSize = Math.min(input.ResourcesPerPage ?? 100, RESOURCES_PER_PAGE);
  const end = start + pageSize;
  return { ResourceTagMappingList: all.slice(start, end), PaginationToken: end < all.length ? String(end) : '' };
};

export const taggingEmulation: ServiceEmulation = { GetResourcesCommand: getResources };
