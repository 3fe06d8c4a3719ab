import type { Investigation } from '../domain/investigation.ts';
import type { NewTranscriptEvent } from '../domain/transcript.ts';
import { InvestigationNotFoundError, StepConflictError } from '../store/port.ts';
import { now, type WorkflowDependencies } from './dependencies.ts';

export interface StepWork<Outcome> {
  events: NewTranscriptEvent[];
  /** The new head; its event count and update time are filled in here. */
  head: Investigation;
  documents?: Record<string, unknown>;
  outcome: Outcome;
}

/**
 * Runs one workflow step exactly once in effect: a step that already committed returns its
 * recorded outcome without doing the work again, and a step's events, head update and
 * documents are committed in one transaction, so a crash never leaves half a step behind.
 */
export const runStep = async <Outcome>(
  dependencies: Pick<WorkflowDependencies, 'store' | 'clock'>,
  investigationId: string,
  step: string,
  work: (head: Investigation) => Promise<StepWork<Outcome>>,
): Promise<Outcome> => {
  const { store } = dependencies;
  const recorded = await store.stepOutcome(investigationId, step);
  if (recorded !== undefined) return recorded as Outcome;
  const head = await store.get(investigationId);
  if (!head) throw new InvestigationNotFoundError(investigationId);
  const result = await work(head);
  try {
    await store.commitStep(investigationId, {
      step,
      expectedEventCount: head.eventCount,
      events: result.events,
      head: { ...result.head, eventCount: head.eventCount + result.events.length, updatedAt: now(dependencies).toISOString() },
      documents: result.documents,
      outcome: result.outcome,
    });
  } catch (error) {
    if (error instanceof StepConflictError) {
      const committedMeanwhile = await store.stepOutcome(investigationId, step);
      if (committedMeanwhile !== undefined) return committedMeanwhile as Outcome;
    }
    throw error;
  }
  return result.outcome;
};
