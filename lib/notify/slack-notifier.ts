import { WebClient } from '@slack/web-api';
import type { Finding } from '../domain/finding.ts';
import { checkHttpDelivery, DeliveryError } from './delivery-error.ts';
import type { ApprovalNotice, Notice, Notifier } from './port.ts';

/** The approval notice's buttons' action ids (lib/api/slack-interactions-route.ts answers them). */
export const SLACK_APPROVE_ACTION = 'sre_agent_approve';
export const SLACK_REJECT_ACTION = 'sre_agent_reject';

export type SlackTarget =
  /** An incoming webhook URL. */
  | { webhookUrl: string }
  /** A bot token and a channel, through chat.postMessage; `apiUrl` overrides https://slack.com/api/. */
  | { token: string; channel: string; apiUrl?: string };

export interface SlackNotifierOptions {
  target: SlackTarget;
  /** Where a human reads the whole investigation: `<link base>/investigations/<id>`. */
  linkBase?: string;
  fetch?: typeof fetch;
}

export const slackText = (notice: Notice, link: string | undefined): string => {
  const finding: Finding = notice.finding;
  const verdict = finding.incident
    ? `*${finding.rootCause.service}* (${finding.rootCause.category}), confidence ${Math.round(finding.confidence * 100)}%`
    : 'no incident found';
  return [`*${notice.subject}*`, `Verdict: ${verdict}`, finding.rootCause.summary, link && `<${link}|Full investigation ${notice.investigationId}>`]
    .filter(Boolean)
    .join('\n');
};

/** Posts the finding's summary and a link to Slack. */
export class SlackNotifier implements Notifier {
  readonly channel = 'slack';
  private readonly client: WebClient | undefined;

  constructor(private readonly options: SlackNotifierOptions) {
    const { target } = options;
    // Retries are the RetryingNotifier's job, one policy for every channel.
    this.client = 'token' in target ? new WebClient(target.token, { ...(target.apiUrl ? { slackApiUrl: target.apiUrl } : {}), retryConfig: { retries: 0 } }) : undefined;
  }

  async publish(notice: Notice): Promise<{ messageId?: string }> {
    const link = this.options.linkBase ? `${this.options.linkBase.replace(/\/$/, '')}/investigations/${notice.investigationId}` : undefined;
    return this.post(slackText(notice, link));
  }

  async announceApproval(notice: ApprovalNotice): Promise<{ messageId?: string }> {
    const text = `*${notice.subject}*\n${notice.text}`;
    // The buttons carry the approval id only; the click is verified and mapped to an approver by POST /webhooks/slack.
    const button = (label: string, actionId: string, style: 'primary' | 'danger') => ({ type: 'button', text: { type: 'plain_text', text: label }, action_id: actionId, value: notice.approvalId, style });
    const blocks = [
      { type: 'section', text: { type: 'mrkdwn', text } },
      { type: 'actions', block_id: `approval-${notice.approvalId}`, elements: [button('Approve', SLACK_APPROVE_ACTION, 'primary'), button('Reject', SLACK_REJECT_ACTION, 'danger')] },
    ];
    return this.post(text, blocks);
  }

  private async post(text: string, blocks?: readonly object[]): Promise<{ messageId?: string }> {
    const { target } = this.options;
    if ('webhookUrl' in target) {
      let response: Response;
      try {
        response = await (this.options.fetch ?? fetch)(target.webhookUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text, ...(blocks ? { blocks } : {}) }) });
      } catch (error) {
        throw new DeliveryError(`Slack could not be reached: ${error instanceof Error ? error.message : String(error)}`, true);
      }
      await checkHttpDelivery(response, 'the Slack webhook');
      return {};
    }
    try {
      const result = await this.client!.chat.postMessage({ channel: target.channel, text, mrkdwn: true, ...(blocks ? { blocks: blocks as never } : {}) });
      return result.ts ? { messageId: result.ts } : {};
    } catch (error) {
      const code = (error as { code?: string; data?: { error?: string } }).code;
      const slackError = (error as { data?: { error?: string } }).data?.error;
      // Platform errors (channel_not_found, not_authed, ...) will not fix themselves; transport and rate limits may.
      throw new DeliveryError(`Slack chat.postMessage failed: ${slackError ?? (error instanceof Error ? error.message : String(error))}`, code !== 'slack_webapi_platform_error');
    }
  }
}
