import { z } from 'zod';
import { defineContract } from './contract.ts';
import { serviceFilter, unavailable } from './shared-inputs.ts';

export const serviceNode = z.object({
  name: z.string(),
  kind: z.string().optional(),
  arn: z.string().optional(),
  /** The AWS service its ARN names (`kms`, `ssm`, `lambda`): resources of one service share its account-wide quotas. */
  awsService: z.string().optional(),
  tags: z.record(z.string(), z.string()).optional(),
  dependsOn: z.array(z.string()).default([]),
  calledBy: z.array(z.string()).default([]),
});
export type ServiceNode = z.infer<typeof serviceNode>;

export const getDependenciesContract = defineContract({
  name: 'get_dependencies',
  description:
    'The service map: every service with its kind, the AWS service its ARN names, the services it calls (dependsOn) and the services that call it (calledBy). With a service, only that service and everything connected to it. Use it to follow a failure down the call chain; not for health (use get_traces or get_metrics).',
  input: z.object({ service: serviceFilter }),
  output: z.discriminatedUnion('available', [
    unavailable,
    z.object({
      available: z.literal(true),
      services: z.array(serviceNode),
      /** When the asked-for service is unknown: the names that exist. */
      known: z.array(z.string()).optional(),
    }),
  ]),
});
