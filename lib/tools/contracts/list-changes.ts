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

/**
 * Changes reach back two weeks: a lowered limit waits for the next peak, which may come weekly, and
 * CloudTrail keeps 90 days of management events.
 */
export const CHANGES_MAX_SINCE_MINUTES = 14 * 24 * 60;

export const listChangesContract = defineContract({
  name: 'list_changes',
  description:
    'List recent changes (deploys, config, scaling, infrastructure, IAM, network, certificates, feature flags), oldest first. Use it to find what changed shortly before the onset; look back at least a day.',
  input: z.object({ service: serviceFilter, sinceMinutes: sinceMinutes(24 * 60, CHANGES_MAX_SINCE_MINUTES) }),
  output: z.discriminatedUnion('available', [unavailable, z.object({ available: z.literal(true), changes: z.array(changeSummary) })]),
});
