import { DescribeServicesCommand, DescribeTasksCommand, ECSClient, ListTasksCommand } from '@aws-sdk/client-ecs';
import { GetFunctionConcurrencyCommand, GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { DescribeDBInstancesCommand, DescribeEventsCommand, RDSClient } from '@aws-sdk/client-rds';
import type { z } from 'zod';
import { describeServiceContract, serviceDescription, type resourceEvent } from '../../../lib/tools/contracts/describe-service.ts';
import { noData } from '../../../lib/tools/contracts/shared-inputs.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import { deniedReason, isAccessDenied } from '../api-errors.ts';
import type { ServiceResources } from '../catalog.ts';
import type { AwsClients } from '../clients.ts';
import { isoOf } from '../time-format.ts';
import type { AwsToolDependencies } from '../tools.ts';

type ResourceEvent = z.infer<typeof resourceEvent>;
interface Description {
  arn?: string;
  configuration: Record<string, unknown>;
  events: ResourceEvent[];
}

/** Platform events worth reading: a week of them, the newest kept when there are many. */
const EVENT_WINDOW_MINUTES = 7 * 24 * 60;
const MAX_EVENTS = 30;
const MAX_STOPPED_TASKS = 10;

const withoutUndefined = (record: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));

const lambdaDescription = async (clients: AwsClients, service: ServiceResources): Promise<Description> => {
  const arn = service.arns.find((candidate) => candidate.includes(':function:'));
  const name = arn ?? service.dimensions.map((dimensions) => dimensions.FunctionName).find(Boolean) ?? service.name;
  const lambda = clients.get(LambdaClient);
  const configuration = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: name }));
  const concurrency = await lambda.send(new GetFunctionConcurrencyCommand({ FunctionName: name }));
  return {
    ...(configuration.FunctionArn ? { arn: configuration.FunctionArn } : {}),
    configuration: withoutUndefined({
      runtime: configuration.Runtime,
      timeoutSeconds: configuration.Timeout,
      memoryMb: configuration.MemorySize,
      reservedConcurrency: concurrency.ReservedConcurrentExecutions,
      state: configuration.State,
      stateReason: configuration.StateReason,
      lastUpdateStatus: configuration.LastUpdateStatus,
      lastModified: configuration.LastModified,
      version: configuration.Version,
    }),
    events: [],
  };
};

const ecsDescription = async (clients: AwsClients, service: ServiceResources, now: Date): Promise<Description> => {
  const arn = service.arns.find((candidate) => /:service\//.test(candidate));
  const cluster = arn ? (/:service\/([^/]+)\/[^/]+$/.exec(arn)?.[1] ?? 'default') : 'default';
  const ecs = clients.get(ECSClient);
  const { services: [described] = [] } = await ecs.send(new DescribeServicesCommand({ cluster, services: [arn ?? service.name] }));
  if (!described) return { ...(arn ? { arn } : {}), configuration: { status: 'not found in ECS' }, events: [] };
  const since = now.getTime() - EVENT_WINDOW_MINUTES * 60_000;
  const serviceEvents: ResourceEvent[] = (described.events ?? [])
    .filter((event) => event.createdAt && event.createdAt.getTime() >= since && event.createdAt.getTime() <= now.getTime())
    .map((event) => ({ timestamp: isoOf(event.createdAt!), source: 'ecs', message: event.message ?? '' }));
  const { taskArns = [] } = await ecs.send(new ListTasksCommand({ cluster, serviceName: described.serviceName ?? service.name, desiredStatus: 'STOPPED' }));
  const stopped = taskArns.length === 0 ? [] : ((await ecs.send(new DescribeTasksCommand({ cluster, tasks: taskArns.slice(0, MAX_STOPPED_TASKS) }))).tasks ?? []);
  const taskEvents: ResourceEvent[] = stopped
    .filter((task) => task.stoppedAt !== undefined)
    .map((task) => {
      const containers = (task.containers ?? []).map((container) => `${container.name ?? 'container'} exit ${container.exitCode ?? '?'}${container.reason ? `: ${container.reason}` : ''}`);
      return { timestamp: isoOf(task.stoppedAt!), source: 'ecs-task', message: `task ${task.taskArn?.split('/').at(-1) ?? ''} stopped: ${task.stoppedReason ?? task.stopCode ?? 'unknown reason'}${containers.length > 0 ? ` (${containers.join('; ')})` : ''}` };
    });
  return {
    ...(described.serviceArn ? { arn: described.serviceArn } : {}),
    configuration: withoutUndefined({
      cluster,
      status: described.status,
      launchType: described.launchType,
      taskDefinition: described.taskDefinition?.split('/').at(-1),
      desiredCount: described.desiredCount,
      runningCount: described.runningCount,
      pendingCount: described.pendingCount,
      deployments: (described.deployments ?? []).map((deployment) =>
        withoutUndefined({
          id: deployment.id,
          status: deployment.status,
          taskDefinition: deployment.taskDefinition?.split('/').at(-1),
          desiredCount: deployment.desiredCount,
          runningCount: deployment.runningCount,
          rolloutState: deployment.rolloutState,
          rolloutStateReason: deployment.rolloutStateReason,
          createdAt: deployment.createdAt ? isoOf(deployment.createdAt) : undefined,
        }),
      ),
    }),
    events: [...serviceEvents, ...taskEvents],
  };
};

const rdsDescription = async (clients: AwsClients, service: ServiceResources, now: Date): Promise<Description> => {
  const arn = service.arns.find((candidate) => candidate.startsWith('arn:aws:rds:'));
  const cluster = arn ? /:cluster:(.+)$/.exec(arn)?.[1] : undefined;
  const instance = arn ? /:db:(.+)$/.exec(arn)?.[1] : (service.dimensions.map((dimensions) => dimensions.DBInstanceIdentifier).find(Boolean) ?? service.name);
  const rds = clients.get(RDSClient);
  const { DBInstances: instances = [] } = await rds.send(
    new DescribeDBInstancesCommand(cluster ? { Filters: [{ Name: 'db-cluster-id', Values: [cluster] }] } : { DBInstanceIdentifier: instance }),
  );
  const { Events: events = [] } = await rds.send(
    new DescribeEventsCommand({
      SourceIdentifier: cluster ?? instance,
      SourceType: cluster ? 'db-cluster' : 'db-instance',
      StartTime: new Date(now.getTime() - EVENT_WINDOW_MINUTES * 60_000),
      EndTime: now,
    }),
  );
  return {
    ...(arn ? { arn } : {}),
    configuration: {
      ...(cluster ? { cluster } : {}),
      instances: instances.map((db) =>
        withoutUndefined({
          id: db.DBInstanceIdentifier,
          status: db.DBInstanceStatus,
          class: db.DBInstanceClass,
          engine: db.Engine,
          engineVersion: db.EngineVersion,
          multiAZ: db.MultiAZ,
          allocatedStorageGb: db.AllocatedStorage,
          availabilityZone: db.AvailabilityZone,
        }),
      ),
    },
    events: events.map((event) => ({ timestamp: event.Date ? isoOf(event.Date) : '', source: 'rds', message: event.Message ?? '' })),
  };
};

const actionsByKind: Readonly<Record<string, string>> = {
  lambda: 'lambda:GetFunctionConfiguration and lambda:GetFunctionConcurrency',
  ecs: 'ecs:DescribeServices, ecs:ListTasks and ecs:DescribeTasks',
  rds: 'rds:DescribeDBInstances and rds:DescribeEvents',
};

export const describeService = ({ clients, catalog }: AwsToolDependencies) =>
  implementTool(describeServiceContract, {
    sideEffect: 'read-only',
    iamActions: [
      'lambda:GetFunctionConfiguration',
      'lambda:GetFunctionConcurrency',
      'ecs:DescribeServices',
      'ecs:ListTasks',
      'ecs:DescribeTasks',
      'rds:DescribeDBInstances',
      'rds:DescribeEvents',
    ],
    run: async (input, context) => {
      const all = await catalog.services();
      const service = all.find((candidate) => candidate.name.toLowerCase() === input.service.trim().toLowerCase());
      if (!service) return noData(`no service named ${input.service}; known: ${all.map((candidate) => candidate.name).join(', ') || 'none'}`);
      let description: Description;
      try {
        if (service.kind === 'lambda') description = await lambdaDescription(clients, service);
        else if (service.kind === 'ecs') description = await ecsDescription(clients, service, context.now);
        else if (service.kind === 'rds') description = await rdsDescription(clients, service, context.now);
        else description = { ...(service.arns[0] ? { arn: service.arns[0] } : {}), configuration: { note: `no platform description for a ${service.kind ?? 'service of unknown kind'}` }, events: [] };
      } catch (error) {
        if (isAccessDenied(error)) return noData(`${service.name} could not be described`, deniedReason(actionsByKind[service.kind ?? ''] ?? 'the describe action', error));
        throw error;
      }
      const events = description.events.sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp)).slice(-MAX_EVENTS);
      return serviceDescription({
        service: service.name,
        kind: service.kind,
        arn: description.arn,
        configuration: { ...description.configuration, ...(Object.keys(service.tags).length > 0 ? { tags: service.tags } : {}) },
        events,
      });
    },
  });
