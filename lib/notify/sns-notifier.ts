import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { ApprovalNotice, Notice, Notifier } from './port.ts';

/** SNS subjects are ASCII without line breaks, at most 100 characters. */
const snsSubject = (subject: string): string => subject.replace(/[^\x20-\x7E]/g, '?').slice(0, 100);

/** Publishes findings to an SNS topic; chat, email and incident tools subscribe to it. */
export class SnsNotifier implements Notifier {
  readonly channel = 'sns';

  constructor(
    private readonly client: SNSClient,
    private readonly topicArn: string,
  ) {}

  async publish(notice: Notice): Promise<{ messageId?: string }> {
    const result = await this.client.send(
      new PublishCommand({
        TopicArn: this.topicArn,
        Subject: snsSubject(notice.subject),
        Message: notice.finding.report,
        MessageAttributes: {
          investigationId: { DataType: 'String', StringValue: notice.investigationId },
          incident: { DataType: 'String', StringValue: String(notice.finding.incident) },
        },
      }),
    );
    return result.MessageId ? { messageId: result.MessageId } : {};
  }

  async announceApproval(notice: ApprovalNotice): Promise<{ messageId?: string }> {
    const result = await this.client.send(
      new PublishCommand({
        TopicArn: this.topicArn,
        Subject: snsSubject(notice.subject),
        Message: notice.text,
        MessageAttributes: {
          investigationId: { DataType: 'String', StringValue: notice.investigationId },
          approvalId: { DataType: 'String', StringValue: notice.approvalId },
        },
      }),
    );
    return result.MessageId ? { messageId: result.MessageId } : {};
  }
}
