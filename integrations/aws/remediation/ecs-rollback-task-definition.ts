import { ECSClient, ListTaskDefinitionsCommand, UpdateServiceCommand } from '@aws-sdk/client-ecs';
import { ecsRollbackTaskDefinitionContract } from '../../../lib/tools/contracts/remediation-ecs-rollback-task-definition.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import type { AwsClients } from '../clients.ts';
import type { RemediationDependencies } from './dependencies.ts';
import { currentEcsService } from './ecs-service.ts';

const revisionOf = (arn: string): { family: string; revision: number } => {
  const match = /task-definition\/([^:]+):(\d+)$/.exec(arn);
  if (!match) throw new Error(`task definition ${arn} has no family:revision`);
  return { family: match[1]!, revision: Number(match[2]) };
};

/** The newest ACTIVE revision of the family older than the current one: an inactive revision cannot run new tasks. */
const previousRevision = async (clients: AwsClients, current: string): Promise<string> => {
  const { family, revision } = revisionOf(current);
  const ecs = clients.get(ECSClient);
  let nextToken: string | undefined;
  do {
    const page = await ecs.send(new ListTaskDefinitionsCommand({ familyPrefix: family, status: 'ACTIVE', sort: 'DESC', nextToken }));
    const older = (page.taskDefinitionArns ?? []).find((arn) => {
      const candidate = revisionOf(arn);
      return candidate.family === family && candidate.revision < revision;
    });
    if (older) return older;
    nextToken = page.nextToken;
  } while (nextToken);
  throw new Error(`task definition family ${family} has no active revision before ${revision}: there is nothing to roll back to`);
};

const plan = async (clients: AwsClients, input: { cluster: string; service: string }) => {
  const service = await currentEcsService(clients, input);
  if (!service.taskDefinition) throw new Error(`ECS service ${input.service} reports no task definition`);
  return { service, current: service.taskDefinition, previous: await previousRevision(clients, service.taskDefinition) };
};

export const ecsRollbackTaskDefinition = ({ clients, narrowed }: RemediationDependencies) =>
  implementTool(ecsRollbackTaskDefinitionContract, {
    sideEffect: 'mutating',
    iamActions: ['ecs:DescribeServices', 'ecs:ListTaskDefinitions', 'ecs:UpdateService'],
    preview: async (input) => {
      const { current, previous } = await plan(clients, input);
      return { previousValue: `${current} (would become ${previous})` };
    },
    run: async (input) => {
      const { service, current, previous } = await plan(clients, input);
      const ecs = (await narrowed({ action: 'ecs:UpdateService', resource: service.serviceArn })).get(ECSClient);
      await ecs.send(new UpdateServiceCommand({ cluster: input.cluster, service: service.serviceArn, taskDefinition: previous }));
      return {
        summary: `rolled ${service.serviceName ?? input.service} back from ${revisionOf(current).revision} to ${revisionOf(previous).revision}`,
        data: {
          action: ecsRollbackTaskDefinitionContract.name,
          target: service.serviceArn,
          previousValue: current,
          newValue: previous,
          status: 'executed' as const,
          detail: 'ECS deploys the previous revision with the service\'s deployment configuration.',
        },
      };
    },
  });
