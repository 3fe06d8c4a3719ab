import { actionHash } from '../approval/action-hash.ts';
import type { NewTranscriptEvent } from '../domain/transcript.ts';
import type { ToolOutcome } from '../tools/toolbox.ts';
import { callAwaitingApproval, requireApprovals } from './approval-call.ts';
import { approvalResolutionInput, controlState, type ControlState } from './control.ts';
import { toolResults, type ToolResultPayload } from './conversation.ts';
import { now, type StepDependencies } from './dependencies.ts';
import { once } from './once.ts';
import { loadMasker, maskMapDocument } from './privacy.ts';
import { runStep } from './run-step.ts';
import { verifyRecovery } from './verify-recovery.ts';

const TIMEOUT_ERRORS = new Set(['States.Timeout', 'States.HeartbeatTimeout']);
/** An action may take as long as its task's timeout; a replay waits for the first attempt instead of acting twice. */
const ACTION_TIMING = { leaseMs: 5 * 60_000, pollMs: 1_000 };

export type ActionStatus = 'executed' | 'declined' | 'expired' | 'failed';

/**
 * After the approval wait: the record decides. Approved (and the call is the exact one approved):
 * the action runs, once, its result becomes evidence, and the alarm is re-read. Rejected or expired:
 * the model is told the call did not run, and the investigation goes on without it.
 */
export const resolveApproval = async (dependencies: StepDependencies['resolve-approval'], input: unknown): Promise<ControlState> => {
  const { approvalError, ...rest } = approvalResolutionInput.parse(input);
  const state = controlState.parse(rest);
  const [toolCallId, ...remaining] = state.pendingApprovals;
  if (!toolCallId) return state;
  const approvals = requireApprovals(dependencies.approvals);
  return runStep(dependencies, state.investigationId, `resolve-approval#${state.iteration}#${toolCallId}`, async (head) => {
    const events = await dependencies.store.events(head.id);
    const masker = await loadMasker(dependencies.store, head.id, dependencies.masking);
    const { proposed, call, approvalId } = callAwaitingApproval(head, events, toolCallId, masker);
    let record = await approvals.getApproval(approvalId);
    if (!record) throw new Error(`investigation ${head.id}: approval ${approvalId} for call ${toolCallId} was never recorded`);
    const timedOut = approvalError !== undefined && TIMEOUT_ERRORS.has(approvalError.Error);
    if (timedOut) record = (await approvals.expire(approvalId, now(dependencies))) ?? record;
    const exact = record.actionHash === actionHash(call.name, call.arguments);
    const approved = !timedOut && record.status === 'approved' && exact;
    const { toolbox, now: toolClock } = await dependencies.tools.load(head);
    const outcome: ToolOutcome | undefined = approved
      ? await once(dependencies.store, head.id, `action#${approvalId}`, () => toolbox.executeApproved(call, { now: toolClock }), ACTION_TIMING)
      : undefined;
    const status: ActionStatus = outcome ? (outcome.ok ? 'executed' : 'failed') : timedOut || record.status === 'expired' || record.status === 'pending' ? 'expired' : 'declined';
    const ref = `E${toolResults(events).length + 1}`;
    const notRun =
      status === 'expired'
        ? `not run: no one approved it before ${record.expiresAt}; go on without it`
        : !exact
          ? 'not run: the approved action differs from this call'
          : `not run: ${record.decidedBy ?? 'the approver'} rejected it${record.comment ? ` ("${record.comment}")` : ''}; go on without it`;
    const result: ToolResultPayload = outcome
      ? outcome.ok
        ? { toolCallId, name: call.name, ref, summary: outcome.summary, data: outcome.data }
        : { toolCallId, name: call.name, ref, summary: 'the approved action failed', error: outcome.error }
      : { toolCallId, name: call.name, ref, summary: 'not run', error: notRun };
    const recorded: NewTranscriptEvent[] = [
      {
        type: 'approval.decided',
        payload: {
          approvalId,
          decision: status === 'expired' ? 'expired' : record.status,
          ...(record.decidedBy ? { by: record.decidedBy } : {}),
          ...(record.decidedAt ? { at: record.decidedAt } : {}),
          ...(record.comment ? { comment: masker.mask(record.comment) } : {}),
          ...(timedOut && record.status !== 'expired' ? { note: `recorded as ${record.status} but Step Functions timed the wait out first: not run` } : {}),
        },
      },
      { type: 'tool.call', payload: { ...proposed, sideEffect: toolbox.sideEffectOf(call.name) ?? 'unknown' } },
      { type: 'tool.result', payload: masker.maskJson(result) },
    ];
    if (outcome) {
      const data = outcome.ok ? (outcome.data as { target?: string; status?: string }) : undefined;
      recorded.push({
        type: 'action.executed',
        payload: masker.maskJson({ approvalId, action: call.name, target: data?.target ?? record.target, status, ref, ...(outcome.ok ? { summary: outcome.summary } : { error: outcome.error }) }),
      });
      if (outcome.ok) {
        const trigger = await dependencies.store.getTrigger(head.id);
        const verification = await verifyRecovery(toolbox, trigger, data?.status === 'executed', toolClock);
        recorded.push({ type: 'action.verified', payload: masker.maskJson({ approvalId, action: call.name, ...verification }) });
      }
    }
    return {
      events: recorded,
      head: { ...head, usage: { ...head.usage, toolCalls: head.usage.toolCalls + (outcome ? 1 : 0) } },
      documents: maskMapDocument(masker),
      outcome: { ...state, pendingApprovals: remaining },
    };
  });
};
