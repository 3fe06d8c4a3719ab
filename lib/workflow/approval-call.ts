import { approvalIdFor } from '../approval/action-hash.ts';
import type { Investigation } from '../domain/investigation.ts';
import type { TranscriptEvent } from '../domain/transcript.ts';
import type { Masker } from '../masking/index.ts';
import type { ToolCall } from '../model/port.ts';
import type { ApprovalStore } from '../store/approval-store.ts';
import { lastModelResponse } from './conversation.ts';

/** The approval steps need the approval store: without one, nothing that needs approval can ever run. */
export const requireApprovals = (approvals: ApprovalStore | undefined): ApprovalStore => {
  if (!approvals) throw new Error('a tool call needs a human approval, but no approval store is configured: it cannot run');
  return approvals;
};

/** The call waiting for approval, with its real arguments (the model proposed it masked), its approval id and the model's stated reason. */
export const callAwaitingApproval = (head: Investigation, events: readonly TranscriptEvent[], toolCallId: string, masker: Masker) => {
  const response = lastModelResponse(events);
  const proposed = response?.toolCalls.find((call) => call.id === toolCallId);
  if (!proposed) throw new Error(`investigation ${head.id}: the last model turn has no tool call ${toolCallId} to approve`);
  const call: ToolCall = { ...proposed, arguments: masker.unmaskJson(proposed.arguments) };
  return {
    proposed,
    call,
    approvalId: approvalIdFor(head.id, toolCallId),
    reason: masker.unmask(response?.text ?? '').trim() || 'The model gave no reason with the proposal.',
  };
};
