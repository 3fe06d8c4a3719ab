import type { InvestigationStore } from '../store/port.ts';
import { FanOutNotifier } from './fan-out-notifier.ts';
import { PagerDutyNotifier } from './pagerduty-notifier.ts';
import type { ApprovalNotice, Notice, Notifier } from './port.ts';
import { DEFAULT_RETRY_POLICY, RetryingNotifier, type RetryPolicy } from './retrying-notifier.ts';
import { SlackNotifier, type SlackTarget } from './slack-notifier.ts';

export class ReportChannelsError extends Error {
  override readonly name = 'ReportChannelsError';
}

/** Where finished investigations are reported besides the primary channel. */
export interface ReportChannels {
  pagerDuty?: { apiToken: string; from: string; baseUrl?: string };
  slack?: SlackTarget;
  /** The base URL of the investigations API, for links. */
  linkBase?: string;
}

/**
 * Reads the report channels from settings (the environment locally; on AWS the environment plus
 * the report secret's keys, see report-secret.ts):
 * PAGERDUTY_API_TOKEN + PAGERDUTY_FROM (+ PAGERDUTY_API_URL) post a note on the incident;
 * SLACK_WEBHOOK_URL, or SLACK_BOT_TOKEN + SLACK_CHANNEL (+ SLACK_API_URL), post to Slack;
 * SRE_AGENT_PUBLIC_URL is the link base.
 */
export const reportChannelsFrom = (settings: Record<string, string | undefined>): ReportChannels => {
  const value = (name: string) => (settings[name]?.trim() ? settings[name]!.trim() : undefined);
  const channels: ReportChannels = {};
  const token = value('PAGERDUTY_API_TOKEN');
  if (token) {
    const from = value('PAGERDUTY_FROM');
    if (!from) throw new ReportChannelsError('PAGERDUTY_FROM must name the email of a PagerDuty user when PAGERDUTY_API_TOKEN is set: the REST API requires it on notes');
    const baseUrl = value('PAGERDUTY_API_URL');
    channels.pagerDuty = { apiToken: token, from, ...(baseUrl ? { baseUrl } : {}) };
  }
  const webhookUrl = value('SLACK_WEBHOOK_URL');
  const botToken = value('SLACK_BOT_TOKEN');
  if (webhookUrl) channels.slack = { webhookUrl };
  else if (botToken) {
    const channel = value('SLACK_CHANNEL');
    if (!channel) throw new ReportChannelsError('SLACK_CHANNEL must name a channel (an id such as C0123456789, or #name) when SLACK_BOT_TOKEN is set');
    const apiUrl = value('SLACK_API_URL');
    channels.slack = { token: botToken, channel, ...(apiUrl ? { apiUrl } : {}) };
  }
  const linkBase = value('SRE_AGENT_PUBLIC_URL');
  if (linkBase) channels.linkBase = linkBase;
  return channels;
};

/** The primary notifier plus the configured report channels, each retried with backoff. */
export const withReportChannels = (
  primary: Notifier,
  channels: ReportChannels,
  store: Pick<InvestigationStore, 'getTrigger'>,
  options: { retry?: RetryPolicy; onFailure?: (channel: string, error: unknown) => void } = {},
): Notifier => {
  const retry = options.retry ?? DEFAULT_RETRY_POLICY;
  const link = channels.linkBase ? { linkBase: channels.linkBase } : {};
  const extra: Notifier[] = [
    ...(channels.pagerDuty ? [new PagerDutyNotifier({ store, ...channels.pagerDuty, ...link })] : []),
    ...(channels.slack ? [new SlackNotifier({ target: channels.slack, ...link })] : []),
  ].map((notifier) => new RetryingNotifier(notifier, retry));
  return extra.length === 0 ? primary : new FanOutNotifier([primary, ...extra], options.onFailure);
};

/**
 * The primary notifier plus the report channels, whose settings are read each time a notice goes
 * out, so a rotated token is used without a deploy (the secret reader caches it for its maxAge).
 * When the settings cannot be read or are wrong, the primary channel still announces and the
 * failure is reported; the finding is stored already, so nothing is lost.
 */
export class ReportChannelsNotifier implements Notifier {
  readonly channel: string;

  constructor(
    private readonly primary: Notifier,
    private readonly settings: () => Promise<Record<string, string | undefined>>,
    private readonly store: Pick<InvestigationStore, 'getTrigger'>,
    private readonly options: { retry?: RetryPolicy; onFailure?: (channel: string, error: unknown) => void } = {},
  ) {
    this.channel = `${primary.channel}+report channels`;
  }

  async publish(notice: Notice): Promise<{ messageId?: string }> {
    return (await this.current()).publish(notice);
  }

  async announceApproval(notice: ApprovalNotice): Promise<{ messageId?: string }> {
    return (await this.current()).announceApproval?.(notice) ?? {};
  }

  /** The notifier for this notice: with the channels as the settings say now, or the primary alone when they cannot be read. */
  private async current(): Promise<Notifier> {
    let channels: ReportChannels;
    try {
      channels = reportChannelsFrom(await this.settings());
    } catch (error) {
      this.options.onFailure?.('report channels', error);
      return this.primary;
    }
    return withReportChannels(this.primary, channels, this.store, this.options);
  }
}
