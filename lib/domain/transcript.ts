import { z } from 'zod';
import { tokenUsage } from './usage.ts';

export const transcriptEventTypes = [
  'plan',
  'model.request',
  'model.response',
  'tool.call',
  'tool.result',
  'approval.requested',
  'approval.decided',
  'action.executed',
  'action.verified',
  'reflection',
  'finding',
  'notification',
  'error',
] as const;
export const transcriptEventType = z.enum(transcriptEventTypes);
export type TranscriptEventType = z.infer<typeof transcriptEventType>;

/** One append-only entry of an investigation's transcript. */
export const transcriptEvent = z.object({
  seq: z.number().int().positive(),
  type: transcriptEventType,
  at: z.string(),
  /** Which workflow step wrote it (for example `call-model#3`); a replayed step finds its own events by it. */
  step: z.string(),
  payload: z.unknown(),
  usage: tokenUsage.optional(),
});
export type TranscriptEvent = z.infer<typeof transcriptEvent>;

/** An event before the store gives it a sequence number and time. */
export type NewTranscriptEvent = Omit<TranscriptEvent, 'seq' | 'at' | 'step'>;
