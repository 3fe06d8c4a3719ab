import { ECSClient, UpdateServiceCommand } from '@aws-sdk/client-ecs';
import { ecsForceNewDeploymentContract } from '../../../lib/tools/contracts/remediation-ecs-force-new-deployment.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import type { RemediationDependencies } from './dependencies.ts';
import { currentEcsService } from './ecs-service.ts';

const describeDeployment = (service: { taskDefinition?: string; runningCount?: number }) =>
  `${service.runningCount ?? 0} running tasks of ${service.taskDefinition ?? 'an unknown task definition'}`;

export const ecsForceNewDeployment = ({ clients, narrowed }: RemediationDependencies) =>
  implementTool(ecsForceNewDeploymentContract, {
    sideEffect: 'mutating',
    iamActions: ['ecs:DescribeServices', 'ecs:UpdateService'],
    preview: async (input) => ({ previousValue: describeDeployment(await currentEcsService(clients, input)) }),
    run: async (input) => {
      const service = await currentEcsService(clients, input);
      const ecs = (await narrowed({ action: 'ecs:UpdateService', resource: service.serviceArn })).get(ECSClient);
      const { service: updated } = await ecs.send(new UpdateServiceCommand({ cluster: input.cluster, service: service.serviceArn, forceNewDeployment: true }));
      const deployment = updated?.deployments?.find((candidate) => candidate.status === 'PRIMARY');
      return {
        summary: `forced a new deployment of ${service.serviceName ?? input.service}`,
        data: {
          action: ecsForceNewDeploymentContract.name,
          target: service.serviceArn,
          previousValue: describeDeployment(service),
          newValue: deployment?.id ? `deployment ${deployment.id} of ${deployment.taskDefinition ?? service.taskDefinition}` : null,
          status: 'executed' as const,
          detail: 'ECS replaces the tasks gradually, within the service\'s deployment configuration.',
        },
      };
    },
  });
