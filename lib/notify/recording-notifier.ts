import type { ApprovalNotice, Notice, Notifier } from './port.ts';

/** Keeps notices in memory: the local runner prints them instead of sending them anywhere. */
export class RecordingNotifier implements Notifier {
  readonly channel = 'local';
  readonly notices: Notice[] = [];
  readonly approvalNotices: ApprovalNotice[] = [];

  async publish(notice: Notice): Promise<{ messageId?: string }> {
    this.notices.push(notice);
    return { messageId: `local-${this.notices.length}` };
  }

  async announceApproval(notice: ApprovalNotice): Promise<{ messageId?: string }> {
    this.approvalNotices.push(notice);
    return { messageId: `local-approval-${this.approvalNotices.length}` };
  }
}
