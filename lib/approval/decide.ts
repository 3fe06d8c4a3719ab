import type { Approval } from '../domain/approval.ts';
import type { ApprovalStore } from '../store/approval-store.ts';
import { APPROVAL_REJECTED_ERROR, TaskClosedError, type TaskCallbacks } from './task-callbacks.ts';

export interface DecisionPorts {
  approvals: ApprovalStore;
  callbacks: TaskCallbacks;
  /** Principals allowed to decide; undefined lets every authenticated caller decide. */
  approvers?: readonly string[];
  clock?: () => Date;
  log?: (line: string) => void;
}

/** A listed role admits the sessions assumed from it: `arn:aws:iam::A:role/R` matches `arn:aws:sts::A:assumed-role/R/<session>`. */
export const principalAllowed = (approvers: readonly string[], caller: string): boolean =>
  approvers.some((listed) => {
    if (listed === caller) return true;
    const role = /^arn:(aws[\w-]*):iam::(\d{12}):role\/(?:.*\/)?([\w+=,.@-]+)$/.exec(listed);
    return role !== null && caller.startsWith(`arn:${role[1]}:sts::${role[2]}:assumed-role/${role[3]}/`);
  });

export type DecisionRequest = { decision: 'approve' | 'reject'; comment?: string };

export type DecisionOutcome =
  | { status: 200; approval: Approval }
  | { status: 403 | 404 | 409 | 410; error: string; approval?: Approval };

/**
 * Tells Step Functions what the record says. The record was written first: a send that fails
 * leaves the callback pending for `redeliverDecisions`, and a closed task is recorded as such.
 */
export const deliverDecision = async (ports: Pick<DecisionPorts, 'approvals' | 'callbacks' | 'log'>, approval: Approval): Promise<Approval['callback']> => {
  const token = await ports.approvals.taskToken(approval.id);
  if (!token) throw new Error(`approval ${approval.id} has no task token to answer`);
  try {
    if (approval.status === 'approved') await ports.callbacks.succeed(token, { approvalId: approval.id, decision: 'approve' });
    else await ports.callbacks.fail(token, APPROVAL_REJECTED_ERROR, `approval ${approval.id} was rejected by ${approval.decidedBy ?? 'an approver'}`);
  } catch (error) {
    if (!(error instanceof TaskClosedError)) throw error;
    await ports.approvals.markCallback(approval.id, 'task-timed-out');
    ports.log?.(`approval ${approval.id}: decision recorded but the task had already closed (${error.message})`);
    return 'task-timed-out';
  }
  await ports.approvals.markCallback(approval.id, 'delivered');
  return 'delivered';
};

/** A recorded decision whose callback failed: sent again until Step Functions answers (delivered or closed). */
export const redeliverDecisions = async (ports: Pick<DecisionPorts, 'approvals' | 'callbacks' | 'log'>): Promise<number> => {
  let delivered = 0;
  for (const approval of await ports.approvals.undeliveredDecisions()) {
    try {
      await deliverDecision(ports, approval);
      delivered += 1;
    } catch (error) {
      ports.log?.(`approval ${approval.id}: callback still failing (${error instanceof Error ? error.name : 'error'}); retried later`);
    }
  }
  return delivered;
};

/**
 * One human decision on one approval: allowed callers only, once, before expiry. The decision is
 * recorded (conditionally, from pending) before Step Functions hears of it; a repeat of the same
 * decision by the same caller whose callback is still pending sends the callback again.
 */
export const decideApproval = async (ports: DecisionPorts, id: string, request: DecisionRequest, approver: string): Promise<DecisionOutcome> => {
  if (ports.approvers && !principalAllowed(ports.approvers, approver)) return { status: 403, error: `${approver} is not on the approvers list` };
  const status = request.decision === 'approve' ? 'approved' : 'rejected';
  const at = (ports.clock ?? (() => new Date()))();
  const result = await ports.approvals.decide(id, { status, by: approver, at, ...(request.comment === undefined ? {} : { comment: request.comment }) });
  switch (result.state) {
    case 'not-found':
      return { status: 404, error: `no approval ${id}` };
    case 'expired':
      return { status: 410, error: `approval ${id} expired at ${result.approval.expiresAt}`, approval: result.approval };
    case 'already-decided': {
      const { approval } = result;
      const sameRetry = approval.status === status && approval.decidedBy === approver && approval.callback === 'pending';
      if (!sameRetry) return { status: 409, error: `approval ${id} was already ${approval.status} by ${approval.decidedBy ?? 'someone'}`, approval };
      const callback = await deliverDecision(ports, approval);
      return { status: 200, approval: { ...approval, callback } };
    }
    case 'decided': {
      const callback = await deliverDecision(ports, result.approval).catch((error: unknown) => {
        ports.log?.(`approval ${id}: decision recorded, callback failed (${error instanceof Error ? error.name : 'error'}); it will be retried`);
        return 'pending' as const;
      });
      return { status: 200, approval: { ...result.approval, callback } };
    }
  }
};
