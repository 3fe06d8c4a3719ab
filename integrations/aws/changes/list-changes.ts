import { CloudTrailClient, LookupEventsCommand, type Event } from '@aws-sdk/client-cloudtrail';
import { DescribeServicesCommand, ECSClient } from '@aws-sdk/client-ecs';
import { LambdaClient, ListAliasesCommand, ListVersionsByFunctionCommand, type AliasConfiguration } from '@aws-sdk/client-lambda';
import { listChangesContract, type ChangeSummary } from '../../../lib/tools/contracts/list-changes.ts';
import { noData } from '../../../lib/tools/contracts/shared-inputs.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import { deniedReason, isAccessDenied } from '../api-errors.ts';
import type { ServiceCatalog, ServiceResources } from '../catalog.ts';
import { isoOf } from '../time-format.ts';
import type { AwsToolDependencies } from '../tools.ts';
import { baseEventName, changeKindOf, isNoise } from './event-kinds.ts';
import { realTiming, RequestSpacer, type SpacerTiming } from './request-spacer.ts';

/** CloudTrail's LookupEvents allows 2 requests a second per account and region. */
const LOOKUP_INTERVAL_MS = 500;
/** At most this many pages of 50 events: the newest, nearest the onset, come first. */
const MAX_LOOKUP_PAGES = 20;
/** DescribeServices takes at most 10 services a call. */
const ECS_SERVICES_PER_CALL = 10;
/** A platform deployment this close to a CloudTrail deploy of the same service is the same change. */
const SAME_CHANGE_MS = 5 * 60_000;
const MAX_DETAIL_TEXT = 300;

interface TrailEvent {
  eventName: string;
  eventSource: string;
  eventTime: Date;
  actor?: string;
  parameters: Record<string, unknown>;
  resources: string[];
}

const parseTrailEvent = (event: Event): TrailEvent | undefined => {
  if (!event.EventName || !event.EventTime) return undefined;
  let detail: { userIdentity?: { userName?: string; arn?: string; invokedBy?: string; sessionContext?: { sessionIssuer?: { userName?: string } } }; requestParameters?: unknown; eventSource?: string } = {};
  try {
    detail = event.CloudTrailEvent ? JSON.parse(event.CloudTrailEvent) : {};
  } catch {
    // A truncated record still has its name, time and resources.
  }
  const identity = detail.userIdentity;
  const sessionName = identity?.arn?.includes(':assumed-role/') ? identity.arn.split('/').at(-1) : undefined;
  const actor = event.Username ?? identity?.userName ?? sessionName ?? identity?.sessionContext?.sessionIssuer?.userName ?? identity?.invokedBy;
  const parameters = typeof detail.requestParameters === 'object' && detail.requestParameters !== null ? (detail.requestParameters as Record<string, unknown>) : {};
  return {
    eventName: event.EventName,
    eventSource: event.EventSource ?? detail.eventSource ?? '',
    eventTime: event.EventTime,
    ...(actor ? { actor } : {}),
    parameters,
    resources: (event.Resources ?? []).map((resource) => resource.ResourceName ?? '').filter(Boolean),
  };
};

/** Parameters a request names its resource by; their values may be a service's name. */
const IDENTIFYING_PARAMETERS = ['functionName', 'service', 'serviceName', 'cluster', 'dBInstanceIdentifier', 'dBClusterIdentifier', 'tableName', 'queueUrl', 'topicArn', 'roleName', 'groupName', 'applicationName', 'applicationId', 'stackName', 'name', 'resourceId', 'restApiId', 'bucketName', 'loadBalancerArn', 'targetGroupArn'];

/** The service an event touched: by its resources' ARNs, then by the names in its request, then by a service name inside them. */
const serviceOfEvent = async (event: TrailEvent, catalog: ServiceCatalog, names: readonly string[]): Promise<string | undefined> => {
  const identifiers = [...event.resources, ...IDENTIFYING_PARAMETERS.map((key) => event.parameters[key]).filter((value): value is string => typeof value === 'string')];
  for (const identifier of identifiers) {
    if (identifier.startsWith('arn:')) {
      const service = await catalog.serviceOfArn(identifier);
      if (service) return service;
    }
    const exact = names.find((name) => name.toLowerCase() === identifier.split(/[/:]/).at(-1)?.toLowerCase());
    if (exact) return exact;
  }
  const longestFirst = [...names].sort((a, b) => b.length - a.length);
  for (const identifier of identifiers) {
    const contained = longestFirst.find((name) => identifier.toLowerCase().includes(name.toLowerCase()));
    if (contained) return contained;
  }
  return undefined;
};

/** The request's parameters, compact: no description (it is in the summary), no empty values, long text cut. */
const compactParameters = (parameters: Record<string, unknown>): Record<string, unknown> => {
  const compact = (value: unknown): unknown => {
    if (typeof value === 'string') return value.length > MAX_DETAIL_TEXT ? `${value.slice(0, MAX_DETAIL_TEXT)}…` : value;
    if (Array.isArray(value)) return value.slice(0, 10).map(compact);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== null && inner !== undefined && inner !== '').map(([key, inner]) => [key, compact(inner)]));
    }
    return value;
  };
  const { description: _description, ...rest } = parameters;
  return compact(rest) as Record<string, unknown>;
};

/** A few words on what the request did, where the API's parameters say it plainly. */
const requestHint = (parameters: Record<string, unknown>): string => {
  const parts = [
    parameters.taskDefinition !== undefined ? `task definition ${String(parameters.taskDefinition)}` : undefined,
    parameters.desiredCount !== undefined ? `desired ${String(parameters.desiredCount)}` : undefined,
    parameters.reservedConcurrentExecutions !== undefined ? `reserved concurrency ${String(parameters.reservedConcurrentExecutions)}` : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
};

const toChange = (event: TrailEvent, service: string, kind: string): ChangeSummary => {
  const description = typeof event.parameters.description === 'string' ? `: ${event.parameters.description}` : '';
  const details = compactParameters(event.parameters);
  return {
    service,
    timestamp: isoOf(event.eventTime),
    kind,
    summary: `${baseEventName(event.eventName)} on ${service}${requestHint(event.parameters)}${event.actor ? ` by ${event.actor}` : ''}${description}`,
    ...(event.actor ? { actor: event.actor } : {}),
    ...(Object.keys(details).length > 0 ? { details } : {}),
  };
};

/** CloudTrail write events in the window, newest first, one page at a time within the request rate. */
const lookupWriteEvents = async (client: CloudTrailClient, spacer: RequestSpacer, start: Date, end: Date): Promise<{ events: Event[]; truncated: boolean }> => {
  const events: Event[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    await spacer.wait();
    const page = await client.send(
      new LookupEventsCommand({ LookupAttributes: [{ AttributeKey: 'ReadOnly', AttributeValue: 'false' }], StartTime: start, EndTime: end, MaxResults: 50, ...(token ? { NextToken: token } : {}) }),
    );
    events.push(...(page.Events ?? []));
    token = page.NextToken || undefined;
    pages += 1;
  } while (token && pages < MAX_LOOKUP_PAGES);
  return { events, truncated: token !== undefined };
};

/** ECS deployments started in the window, as ECS itself reports them. */
const ecsDeployments = async (client: ECSClient, services: readonly ServiceResources[], start: number, end: number): Promise<ChangeSummary[]> => {
  const byCluster = new Map<string, { arn: string; service: string }[]>();
  for (const service of services) {
    for (const arn of service.arns) {
      const cluster = /:service\/([^/]+)\/[^/]+$/.exec(arn)?.[1];
      if (cluster) byCluster.set(cluster, [...(byCluster.get(cluster) ?? []), { arn, service: service.name }]);
    }
  }
  const changes: ChangeSummary[] = [];
  for (const [cluster, members] of byCluster) {
    for (let index = 0; index < members.length; index += ECS_SERVICES_PER_CALL) {
      const batch = members.slice(index, index + ECS_SERVICES_PER_CALL);
      const { services: described = [] } = await client.send(new DescribeServicesCommand({ cluster, services: batch.map((member) => member.arn) }));
      for (const described_ of described) {
        const owner = batch.find((member) => member.arn === described_.serviceArn)?.service ?? described_.serviceName ?? 'unknown';
        for (const deployment of described_.deployments ?? []) {
          const at = deployment.createdAt?.getTime();
          if (at === undefined || at < start || at > end) continue;
          const taskDefinition = deployment.taskDefinition?.split('/').at(-1);
          changes.push({
            service: owner,
            timestamp: isoOf(at),
            kind: 'deploy',
            summary: `ECS deployment of ${owner}: task definition ${taskDefinition ?? 'unknown'} (${deployment.rolloutState ?? deployment.status ?? 'status unknown'})`,
            details: {
              ...(deployment.id ? { deploymentId: deployment.id } : {}),
              ...(taskDefinition ? { taskDefinition } : {}),
              ...(deployment.status ? { status: deployment.status } : {}),
              ...(deployment.rolloutStateReason ? { rolloutStateReason: deployment.rolloutStateReason } : {}),
              desiredCount: deployment.desiredCount ?? 0,
              runningCount: deployment.runningCount ?? 0,
            },
          });
        }
      }
    }
  }
  return changes;
};

const functionNameOf = (service: ServiceResources): string | undefined =>
  service.arns.map((arn) => /:function:([^:]+)/.exec(arn)?.[1]).find(Boolean) ?? service.dimensions.map((dimensions) => dimensions.FunctionName).find(Boolean);

/** Lambda versions published in the window across the functions; a function that no longer exists is noted. */
const lambdaVersions = async (client: LambdaClient, services: readonly ServiceResources[], start: number, end: number, notes: string[]): Promise<ChangeSummary[]> => {
  const changes: ChangeSummary[] = [];
  const gone: string[] = [];
  for (const service of services) {
    const functionName = functionNameOf(service);
    if (!functionName) continue;
    try {
      changes.push(...(await versionsOfFunction(client, service.name, functionName, start, end)));
    } catch (error) {
      // A function deleted since the catalog was read has no versions to report; the others still do.
      if ((error as { name?: string })?.name !== 'ResourceNotFoundException') throw error;
      gone.push(functionName);
    }
  }
  if (gone.length > 0) notes.push(`functions not found, deleted or renamed since the catalog was read: ${gone.join(', ')}`);
  return changes;
};

/** One function's versions published in the window, with the aliases that point at them. */
const versionsOfFunction = async (client: LambdaClient, serviceName: string, functionName: string, start: number, end: number): Promise<ChangeSummary[]> => {
  const changes: ChangeSummary[] = [];
  const aliases: AliasConfiguration[] = [];
  let marker: string | undefined;
  do {
    const page = await client.send(new ListAliasesCommand({ FunctionName: functionName, ...(marker ? { Marker: marker } : {}) }));
    aliases.push(...(page.Aliases ?? []));
    marker = page.NextMarker || undefined;
  } while (marker);
  do {
    const page = await client.send(new ListVersionsByFunctionCommand({ FunctionName: functionName, ...(marker ? { Marker: marker } : {}) }));
    for (const version of page.Versions ?? []) {
      const at = version.LastModified ? Date.parse(version.LastModified) : Number.NaN;
      if (version.Version === '$LATEST' || Number.isNaN(at) || at < start || at > end) continue;
      const pointing = aliases.filter((alias) => alias.FunctionVersion === version.Version).map((alias) => alias.Name);
      changes.push({
        service: serviceName,
        timestamp: isoOf(at),
        kind: 'deploy',
        summary: `${functionName} version ${version.Version} published${pointing.length > 0 ? `, alias ${pointing.join(', ')} now on it` : ''}${version.Description ? `: ${version.Description}` : ''}`,
        details: { version: version.Version, ...(version.CodeSha256 ? { codeSha256: version.CodeSha256 } : {}), ...(pointing.length > 0 ? { aliases: pointing } : {}) },
      });
    }
    marker = page.NextMarker || undefined;
  } while (marker);
  return changes;
};

/** The CloudTrail change that already reports a platform deployment: the same service, changed within minutes. */
const reportedBy = (change: ChangeSummary, trail: readonly ChangeSummary[]): ChangeSummary | undefined =>
  trail.find((known) => known.service === change.service && Math.abs(Date.parse(known.timestamp) - Date.parse(change.timestamp)) <= SAME_CHANGE_MS);

export const listChanges = ({ clients, catalog, paced }: AwsToolDependencies, timing: SpacerTiming = realTiming) => {
  // An emulated account has no rate limit to keep to.
  const spacer = new RequestSpacer(paced === false ? 0 : LOOKUP_INTERVAL_MS, timing);
  return implementTool(listChangesContract, {
    sideEffect: 'read-only',
    iamActions: ['cloudtrail:LookupEvents', 'ecs:DescribeServices', 'lambda:ListVersionsByFunction', 'lambda:ListAliases'],
    run: async (input, context) => {
      const end = context.now;
      const start = new Date(end.getTime() - input.sinceMinutes * 60_000);
      const all = await catalog.services();
      const names = all.map((service) => service.name);
      const wanted = (service: string) => input.service === undefined || service.toLowerCase() === input.service.trim().toLowerCase();
      const notes: string[] = [];
      const denied: string[] = [];

      const trail: ChangeSummary[] = [];
      try {
        const { events, truncated } = await lookupWriteEvents(clients.get(CloudTrailClient), spacer, start, end);
        if (truncated) notes.push(`only the newest ${events.length} write events were read`);
        for (const raw of events) {
          const event = parseTrailEvent(raw);
          if (!event || isNoise(event.eventName)) continue;
          const kind = changeKindOf(event.eventName, event.eventSource, event.parameters);
          const service = await serviceOfEvent(event, catalog, names);
          // A write outside the known kinds counts only when it touched a known service.
          if (kind === undefined && service === undefined) continue;
          if (kind === undefined && /^(Describe|List|Get)/.test(event.eventName)) continue;
          const owner = service ?? event.resources[0]?.split(/[/:]/).at(-1) ?? event.eventSource;
          if (wanted(owner)) trail.push(toChange(event, owner, kind ?? 'other'));
        }
      } catch (error) {
        if (!isAccessDenied(error)) throw error;
        denied.push(deniedReason('cloudtrail:LookupEvents', error));
      }

      const selected = all.filter((service) => wanted(service.name));
      const platform: ChangeSummary[] = [];
      /** A platform's own record of changes; a refusal is reported with the actions to grant. */
      const readPlatform = async (actions: string, read: () => Promise<ChangeSummary[]>) => {
        try {
          platform.push(...(await read()));
        } catch (error) {
          if (!isAccessDenied(error)) throw error;
          denied.push(deniedReason(actions, error));
        }
      };
      const ecsServices = selected.filter((service) => service.kind === 'ecs');
      if (ecsServices.length > 0) await readPlatform('ecs:DescribeServices', () => ecsDeployments(clients.get(ECSClient), ecsServices, start.getTime(), end.getTime()));
      const functions = selected.filter((service) => service.kind === 'lambda');
      if (functions.length > 0) {
        await readPlatform('lambda:ListVersionsByFunction and lambda:ListAliases', () => lambdaVersions(clients.get(LambdaClient), functions, start.getTime(), end.getTime(), notes));
      }
      const unreported: ChangeSummary[] = [];
      for (const change of platform) {
        const known = reportedBy(change, trail);
        if (!known) unreported.push(change);
        // A configuration change that shipped as a new version or deployment was a deploy.
        else if (known.kind === 'config') known.kind = 'deploy';
      }
      const changes = [...trail, ...unreported].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
      if (changes.length === 0 && denied.length > 0) return noData('changes could not be read', denied.join('; '));
      const summary = [`${changes.length} changes`, ...notes, ...denied].join('; ');
      return { summary, data: { available: true as const, changes } };
    },
  });
};
