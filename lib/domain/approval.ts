import { z } from 'zod';

export const approvalStatuses = ['pending', 'approved', 'rejected', 'expired'] as const;
export const approvalStatus = z.enum(approvalStatuses);
export type ApprovalStatus = z.infer<typeof approvalStatus>;

/**
 * Whether Step Functions has heard the decision: `pending` until SendTask* succeeds (a failed send
 * is retried), `task-timed-out` when the task had already closed.
 */
export const callbackStatus = z.enum(['none', 'pending', 'delivered', 'task-timed-out']);

/**
 * A human's approval of one exact remediation call. The task token that resumes the workflow is
 * kept beside the record, server-side, and is no field of it: nothing that reads a record sees it.
 */
export const approval = z.object({
  id: z.string().min(1),
  investigationId: z.string().min(1),
  toolCallId: z.string().min(1),
  /** The tool's name. */
  action: z.string(),
  target: z.string(),
  /** What the call will do, for the approver. */
  summary: z.string(),
  /** The arguments as they will run: real values, for humans (the model only ever saw them masked). */
  arguments: z.record(z.string(), z.unknown()),
  reason: z.string(),
  previousValue: z.string().nullable(),
  /** sha256 of the exact action (tool name and canonical arguments): the workflow runs only the call whose hash was approved. */
  actionHash: z.string(),
  status: approvalStatus,
  requestedAt: z.string(),
  expiresAt: z.string(),
  decidedBy: z.string().optional(),
  decidedAt: z.string().optional(),
  comment: z.string().optional(),
  callback: callbackStatus.default('none'),
});
export type Approval = z.infer<typeof approval>;
