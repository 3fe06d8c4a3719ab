import type { Approval } from '../domain/approval.ts';

export type Decision = { status: 'approved' | 'rejected'; by: string; at: Date; comment?: string };

export type DecideResult =
  | { state: 'decided'; approval: Approval }
  | { state: 'not-found' }
  /** Already decided (by anyone): the record as it stands. */
  | { state: 'already-decided'; approval: Approval }
  | { state: 'expired'; approval: Approval };

/** The approval-record port. Every status change is conditional on `pending`, so each approval is decided once. */
export interface ApprovalStore {
  /**
   * Writes the record as pending with the task token beside it. A retried request for the same
   * (still pending) approval keeps the record and replaces the token: only the newest token resumes the workflow.
   */
  requestApproval(record: Approval, taskToken: string): Promise<Approval>;
  getApproval(id: string): Promise<Approval | undefined>;
  /** Oldest first. */
  listApprovals(status: Approval['status'], limit?: number): Promise<Approval[]>;
  /** From `pending`, before its expiry, only; the callback becomes `pending` in the same write. */
  decide(id: string, decision: Decision): Promise<DecideResult>;
  /** From `pending` only; returns the record as it stands afterwards. */
  expire(id: string, at: Date): Promise<Approval | undefined>;
  /** The token to answer Step Functions with: only the deciding code reads it, and never returns it. */
  taskToken(id: string): Promise<string | undefined>;
  /** From a `pending` callback only: the first answer Step Functions gave stays on the record. */
  markCallback(id: string, callback: 'delivered' | 'task-timed-out'): Promise<void>;
  /** Decided approvals whose callback has not reached Step Functions yet. */
  undeliveredDecisions(limit?: number): Promise<Approval[]>;
}
