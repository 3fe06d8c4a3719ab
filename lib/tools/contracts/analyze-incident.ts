import { z } from 'zod';
import { rootCauseCategory } from '../../domain/vocabulary.ts';
import { defineContract } from './contract.ts';
import { sinceMinutes } from './shared-inputs.ts';

export const analyzeIncidentContract = defineContract({
  name: 'analyze_incident',
  description:
    'Runs the evidence analyzers over alarms, the service map, changes, logs, metrics and traces: metric onsets and change points, bursts of new log templates, changes just before the onset, and dependency propagation (the earliest failing service below the others). Returns the likely origin, the failure chain, the suspect change, a category and the strongest signals: a starting point to verify with the other tools, not a verdict.',
  input: z.object({
    alertingService: z.string().optional().describe('The service the alert or question is about, if known.'),
    alertText: z.string().optional().describe('The alert or question, for context.'),
    sinceMinutes: sinceMinutes(240),
  }),
  output: z.object({
    incident: z.boolean(),
    likelyOrigin: z.string().optional(),
    category: rootCauseCategory.optional(),
    alertingService: z.string().optional(),
    failureChainAndCandidates: z.array(z.string()),
    suspectChange: z.object({ service: z.string(), at: z.string(), kind: z.string(), summary: z.string() }).nullable(),
    explanation: z.string(),
    proposedRemediation: z.array(z.object({ action: z.string(), target: z.string(), detail: z.string().optional() })),
    strongestSignals: z.array(z.object({ service: z.string(), kind: z.string(), at: z.string().optional(), ongoing: z.boolean(), what: z.string() })),
    /** Survey results that could not be read, by tool: what the analysis had to do without. */
    unreadable: z.array(z.object({ tool: z.string(), problem: z.string() })).default([]),
  }),
});
