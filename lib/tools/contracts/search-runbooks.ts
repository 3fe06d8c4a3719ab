import { z } from 'zod';
import { defineContract } from './contract.ts';
import { unavailable } from './shared-inputs.ts';

export const runbookMatch = z.object({
  id: z.string(),
  title: z.string(),
  service: z.string().optional(),
  match: z.array(z.string()).optional(),
  steps: z.array(z.string()),
  score: z.number().optional(),
});
export type RunbookMatch = z.infer<typeof runbookMatch>;

export const searchRunbooksContract = defineContract({
  name: 'search_runbooks',
  description:
    "Search the team's runbooks by free text (symptoms, error messages, components). Returns the best matches with their steps. Use it once you have a hypothesis, to propose the team's own remediation.",
  input: z.object({
    query: z.string().min(1).describe('What to look for, e.g. "connection pool exhausted".'),
    service: z.string().optional().describe('Prefer runbooks for this service.'),
    limit: z.number().int().positive().max(10).default(3),
  }),
  output: z.discriminatedUnion('available', [unavailable, z.object({ available: z.literal(true), runbooks: z.array(runbookMatch) })]),
});
