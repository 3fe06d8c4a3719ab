import type { GetResourcesCommandInput, GetResourcesCommandOutput, ResourceTagMapping } from '@aws-sdk/client-resource-groups-tagging-api';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { serviceException, type ServiceEmulation } from './emulator.ts';
import { emulatedMetrics } from './cloudwatch.ts';
import { emulatedLogGroups } from './log-groups.ts';
import { emulatedAccount, emulatedRegion, serviceArnOf } from './service-identity.ts';

/** Small pages, so the catalog's pagination really runs. */
const RESOURCES_PER_PAGE = 4;

/**
 * The account's tagged resources: each scenario service's own resource (its ARN, or the one its
 * kind implies) and its log groups, tagged with the asked-for service tag naming the service, plus
 * the service's own tags; the instances, volumes and domains its metrics name; and each alarm, tagged with the service it watches (CloudWatch alarms
 * are taggable, and teams tag them so: it is how an alarm on a third party's endpoint names it).
 */
/** The taggable resource a metric's identifying dimension names (an RDS instance, an EC2 instance or volume, an OpenSearch domain, a load balancer or target group, a canary). */
const resourceNamedBy = (dimensions: Record<string, string>, region: string, account: string): string | undefined => {
  if (dimensions.DBInstanceIdentifier) return `arn:aws:rds:${region}:${account}:db:${dimensions.DBInstanceIdentifier}`;
  if (dimensions.InstanceId) return `arn:aws:ec2:${region}:${account}:instance/${dimensions.InstanceId}`;
  if (dimensions.VolumeId) return `arn:aws:ec2:${region}:${account}:volume/${dimensions.VolumeId}`;
  if (dimensions.DomainName) return `arn:aws:es:${region}:${account}:domain/${dimensions.DomainName}`;
  if (dimensions.TargetGroup) return `arn:aws:elasticloadbalancing:${region}:${account}:${dimensions.TargetGroup}`;
  if (dimensions.LoadBalancer) return `arn:aws:elasticloadbalancing:${region}:${account}:loadbalancer/${dimensions.LoadBalancer}`;
  if (dimensions.CanaryName) return `arn:aws:synthetics:${region}:${account}:canary:${dimensions.CanaryName}`;
  return undefined;
};

const taggedResources = (environment: RecordedEnvironment, serviceTag: string): ResourceTagMapping[] => {
  const region = emulatedRegion(environment);
  const account = emulatedAccount(environment);
  const logGroups = emulatedLogGroups(environment);
  const names = [...new Set([...environment.services.map((service) => service.name), ...logGroups.keys()])];
  const alarms = environment.alarms.map((alarm) => ({
    ResourceARN: `arn:aws:cloudwatch:${region}:${account}:alarm:${alarm.name}`,
    Tags: [{ Key: serviceTag, Value: alarm.service }],
  }));
  // The instances, volumes and domains behind a service carry its tag too (propagated from its
  // cluster, Auto Scaling group or stack), so their metrics find their way to it.
  const members = new Map<string, string>();
  for (const metric of emulatedMetrics(environment)) {
    const arn = resourceNamedBy(metric.dimensions, region, account);
    if (arn && !members.has(arn)) members.set(arn, metric.service);
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
