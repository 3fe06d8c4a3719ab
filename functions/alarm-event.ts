import { cloudWatchAlarmEvent } from '../lib/domain/trigger.ts';
import { admitTrigger } from '../lib/triggers/admit.ts';
import { apiPortsFromEnvironment, logger } from './api-ports.ts';

/** The alarm rule's target: every alarm goes through admission, so storms group and redeliveries start nothing. */
export const handler = async (event: unknown): Promise<void> => {
  const alarm = cloudWatchAlarmEvent.parse(event);
  const admitted = await admitTrigger(apiPortsFromEnvironment(), { cloudwatchAlarm: alarm });
  logger.info('alarm admitted', { alarmName: alarm.detail.alarmName, ...admitted });
};
