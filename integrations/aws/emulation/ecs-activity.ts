import type {
  DescribeServicesCommandInput,
  DescribeServicesCommandOutput,
  DescribeTasksCommandInput,
  DescribeTasksCommandOutput,
  ListTasksCommandInput,
  ListTasksCommandOutput,
  Service,
  Task,
} from '@aws-sdk/client-ecs';
import { toMillis } from '../../../lib/domain/time.ts';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { describedEcsService } from './ecs.ts';
import { serviceException, type ServiceEmulation } from './emulator.ts';
import { emulatedAccount, emulatedRegion, resourceNameOf } from './service-identity.ts';

/**
 * What ECS says about a service's activity, from the recorded environment: its deployments (the
 * recorded deploys), its service events (the recorded changes) and its stopped tasks (the service's
 * fatal log lines of the last hour, each the end of a task), around the service ecs.ts describes.
 */
const DESCRIBE_SERVICES_MAX = 10;
const EVENT_HISTORY_MINUTES = 7 * 24 * 60;
/** ECS shows a stopped task for about an hour. */
const STOPPED_TASK_MINUTES = 60;
const MAX_STOPPED_TASKS = 10;
/** A service with no recorded deploy was last deployed long before the incident. */
const OLD_DEPLOYMENT_MS = 30 * 24 * 60 * 60_000;

const changesOf = (environment: RecordedEnvironment, service: string) => environment.changes(EVENT_HISTORY_MINUTES).filter((change) => change.service === service);

const countAfter = (text: string): number | undefined => {
  const found = /->\s*(\d+)/.exec(text)?.[1];
  return found === undefined ? undefined : Number(found);
};

const activityOf = (environment: RecordedEnvironment, described: Service): Service => {
  const name = described.serviceName ?? '';
  const changes = changesOf(environment, name);
  const lastDeploy = changes.filter((change) => change.kind === 'deploy').at(-1);
  const desired = changes.map((change) => (change.kind === 'scaling' ? countAfter(change.summary) : undefined)).filter((count): count is number => count !== undefined).at(-1) ?? 2;
  const stopped = stoppedTasks(environment, name).length;
  const running = Math.max(0, desired - Math.min(stopped, desired));
  const deployedAt = lastDeploy ? new Date(lastDeploy.timestamp) : new Date(environment.nowMillis - OLD_DEPLOYMENT_MS);
  return {
    ...described,
    desiredCount: desired,
    runningCount: running,
    pendingCount: desired - running,
    deployments: [
      {
        id: `ecs-svc/${Math.floor(deployedAt.getTime() / 1000)}`,
        status: 'PRIMARY',
        taskDefinition: described.taskDefinition,
        desiredCount: desired,
        runningCount: running,
        createdAt: deployedAt,
        updatedAt: deployedAt,
        rolloutState: 'COMPLETED',
      },
    ],
    events: [...changes].reverse().map((change, index) => ({ id: `${name}-${index}`, createdAt: new Date(change.timestamp), message: `(service ${name}) ${change.summary}` })),
  };
};

const describeServices = (input: DescribeServicesCommandInput, environment: RecordedEnvironment): Omit<DescribeServicesCommandOutput, '$metadata'> => {
  const asked = input.services ?? [];
  if (asked.length > DESCRIBE_SERVICES_MAX) throw serviceException('InvalidParameterException', `services can have at most ${DESCRIBE_SERVICES_MAX} items`);
  const services: Service[] = [];
  const failures: { arn: string; reason: string }[] = [];
  for (const identifier of asked) {
    const described = describedEcsService(environment, input.cluster, identifier);
    if (described) services.push(activityOf(environment, described));
    else failures.push({ arn: identifier, reason: 'MISSING' });
  }
  return { services, failures };
};

const stoppedTasks = (environment: RecordedEnvironment, service: string): Task[] => {
  if (!environment.has('logs')) return [];
  const region = emulatedRegion(environment);
  const account = emulatedAccount(environment);
  return environment
    .logs(STOPPED_TASK_MINUTES)
    .filter((line) => line.service === service && /^(FATAL|CRITICAL|EMERG)/i.test(line.level))
    .slice(-MAX_STOPPED_TASKS)
    .map((line, index) => {
      const outOfMemory = /out ?of ?memory|OOM/i.test(line.message);
      return {
        taskArn: `arn:aws:ecs:${region}:${account}:task/${service}/${(toMillis(line.timestamp) + index).toString(16).padStart(32, '0')}`,
        group: `service:${service}`,
        lastStatus: 'STOPPED',
        desiredStatus: 'STOPPED',
        stoppedAt: new Date(line.timestamp),
        stopCode: 'EssentialContainerExited',
        stoppedReason: outOfMemory ? 'OutOfMemoryError: Container killed due to memory usage' : 'Essential container in task exited',
        containers: [{ name: service, lastStatus: 'STOPPED', exitCode: outOfMemory ? 137 : 1, reason: line.message.slice(0, 255) }],
      };
    });
};

const listTasks = (input: ListTasksCommandInput, environment: RecordedEnvironment): Omit<ListTasksCommandOutput, '$metadata'> => {
  if (input.desiredStatus !== 'STOPPED' || !input.serviceName) return { taskArns: [] };
  return { taskArns: stoppedTasks(environment, resourceNameOf(input.serviceName)).map((task) => task.taskArn ?? '') };
};

const describeTasks = (input: DescribeTasksCommandInput, environment: RecordedEnvironment): Omit<DescribeTasksCommandOutput, '$metadata'> => {
  const asked = new Set(input.tasks ?? []);
  if (asked.size > 100) throw serviceException('InvalidParameterException', 'tasks can have at most 100 items');
  const known = environment.services.filter((service) => service.kind === 'ecs').flatMap((service) => stoppedTasks(environment, service.name));
  return { tasks: known.filter((task) => asked.has(task.taskArn ?? '')), failures: [...asked].filter((arn) => !known.some((task) => task.taskArn === arn)).map((arn) => ({ arn, reason: 'MISSING' })) };
};

export const ecsActivityEmulation: ServiceEmulation = { DescribeServicesCommand: describeServices, ListTasksCommand: listTasks, DescribeTasksCommand: describeTasks };
