import { z } from 'zod';
import { finding } from './finding.ts';
import { usageTotals } from './usage.ts';

/** Where the investigation's tools get their data. */
export const toolSourceRef = z.discriminatedUnion('kind', [
  /** A recorded environment (a scenario's), stored as a snapshot in the table. */
  z.object({ kind: z.literal('scenario-replay'), snapshot: z.string() }),
  /**
   * The AWS tools against an account: live, or (locally) with every SDK call answered from a
   * recorded environment stored as a snapshot, so the same tool code runs without an account.
   */
  z.object({
    kind: z.literal('aws'),
    accountId: z.string().regex(/^\d{12}$/).optional(),
    region: z.string().optional(),
    emulatedSnapshot: z.string().optional(),
  }),
  /** No tool source is configured: the model investigates with the trigger alone. */
  z.object({ kind: z.literal('none') }),
]);
export type ToolSourceRef = z.infer<typeof toolSourceRef>;

export const investigationStatus = z.enum(['running', 'succeeded', 'failed', 'cancelled']);
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
  toolSource: toolSourceRef,
  /** The service the trigger points at, when it names one (alarm dimensions, a question's service). */
  service: z.string().optional(),
  /** The Step Functions execution that owns it; a second execution for the same trigger is refused. */
  executionId: z.string().optional(),
  finding: finding.optional(),
  error: z.string().optional(),
});
export type Investigation = z.infer<typeof investigation>;
