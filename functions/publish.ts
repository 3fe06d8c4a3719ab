import { SNSClient } from '@aws-sdk/client-sns';
import { ReportChannelsNotifier } from '../lib/notify/report-channels.ts';
import { reportSettings, secretsManagerReportSecret } from '../lib/notify/report-secret.ts';
import { SnsNotifier } from '../lib/notify/sns-notifier.ts';
import { publish } from '../lib/workflow/publish.ts';
import { coreFrom } from './ports.ts';
import { logger, stepHandler } from './runtime.ts';

export const handler = stepHandler(
  'publish',
  async (environment) => {
    const core = coreFrom(environment);
    const secretArn = environment.reportSecretArn();
    // The SNS topic always; a PagerDuty note and Slack when their settings are present, their tokens from Secrets Manager.
    const notifier = new ReportChannelsNotifier(
      new SnsNotifier(new SNSClient({}), environment.notificationTopicArn()),
      reportSettings(process.env, secretArn === undefined ? undefined : secretsManagerReportSecret(secretArn)),
      core.store,
      { onFailure: (channel, error) => logger.warn('report channel failed', { channel, error: error instanceof Error ? error.message : String(error) }) },
    );
    return { ...core, notifier };
  },
  publish,
);
