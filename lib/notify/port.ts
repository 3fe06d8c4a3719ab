import type { Finding } from '../domain/finding.ts';

export interface Notice {
  investigationId: string;
  subject: string;
  finding: Finding;
}

/**
 * A proposed action waits for a human: the approval id and everything needed to decide, as text
 * for humans. Never the task token: only the deciding code reads it, from the approval store.
 */
export interface ApprovalNotice {
  investigationId: string;
  approvalId: string;
  subject: string;
  text: string;
}

/** The notifier port: where a finished investigation is announced (an SNS topic, a chat, an incident). */
export interface Notifier {
  readonly channel: string;
  publish(notice: Notice): Promise<{ messageId?: string }>;
  /** Asks for a decision on the same channel; a channel without it announces findings only. */
  announceApproval?(notice: ApprovalNotice): Promise<{ messageId?: string }>;
}
