import { ECSClient, UpdateServiceCommand } from '@aws-sdk/client-ecs';
import { ecsSetDesiredCountContract } from '../../../lib/tools/contracts/remediation-ecs-set-desired-count.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import type { RemediationDependencies } from './dependencies.ts';
import { currentEcsService } from './ecs-service.ts';

export const ecsSetDesiredCount = ({ clients, narrowed }: RemediationDependencies) =>
  implementTool(ecsSetDesiredCountContract, {
    sideEffect: 'mutating',
    iamActions: ['ecs:DescribeServices', 'ecs:UpdateService'],
    preview: async (input) => ({ previousValue: String((await currentEcsService(clients, input)).desiredCount ?? 0) }),
    run: async (input) => {
      const service = await currentEcsService(clients, input);
      const ecs = (await narrowed({ action: 'ecs:UpdateService', resource: service.serviceArn })).get(ECSClient);
      const { service: updated } = await ecs.send(new UpdateServiceCommand({ cluster: input.cluster, service: service.serviceArn, desiredCount: input.desiredCount }));
      const previous = service.desiredCount ?? 0;
      return {
        summary: `set the desired count of ${service.serviceName ?? input.service} from ${previous} to ${updated?.desiredCount ?? input.desiredCount}`,
        data: {
          action: ecsSetDesiredCountContract.name,
          target: service.serviceArn,
          previousValue: String(previous),
          newValue: String(updated?.desiredCount ?? input.desiredCount),
          status: 'executed' as const,
          detail: `${service.runningCount ?? 0} tasks were running when the change was made.`,
        },
      };
    },
  });
