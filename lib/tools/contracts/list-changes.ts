import { z } from 'zod';
import { defineContract } from './contract.ts';
import { serviceFilter, sinceMinutes, unavailable } from './shared-inputs.ts';

export const changeSummary = z.object({
  service: z.string(),
  timestamp: z.string(),
  kind: z.string(),
  summary: z.string(),
  actor: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ChangeSummary = z.infer<typeof changeSummary>;

export const listChangesContract = defineContract({
  name: 'list_changes',
  description:
    'List recent changes (deploys, config, scaling, infrastructure, IAM, network, certificates, feature flags), oldest first. Use it to find what changed shortly before the onset; look back at least a day.',
  input: z.object({ service: serviceFilter, sinceMinutes: sinceMinutes(24 * 60) }),
  output: z.discriminatedUnion('available', [unavailable, z.object({ available: z.literal(true), changes: z.array(changeSummary) })]),
});
