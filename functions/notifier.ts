import { SNSClient } from '@aws-sdk/client-sns';
import { ReportChannelsNotifier } from '../lib/notify/report-channels.ts';
import { reportSettings, secretsManagerReportSecret } from '../lib/notify/report-secret.ts';
import { SnsNotifier } from '../lib/notify/sns-notifier.ts';
import type { InvestigationStore } from '../lib/store/port.ts';
import type { StackEnvironment } from './environment.ts';
import { logger } from './runtime.ts';

/**
 * The SNS topic always; a PagerDuty note and Slack when their settings are present, their tokens
 * from Secrets Manager: where findings are announced (Publish) and decisions asked for (RequestApproval).
 */
export const reportingNotifier = (environment: StackEnvironment, store: Pick<InvestigationStore, 'getTrigger'>): ReportChannelsNotifier => {
  const secretArn = environment.reportSecretArn();
  return new ReportChannelsNotifier(
    new SnsNotifier(new SNSClient({}), environment.notificationTopicArn()),
    reportSettings(process.env, secretArn === undefined ? undefined : secretsManagerReportSecret(secretArn)),
    store,
    { onFailure: (channel, error) => logger.warn('report channel failed', { channel, error: error instanceof Error ? error.message : String(error) }) },
  );
};
