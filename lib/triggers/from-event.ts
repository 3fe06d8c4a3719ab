import { z } from 'zod';
import { trigger as triggerSchema, type Trigger } from '../domain/trigger.ts';

export class UnrecognizedEventError extends Error {
  override readonly name = 'UnrecognizedEventError';
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Which trigger a raw event is, from the fields each delivery format is known by. */
const wrap = (event: Record<string, unknown>): unknown => {
  if (event.source === 'aws.cloudwatch' || event['detail-type'] === 'CloudWatch Alarm State Change') return { cloudwatchAlarm: event };
  if (isObject(event.event) && 'event_type' in event.event) return { pagerduty: event };
  if (typeof event.question === 'string') {
    return { question: { text: event.question, ...(typeof event.service === 'string' ? { service: event.service } : {}), ...(typeof event.since === 'string' ? { since: event.since } : {}) } };
  }
  return event;
};

/**
 * A real trigger as it is delivered: an EventBridge CloudWatch alarm state-change event, a
 * PagerDuty V3 webhook body, `{"question": "..."}`, or a trigger already in the scenario format.
 */
export const triggerFromEvent = (event: unknown): Trigger => {
  if (!isObject(event)) throw new UnrecognizedEventError('expected a JSON object: an EventBridge CloudWatch alarm event, a PagerDuty V3 webhook body, or {"question": "..."}');
  const parsed = triggerSchema.safeParse(wrap(event));
  if (!parsed.success) {
    throw new UnrecognizedEventError(
      `not a trigger this agent can investigate (an EventBridge CloudWatch alarm event, a PagerDuty V3 webhook body, or {"question": "..."}):\n${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
};

/** The AWS account and region a trigger comes from, when it says. */
export const triggerOrigin = (trigger: Trigger): { accountId?: string; region?: string } =>
  'cloudwatchAlarm' in trigger ? { accountId: trigger.cloudwatchAlarm.account, region: trigger.cloudwatchAlarm.region } : {};
