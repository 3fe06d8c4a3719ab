import { actionHash } from '../approval/action-hash.ts';
import { announceApproval } from '../approval/approval-notice.ts';
import type { Approval } from '../domain/approval.ts';
import { InvestigationNotFoundError } from '../store/port.ts';
import { callAwaitingApproval, requireApprovals } from './approval-call.ts';
import { approvalRequestInput } from './control.ts';
import { now, type StepDependencies } from './dependencies.ts';
import { loadMasker } from './privacy.ts';
import { runStep } from './run-step.ts';

/**
 * The Lambda of the approval state (`.waitForTaskToken`): writes the approval record, with the task
 * token beside it and nowhere else, tells the approvers (notice, lifecycle bus) by approval id, then
 * writes the `approval.requested` event. Step Functions then waits
 * for the decision; this step's return value is not the state's result.
 */
export const requestApproval = async (dependencies: StepDependencies['request-approval'], input: unknown): Promise<{ approvalId: string }> => {
  const { state, taskToken, expiresInSeconds } = approvalRequestInput.parse(input);
  const approvals = requireApprovals(dependencies.approvals);
  const toolCallId = state.pendingApprovals[0];
  if (!toolCallId) throw new Error(`investigation ${state.investigationId}: the approval state was entered with no call awaiting approval`);
  const head = await dependencies.store.get(state.investigationId);
  if (!head) throw new InvestigationNotFoundError(state.investigationId);
  const events = await dependencies.store.events(head.id);
  const masker = await loadMasker(dependencies.store, head.id, dependencies.masking);
  const { call, approvalId, reason } = callAwaitingApproval(head, events, toolCallId, masker);
  // A retried request (a new token) keeps the first record's description, reason and expiry.
  let record: Approval | undefined = await approvals.getApproval(approvalId);
  if (!record) {
    const { toolbox, now: toolClock } = await dependencies.tools.load(head);
    const described = await toolbox.describeCall(call, { now: toolClock });
    const requestedAt = now(dependencies);
    record = {
      id: approvalId,
      investigationId: head.id,
      toolCallId,
      action: call.name,
      target: described.target,
      summary: described.summary,
      arguments: call.arguments,
      reason,
      previousValue: described.previousValue,
      actionHash: actionHash(call.name, call.arguments),
      status: 'pending',
      requestedAt: requestedAt.toISOString(),
      expiresAt: new Date(requestedAt.getTime() + expiresInSeconds * 1000).toISOString(),
      callback: 'none',
    };
  }
  const stored = await approvals.requestApproval(record, taskToken);
  // At least once: a retried request announces again rather than risk no one hearing of it.
  const announcementFailures = await announceApproval(dependencies, stored);
  await runStep(dependencies, head.id, `request-approval#${state.iteration}#${toolCallId}`, async (current) => ({
    events: [
      {
        type: 'approval.requested',
        payload: masker.maskJson({
          approvalId,
          toolCallId,
          action: stored.action,
          target: stored.target,
          summary: stored.summary,
          arguments: stored.arguments,
          previousValue: stored.previousValue,
          reason: stored.reason,
          expiresAt: stored.expiresAt,
          actionHash: stored.actionHash,
          ...(announcementFailures.length > 0 ? { announcementFailures } : {}),
        }),
      },
    ],
    head: current,
    outcome: { approvalId },
  }));
  return { approvalId };
};
