import { SNSClient } from '@aws-sdk/client-sns';
import { reportChannelsFrom, withReportChannels } from '../lib/notify/report-channels.ts';
import { SnsNotifier } from '../lib/notify/sns-notifier.ts';
import { publish } from '../lib/workflow/publish.ts';
import { coreFrom } from './ports.ts';
import { logger, stepHandler } from './runtime.ts';

export const handler = stepHandler(
  'publish',
  async (environment) => {
    const core = coreFrom(environment);
    // The SNS topic always; a PagerDuty note and Slack when their settings are present.
    const notifier = withReportChannels(new SnsNotifier(new SNSClient({}), environment.notificationTopicArn()), reportChannelsFrom(process.env), core.store, {
      onFailure: (channel, error) => logger.warn('report channel failed after retries', { channel, error: error instanceof Error ? error.message : String(error) }),
    });
    return { ...core, notifier };
  },
  publish,
);
