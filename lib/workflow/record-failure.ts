import { failureStepInput } from './control.ts';
import type { StepDependencies } from './dependencies.ts';
import { loadMasker } from './privacy.ts';
import { incompleteFinding } from './report.ts';
import { runStep } from './run-step.ts';
import { evidenceIndex } from './write-finding.ts';

export interface FailureOutcome {
  investigationId?: string;
  status: 'failed';
  error: string;
}

/** Step Functions' Cause is often a JSON string holding the error message; keep the message. */
const messageOf = (cause: string | undefined): string => {
  if (!cause) return '';
  try {
    const parsed = JSON.parse(cause) as { errorMessage?: unknown };
    return typeof parsed.errorMessage === 'string' ? parsed.errorMessage : cause;
  } catch {
    return cause;
  }
};

/** Records why a step failed and leaves a partial finding marked incomplete. */
export const recordFailure = async (dependencies: StepDependencies['record-failure'], input: unknown): Promise<FailureOutcome> => {
  const { investigationId, failure } = failureStepInput.parse(input);
  const error = `${failure.Error}: ${messageOf(failure.Cause)}`.replace(/: $/, '');
  if (investigationId === undefined || !(await dependencies.store.get(investigationId))) return { status: 'failed', error };
  return runStep(dependencies, investigationId, 'record-failure', async (head) => {
    const events = await dependencies.store.events(head.id);
    const masker = await loadMasker(dependencies.store, head.id, dependencies.masking);
    const maskedError = masker.mask(error);
    const finding = incompleteFinding(masker.unmask(maskedError), evidenceIndex(events, masker));
    return {
      events: [
        { type: 'error', payload: { error: failure.Error, message: maskedError } },
        { type: 'finding', payload: masker.maskJson(finding) },
      ],
      head: { ...head, status: 'failed', error: masker.unmask(maskedError), finding },
      outcome: { investigationId, status: 'failed', error: masker.unmask(maskedError) },
    };
  });
};
