import { z } from 'zod';
import { defineContract } from './contract.ts';
import { unavailable } from './shared-inputs.ts';

export const resourceEvent = z.object({ timestamp: z.string(), source: z.string(), message: z.string() });

export const describeServiceContract = defineContract({
  name: 'describe_service',
  description:
    "One service's resource as its platform reports it: configuration (Lambda timeout, memory and reserved concurrency; ECS desired/running counts and deployments; RDS class, storage and status) and its recent platform events (ECS service events and stopped-task reasons, RDS events). Use it once a service is suspect; not for logs or metrics.",
  input: z.object({ service: z.string().min(1).describe('The service (exact name, case-insensitive).') }),
  output: z.discriminatedUnion('available', [
    unavailable,
    z.object({
      available: z.literal(true),
      service: z.string(),
      kind: z.string().optional(),
      arn: z.string().optional(),
      configuration: z.record(z.string(), z.unknown()),
      events: z.array(resourceEvent),
    }),
  ]),
});

/** The one way a described service is reported, so each source says the same thing in the same words. */
export const serviceDescription = (described: {
  service: string;
  kind?: string | undefined;
  arn?: string | undefined;
  configuration: Record<string, unknown>;
  events: z.infer<typeof resourceEvent>[];
}) => ({
  summary: `${described.service}${described.kind ? ` (${described.kind})` : ''}: ${described.events.length} recent platform events`,
  data: {
    available: true as const,
    service: described.service,
    ...(described.kind ? { kind: described.kind } : {}),
    ...(described.arn ? { arn: described.arn } : {}),
    configuration: described.configuration,
    events: described.events,
  },
});
