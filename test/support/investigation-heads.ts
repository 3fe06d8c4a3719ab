import type { Investigation } from '../../lib/domain/investigation.ts';
import { emptyUsage } from '../../lib/domain/usage.ts';

export const checkoutQuestion = { question: { text: 'why is checkout slow?' } };

/** A running investigation of `checkoutQuestion`, as the store keeps its head. */
export const runningInvestigation = (id: string, createdAt: string, eventCount = 0): Investigation => ({
  id,
  triggerKind: 'question',
  triggerSummary: checkoutQuestion.question.text,
  status: 'running',
  createdAt,
  updatedAt: createdAt,
  eventCount,
  iterations: 0,
  usage: emptyUsage(),
  modelName: 'offline-analyst',
  toolSource: { kind: 'none' },
});
