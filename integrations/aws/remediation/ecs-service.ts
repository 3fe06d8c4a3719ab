import { DescribeServicesCommand, type Service } from '@aws-sdk/client-ecs';
import type { AwsClients } from '../clients.ts';
import { ECSClient } from '@aws-sdk/client-ecs';

/** The service as ECS reports it now; a missing service is an error that names it. */
export const currentEcsService = async (clients: AwsClients, input: { cluster: string; service: string }): Promise<Service & { serviceArn: string }> => {
  const { services = [], failures = [] } = await clients.get(ECSClient).send(new DescribeServicesCommand({ cluster: input.cluster, services: [input.service] }));
  const found = services[0];
  if (!found?.serviceArn) {
    const reason = failures[0]?.reason ?? 'not found';
    throw new Error(`ECS service ${input.service} in cluster ${input.cluster}: ${reason}`);
  }
  return found as Service & { serviceArn: string };
};
