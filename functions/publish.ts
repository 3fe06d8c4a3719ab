import { SNSClient } from '@aws-sdk/client-sns';
import { SnsNotifier } from '../lib/notify/sns-notifier.ts';
import { publish } from '../lib/workflow/publish.ts';
import { coreFrom } from './ports.ts';
import { stepHandler } from './runtime.ts';

export const handler = stepHandler(
  'publish',
  async (environment) => ({ ...coreFrom(environment), notifier: new SnsNotifier(new SNSClient({}), environment.notificationTopicArn()) }),
  publish,
);
