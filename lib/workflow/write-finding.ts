import type { TranscriptEvent } from '../domain/transcript.ts';
import { parseFinalAnswer } from '../model/final-answer.ts';
import type { Masker } from '../masking/index.ts';
import { actionsOf, actionsSection } from './actions-taken.ts';
import { controlState, type ControlState } from './control.ts';
import { lastModelResponse, toolResults } from './conversation.ts';
import type { StepDependencies } from './dependencies.ts';
import { loadMasker } from './privacy.ts';
import { reviewDraft, unknownEvidenceRefs } from './reflection.ts';
import { findingFrom, incompleteFinding, NOTHING_DONE } from './report.ts';
import { runStep } from './run-step.ts';
import { sweepDigest, sweepDigestSection } from '../triggers/sweep-digest.ts';

/** Evidence refs and their one-line summaries, unmasked for humans. */
export const evidenceIndex = (events: readonly TranscriptEvent[], masker: Masker): Map<string, string> =>
  new Map(toolResults(events).map((result) => [result.ref, masker.unmask(`${result.name}: ${result.error ?? result.summary}`)]));

/** Turns the model's final answer into the finding: validated, evidence checked, unmasked for humans. */
export const writeFinding = async (dependencies: StepDependencies['write-finding'], input: unknown): Promise<ControlState> => {
  const state = controlState.parse(input);
  return runStep(dependencies, state.investigationId, 'write-finding', async (head) => {
    const events = await dependencies.store.events(head.id);
    const masker = await loadMasker(dependencies.store, head.id, dependencies.masking);
    const evidence = evidenceIndex(events, masker);
    const answer = parseFinalAnswer(lastModelResponse(events)?.text ?? '');
    const unknownRefs = answer.ok ? unknownEvidenceRefs(answer.draft, events) : [];
    const finding = state.stopReason
      ? incompleteFinding(state.stopReason, evidence)
      : !answer.ok
      ? incompleteFinding(`the model gave no usable final answer (${answer.error})`, evidence)
      : unknownRefs.length > 0
        ? { ...findingFrom(masker.unmaskJson(answer.draft), evidence), incomplete: { reason: `cites evidence that does not exist: ${unknownRefs.join(', ')}` } }
        : findingFrom(masker.unmaskJson(answer.draft), evidence);
    const revised = events.some((event) => event.type === 'reflection' && (event.payload as { revisionRequested?: boolean }).revisionRequested === true);
    const review = answer.ok && !state.stopReason ? { ...reviewDraft(answer.draft, events), revised } : undefined;
    const reviewed = review
      ? {
          ...finding,
          review,
          report: `${finding.report}\n\n## Review\n${review.passed ? 'Checked against the evidence: every cited ref exists, the services are in the service map, the root cause comes first.' : `Checked against the evidence, with open problems:\n${review.problems.map((problem) => `- ${masker.unmask(problem)}`).join('\n')}`}${review.revised ? '\n\nThe first draft was revised after the check.' : ''}`,
        }
      : finding;
    // Proposed actions that went through approval: executed, declined or expired, and the verification.
    const actions = actionsSection(events, (text) => masker.unmask(text));
    const done = actionsOf(events).some((action) => action.status === 'executed' || action.status === 'failed');
    const reported = actions
      ? { ...reviewed, report: `${done ? reviewed.report.replace(NOTHING_DONE, 'Done: see Actions; each ran only after a human approved it.') : reviewed.report}\n\n${actions}` }
      : reviewed;
    // A health sweep's finding is its digest: what it looked at, whether or not anything was wrong.
    const written = head.triggerKind === 'schedule' ? { ...reported, report: `${reported.report}\n\n${sweepDigestSection(sweepDigest(events), (text) => masker.unmask(text))}` } : reported;
    return {
      events: [{ type: 'finding', payload: masker.maskJson(written) }],
      head: { ...head, finding: written },
      outcome: state,
    };
  });
};
