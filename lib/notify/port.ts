import type { Finding } from '../domain/finding.ts';

export interface Notice {
  investigationId: string;
  subject: string;
  finding: Finding;
}

/** The notifier port: where a finished investigation is announced (an SNS topic, a chat, an incident). */
export interface Notifier {
  readonly channel: string;
  publish(notice: Notice): Promise<{ messageId?: string }>;
}
