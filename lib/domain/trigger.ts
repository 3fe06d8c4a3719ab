import { z } from 'zod';
import { isoTimestamp } from './time.ts';

const alarmState = z.object({
  value: z.string(),
  reason: z.string().optional(),
  reasonData: z.string().optional(),
  timestamp: z.string().optional(),
});

const metricStat = z.object({
  metric: z.object({
    namespace: z.string().optional(),
    name: z.string().optional(),
    dimensions: z.record(z.string(), z.string()).optional(),
  }),
  period: z.number().optional(),
  stat: z.string().optional(),
  unit: z.string().optional(),
});

const alarmMetric = z.object({
  id: z.string(),
  returnData: z.boolean().optional(),
  metricStat: metricStat.optional(),
  expression: z.string().optional(),
  label: z.string().optional(),
});

/** An EventBridge "CloudWatch Alarm State Change" event, as AWS delivers it. */
export const cloudWatchAlarmEvent = z.object({
  version: z.string().optional(),
  id: z.string(),
  'detail-type': z.literal('CloudWatch Alarm State Change'),
  source: z.literal('aws.cloudwatch'),
  account: z.string(),
  time: isoTimestamp,
  region: z.string(),
  resources: z.array(z.string()).default([]),
  detail: z.object({
    alarmName: z.string(),
    state: alarmState,
    previousState: alarmState.optional(),
    configuration: z
      .object({
        description: z.string().optional(),
        metrics: z.array(alarmMetric).optional(),
        alarmRule: z.string().optional(),
      })
      .optional(),
  }),
});
export type CloudWatchAlarmEvent = z.infer<typeof cloudWatchAlarmEvent>;

const pagerDutyReference = z.object({ id: z.string().optional(), summary: z.string().optional(), type: z.string().optional() });

/** A PagerDuty V3 webhook body. */
export const pagerDutyWebhook = z.object({
  event: z.object({
    id: z.string(),
    event_type: z.string(),
    resource_type: z.string(),
    occurred_at: isoTimestamp,
    agent: pagerDutyReference.nullable().optional(),
    client: z.object({ name: z.string().optional() }).nullable().optional(),
    data: z.object({
      id: z.string().optional(),
      type: z.string().optional(),
      title: z.string().optional(),
      number: z.number().optional(),
      status: z.string().optional(),
      urgency: z.string().optional(),
      incident_key: z.string().nullable().optional(),
      created_at: z.string().optional(),
      html_url: z.string().optional(),
      service: pagerDutyReference.nullable().optional(),
      priority: pagerDutyReference.nullable().optional(),
      body: z.object({ details: z.unknown().optional() }).nullable().optional(),
    }),
  }),
});
export type PagerDutyWebhook = z.infer<typeof pagerDutyWebhook>;

/** `scheduledAt`: the time EventBridge Scheduler scheduled it for; it delivers at least once, and the time tells a repeat apart. */
export const scheduledSweep = z.object({ sweep: z.literal('health'), scheduledAt: isoTimestamp.optional() });
export const question = z.object({ text: z.string().min(1), service: z.string().optional(), since: isoTimestamp.optional() });

export type Trigger =
  | { cloudwatchAlarm: CloudWatchAlarmEvent }
  | { pagerduty: PagerDutyWebhook }
  | { schedule: z.infer<typeof scheduledSweep> }
  | { question: z.infer<typeof question> };

export type TriggerKind = 'cloudwatchAlarm' | 'pagerduty' | 'schedule' | 'question';
const triggerKinds: readonly TriggerKind[] = ['cloudwatchAlarm', 'pagerduty', 'schedule', 'question'];

/** What starts an investigation: exactly one of the four kinds; other keys are ignored. */
export const trigger = z
  .object({
    cloudwatchAlarm: cloudWatchAlarmEvent.optional(),
    pagerduty: pagerDutyWebhook.optional(),
    schedule: scheduledSweep.optional(),
    question: question.optional(),
  })
  .superRefine((value, ctx) => {
    const present = triggerKinds.filter((kind) => value[kind] !== undefined);
    if (present.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: `expected exactly one of ${triggerKinds.join(', ')}; found ${present.length === 0 ? 'none' : present.join(', ')}`,
      });
    }
  })
  .transform((value): Trigger => {
    const kind = triggerKinds.find((candidate) => value[candidate] !== undefined)!;
    return { [kind]: value[kind] } as Trigger;
  });

export const triggerKind = (value: Trigger): TriggerKind => {
  if ('cloudwatchAlarm' in value) return 'cloudwatchAlarm';
  if ('pagerduty' in value) return 'pagerduty';
  if ('schedule' in value) return 'schedule';
  return 'question';
};
