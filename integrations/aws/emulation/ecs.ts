import type {
  DescribeTaskDefinitionCommandInput,
  DescribeTaskDefinitionCommandOutput,
  Service,
} from '@aws-sdk/client-ecs';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { serviceException, type ServiceEmulation } from './emulator.ts';
import { conventionalLogGroupOf, emulatedLogGroups } from './log-groups.ts';
import { emulatedAccount, emulatedRegion, resourceNameOf, serviceArnOf, serviceOfIdentifier } from './service-identity.ts';

/**
 * ECS as the scenario implies it: each `ecs` service with its current task definition, whose
 * container logs through `awslogs` to the service's log group. DescribeServices is answered in
 * ecs-activity.ts, which adds the service's events, deployments and stopped tasks to
 * `describedEcsService`.
 */
const HISTORY_MINUTES = 365 * 24 * 60;

/**
 * The service's registered revisions: those its recorded deploys name (`task definition orders:412 -> orders:413`),
 * else one per deploy after a first revision 1. The last is the one it runs.
 */
export const revisionsOf = (environment: RecordedEnvironment, name: string): number[] => {
  const deploys = environment.changes(HISTORY_MINUTES).filter((change) => change.service === name && change.kind === 'deploy');
  const named = deploys.flatMap((change) => [...change.summary.matchAll(new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+)`, 'g'))].map((match) => Number(match[1])));
  if (named.length > 0) return [...new Set(named)].sort((a, b) => a - b);
  return Array.from({ length: deploys.length + 1 }, (_, index) => index + 1);
};

export const currentRevision = (environment: RecordedEnvironment, name: string): number => revisionsOf(environment, name).at(-1) ?? 1;

export const taskDefinitionArn = (environment: RecordedEnvironment, name: string, revision = currentRevision(environment, name)) =>
  `arn:aws:ecs:${emulatedRegion(environment)}:${emulatedAccount(environment)}:task-definition/${name}:${revision}`;

/** The ECS service the identifier names, with the identity fields DescribeServices returns. */
export const describedEcsService = (environment: RecordedEnvironment, cluster: string | undefined, identifier: string): Service | undefined => {
  const spec = serviceOfIdentifier(environment, identifier);
  if (!spec || spec.kind !== 'ecs') return undefined;
  const serviceArn = serviceArnOf(environment, spec) ?? identifier;
  const clusterName = /:service\/([^/]+)\//.exec(serviceArn)?.[1] ?? (cluster ? resourceNameOf(cluster) : 'default');
  return {
    serviceArn,
    serviceName: spec.name,
    clusterArn: `arn:aws:ecs:${emulatedRegion(environment)}:${emulatedAccount(environment)}:cluster/${clusterName}`,
    status: 'ACTIVE',
    taskDefinition: taskDefinitionArn(environment, spec.name),
    launchType: 'FARGATE',
  };
};

const describeTaskDefinition = (input: DescribeTaskDefinitionCommandInput, environment: RecordedEnvironment): Omit<DescribeTaskDefinitionCommandOutput, '$metadata'> => {
  const family = /task-definition\/([^:]+)/.exec(input.taskDefinition ?? '')?.[1] ?? (input.taskDefinition ?? '').split(':')[0] ?? '';
  const spec = environment.services.find((service) => service.name === family && service.kind === 'ecs');
  if (!spec) throw serviceException('ClientException', 'Unable to describe task definition.');
  const logGroup = (emulatedLogGroups(environment).get(spec.name) ?? []).find((group) => group.startsWith('/ecs/')) ?? conventionalLogGroupOf(environment, spec.name);
  return {
    taskDefinition: {
      taskDefinitionArn: taskDefinitionArn(environment, spec.name),
      family: spec.name,
      revision: currentRevision(environment, spec.name),
      status: 'ACTIVE',
      containerDefinitions: [
        {
          name: spec.name,
          image: `${emulatedAccount(environment)}.dkr.ecr.${emulatedRegion(environment)}.amazonaws.com/${spec.name}:latest`,
          essential: true,
          logConfiguration: { logDriver: 'awslogs', options: { 'awslogs-group': logGroup, 'awslogs-region': emulatedRegion(environment), 'awslogs-stream-prefix': 'ecs' } },
        },
      ],
    },
  };
};

export const ecsEmulation: ServiceEmulation = { DescribeTaskDefinitionCommand: describeTaskDefinition };
