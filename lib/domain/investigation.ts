import { z } from 'zod';
import { finding } from './finding.ts';
import { usageTotals } from './usage.ts';

export const investigationStatus = z.enum(['running', 'succeeded', 'failed']);
export type InvestigationStatus = z.infer<typeof investigationStatus>;

/** The head record of one investigation. The trigger itself is stored beside it. */
export const investigation = z.object({
  id: z.string(),
  triggerKind: z.enum(['cloudwatchAlarm', 'pagerduty', 'schedule', 'question']),
  triggerSummary: z.string(),
  status: investigationStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
  eventCount: z.number().int().nonnegative(),
  iterations: z.number().int().nonnegative(),
  usage: usageTotals,
  modelName: z.string(),
  finding: finding.optional(),
  error: z.string().optional(),
});
export type Investigation = z.infer<typeof investigation>;
