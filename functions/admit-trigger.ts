import { z } from 'zod';
import { cloudWatchAlarmEvent, scheduledSweep, type Trigger } from '../lib/domain/trigger.ts';
import { admitTrigger } from '../lib/triggers/admit.ts';
import { identifyTrigger } from '../lib/triggers/identity.ts';
import { apiPortsFromEnvironment, logger } from './api-ports.ts';

/** What the doors that are not HTTP deliver: the alarm rule's events and EventBridge Scheduler's health sweeps. */
const admissible = z.union([
  cloudWatchAlarmEvent.transform((alarm): Trigger => ({ cloudwatchAlarm: alarm })),
  z.strictObject({ schedule: scheduledSweep }).transform((sweep): Trigger => sweep),
]);

/** Every alarm and scheduled sweep goes through admission: storms group, redeliveries start nothing, the running cap holds. */
export const handler = async (event: unknown): Promise<void> => {
  const trigger = admissible.parse(event);
  const admitted = await admitTrigger(apiPortsFromEnvironment(), trigger);
  logger.info('trigger admitted', { trigger: identifyTrigger(trigger).label, ...admitted });
};
