import { DescribeServicesCommand, DescribeTaskDefinitionCommand, ECSClient } from '@aws-sdk/client-ecs';
import { GetResourcesCommand, ResourceGroupsTaggingAPIClient } from '@aws-sdk/client-resource-groups-tagging-api';
import { deniedReason, isAccessDenied } from '../api-errors.ts';
import type { ServiceCatalog, ServiceResources } from '../catalog.ts';
import type { AwsClients } from '../clients.ts';
import type { AwsToolSettings } from '../settings.ts';
import { conventionalLogGroup, dimensionsOfArn, parseArn, primaryKind } from './arn-resources.ts';

/** The IAM actions the catalog calls, for every tool that uses it. */
export const catalogIamActions = ['tag:GetResources', 'ecs:DescribeServices', 'ecs:DescribeTaskDefinition'] as const;

/** DescribeServices takes at most 10 services a call. */
const ECS_SERVICES_PER_CALL = 10;

/** `123456789012:/aws/lambda/x` (the `@log` field of Logs Insights) -> `/aws/lambda/x`. */
export const logGroupName = (logField: string): string => logField.replace(/^\d{12}:/, '');

const lower = (text: string) => text.toLowerCase();

interface Draft {
  arns: string[];
  tags: Record<string, string>;
  logGroups: Set<string>;
}

/**
 * The service catalog of an account: resources tagged with the service tag (Resource Groups Tagging
 * API), log groups by naming convention (`/aws/lambda/<fn>`) and from ECS task definitions'
 * `awslogs-group`, plus the log groups named in settings. Built once per instance, which lives for
 * one investigation step, so every tool of the step shares one read of the account.
 */
export class TaggedServiceCatalog implements ServiceCatalog {
  private built?: Promise<ServiceResources[]>;
  /** Why part of the catalog could not be read (a denied action), for tools to report. */
  readonly problems: string[] = [];

  constructor(
    private readonly clients: AwsClients,
    private readonly settings: AwsToolSettings,
  ) {}

  services(): Promise<ServiceResources[]> {
    this.built ??= this.build();
    return this.built;
  }

  async serviceOfArn(arn: string): Promise<string | undefined> {
    const services = await this.services();
    const exact = services.find((service) => service.arns.includes(arn));
    if (exact) return exact.name;
    // A Lambda alias or version (`function:name:live`) belongs to its function.
    const prefixed = services.find((service) => service.arns.some((owned) => arn.startsWith(`${owned}:`) || arn.startsWith(`${owned}/`)));
    if (prefixed) return prefixed.name;
    const resource = parseArn(arn)?.resource;
    return resource === undefined ? undefined : namedIn(resource, services);
  }

  async serviceOfDimensions(dimensions: Record<string, string>): Promise<string | undefined> {
    const services = await this.services();
    let best: { name: string; specificity: number } | undefined;
    for (const service of services) {
      for (const owned of service.dimensions) {
        const keys = Object.keys(owned);
        const specificity = keys.length * 2 - Number(keys.every((key) => ENCLOSING_DIMENSIONS.has(key)));
        if (keys.length > 0 && keys.every((key) => dimensions[key] === owned[key]) && specificity > (best?.specificity ?? 0)) {
          best = { name: service.name, specificity };
        }
      }
    }
    if (best) return best.name;
    // A target group or load balancer named after its service (`targetgroup/order-service/abc`), or a
    // `Service` dimension naming it. A value naming a service the account holds no resource of beyond
    // its logs and alarms (a third party: `Provider=twilio`) says whom the measured calls went to, not
    // whose metric it is.
    const serviceKeysFirst = Object.entries(dimensions).sort(([a], [b]) => Number(namesAService(b)) - Number(namesAService(a)));
    for (const [key, value] of serviceKeysFirst) {
      const named = serviceNamedIn(value, services);
      if (named && (named.kind !== undefined || namesAService(key))) return named.name;
    }
    return undefined;
  }

  async serviceOfLogGroup(logGroup: string): Promise<string | undefined> {
    const services = await this.services();
    const group = logGroupName(logGroup);
    const owner = services.find((service) => service.logGroups.includes(group));
    return owner?.name ?? namedIn(group, services);
  }

  private async build(): Promise<ServiceResources[]> {
    const drafts = new Map<string, Draft>();
    const draft = (name: string): Draft => {
      let existing = drafts.get(name);
      if (!existing) {
        existing = { arns: [], tags: {}, logGroups: new Set() };
        drafts.set(name, existing);
      }
      return existing;
    };
    for (const { arn, tags } of await this.taggedResources()) {
      const name = tags[this.settings.serviceTagKey];
      if (!name) continue;
      const entry = draft(name);
      entry.arns.push(arn);
      Object.assign(entry.tags, tags);
      const logGroup = conventionalLogGroup(arn);
      if (logGroup) entry.logGroups.add(logGroup);
    }
    const ecsLogGroups = await this.ecsLogGroups([...drafts.values()].flatMap((entry) => entry.arns));
    for (const entry of drafts.values()) {
      for (const arn of entry.arns) for (const group of ecsLogGroups.get(arn) ?? []) entry.logGroups.add(group);
    }
    for (const [name, groups] of Object.entries(this.settings.logGroups)) {
      for (const group of groups) draft(name).logGroups.add(group);
    }
    return [...drafts.entries()]
      .map(([name, entry]) => {
        const kind = primaryKind(entry.arns);
        const resources: ServiceResources = {
          name,
          arns: entry.arns,
          tags: entry.tags,
          logGroups: [...entry.logGroups].sort(),
          dimensions: entry.arns.flatMap(dimensionsOfArn),
        };
        return kind === undefined ? resources : { ...resources, kind };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  private async taggedResources(): Promise<{ arn: string; tags: Record<string, string> }[]> {
    const tagging = this.clients.get(ResourceGroupsTaggingAPIClient);
    const found: { arn: string; tags: Record<string, string> }[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await tagging.send(
          new GetResourcesCommand({ TagFilters: [{ Key: this.settings.serviceTagKey }], ResourcesPerPage: 100, ...(token ? { PaginationToken: token } : {}) }),
        );
        for (const mapping of page.ResourceTagMappingList ?? []) {
          if (!mapping.ResourceARN) continue;
          const tags = Object.fromEntries((mapping.Tags ?? []).filter((tag) => tag.Key && tag.Value !== undefined).map((tag) => [tag.Key, tag.Value]));
          found.push({ arn: mapping.ResourceARN, tags: tags as Record<string, string> });
        }
        token = page.PaginationToken || undefined;
      } while (token);
    } catch (error) {
      if (!isAccessDenied(error)) throw error;
      this.problems.push(deniedReason('tag:GetResources', error));
    }
    return found;
  }

  /** ECS service ARN -> the `awslogs-group` of each container of its current task definition. */
  private async ecsLogGroups(arns: readonly string[]): Promise<Map<string, string[]>> {
    const byCluster = new Map<string, string[]>();
    for (const arn of arns) {
      const resource = parseArn(arn);
      const [type, cluster] = resource?.service === 'ecs' ? resource.resource.split('/') : [];
      if (type !== 'service' || !cluster) continue;
      byCluster.set(cluster, [...(byCluster.get(cluster) ?? []), arn]);
    }
    const groups = new Map<string, string[]>();
    if (byCluster.size === 0) return groups;
    const ecs = this.clients.get(ECSClient);
    try {
      const taskDefinitions = new Map<string, string[]>();
      for (const [cluster, services] of byCluster) {
        for (let start = 0; start < services.length; start += ECS_SERVICES_PER_CALL) {
          const { services: described = [] } = await ecs.send(
            new DescribeServicesCommand({ cluster, services: services.slice(start, start + ECS_SERVICES_PER_CALL) }),
          );
          for (const service of described) {
            if (!service.serviceArn || !service.taskDefinition) continue;
            taskDefinitions.set(service.taskDefinition, [...(taskDefinitions.get(service.taskDefinition) ?? []), service.serviceArn]);
          }
        }
      }
      for (const [taskDefinition, serviceArns] of taskDefinitions) {
        const { taskDefinition: described } = await ecs.send(new DescribeTaskDefinitionCommand({ taskDefinition }));
        const awslogs = (described?.containerDefinitions ?? [])
          .filter((container) => container.logConfiguration?.logDriver === 'awslogs')
          .map((container) => container.logConfiguration?.options?.['awslogs-group'])
          .filter((group): group is string => group !== undefined);
        for (const serviceArn of serviceArns) groups.set(serviceArn, awslogs);
      }
    } catch (error) {
      if (!isAccessDenied(error)) throw error;
      this.problems.push(deniedReason('ecs:DescribeServices and ecs:DescribeTaskDefinition', error));
    }
    return groups;
  }
}

/** The service whose name appears as a whole segment of an identifier (`targetgroup/<name>/abc`, `/ecs/<name>`). */
const serviceNamedIn = (identifier: string, services: readonly ServiceResources[]): ServiceResources | undefined => {
  const segments = new Set(identifier.split(/[/:|]/).map(lower));
  return services.find((service) => segments.has(lower(service.name)));
};

const namedIn = (identifier: string, services: readonly ServiceResources[]): string | undefined => serviceNamedIn(identifier, services)?.name;

/**
 * Dimensions naming a resource that holds others (a load balancer its target groups, a cluster its
 * services, a replication group its nodes): a metric also carrying the held resource's dimension is
 * that resource's, whichever service each is tagged with.
 */
const ENCLOSING_DIMENSIONS = new Set(['LoadBalancer', 'ClusterName', 'ReplicationGroupId', 'DBClusterIdentifier']);

/** A metric dimension whose value is a service's name by what it is called (`Service=checkout-api`). */
const namesAService = (dimensionKey: string): boolean => /^service(name)?$/i.test(dimensionKey);

/** The catalog factory AwsToolSource takes. */
export const taggedCatalog = (clients: AwsClients, settings: AwsToolSettings): ServiceCatalog => new TaggedServiceCatalog(clients, settings);
