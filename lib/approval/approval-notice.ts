import type { Approval } from '../domain/approval.ts';
import type { ApprovalNotice, Notifier } from '../notify/port.ts';
import type { LifecycleEvent, LifecyclePublisher } from '../triggers/lifecycle.ts';

/** How a human decides: the API route, IAM-signed; the caller's identity is the approver on the record. */
const decideRoute = (approvalId: string): string => `POST /approvals/${approvalId}`;

/** What an approver needs to decide, for humans: the approval id, never the task token. */
export const approvalNotice = (approval: Approval): ApprovalNotice => ({
  investigationId: approval.investigationId,
  approvalId: approval.id,
  subject: `Approval needed: ${approval.action} on ${approval.target}`,
  text: [
    `Approval ${approval.id} (investigation ${approval.investigationId})`,
    `Action: ${approval.summary}`,
    `Target: ${approval.target}`,
    `Previous value: ${approval.previousValue ?? 'none'}`,
    `Reason: ${approval.reason}`,
    `Expires: ${approval.expiresAt}; without a decision by then the action is not run.`,
    `Decide: ${decideRoute(approval.id)} with {"decision": "approve"} or {"decision": "reject", "comment": "..."} on the investigations API, signed with your IAM identity. Pending approvals: GET /approvals?status=pending`,
  ].join('\n'),
});

/** `approval.requested` on the lifecycle bus, for systems that route or escalate decisions. */
export const approvalRequestedEvent = (approval: Approval): LifecycleEvent => ({
  type: 'approval.requested',
  investigationId: approval.investigationId,
  detail: {
    approvalId: approval.id,
    action: approval.action,
    target: approval.target,
    previousValue: approval.previousValue,
    reason: approval.reason,
    expiresAt: approval.expiresAt,
    decide: decideRoute(approval.id),
  },
});

/**
 * Tells the approvers and the bus that a decision is waiting. The record is written already and
 * `GET /approvals` lists it, so a channel that fails is reported (returned), not fatal.
 */
export const announceApproval = async (ports: { notifier?: Notifier; lifecycle?: LifecyclePublisher }, approval: Approval): Promise<string[]> => {
  const failures: string[] = [];
  const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
  if (ports.notifier?.announceApproval) await ports.notifier.announceApproval(approvalNotice(approval)).catch((error: unknown) => failures.push(`${ports.notifier!.channel}: ${reason(error)}`));
  if (ports.lifecycle) await ports.lifecycle.publish(approvalRequestedEvent(approval)).catch((error: unknown) => failures.push(`lifecycle bus: ${reason(error)}`));
  return failures;
};
