import type { CloudWatchAlarmEvent, PagerDutyWebhook, Trigger } from '../domain/trigger.ts';

/** What the agent is told about the trigger: a one-line summary and the full brief. */
export interface TriggerBrief {
  summary: string;
  text: string;
  /** When the trigger fired; investigations look back from here. */
  occurredAt?: string;
}

const lines = (...parts: (string | undefined | false)[]): string => parts.filter(Boolean).join('\n');

const describeAlarm = (event: CloudWatchAlarmEvent): TriggerBrief => {
  const { detail } = event;
  const metrics = (detail.configuration?.metrics ?? []).map((metric) => {
    if (metric.expression) return `- ${metric.id}: expression ${metric.expression}${metric.label ? ` (${metric.label})` : ''}`;
    const stat = metric.metricStat;
    if (!stat) return `- ${metric.id}`;
    const dimensions = Object.entries(stat.metric.dimensions ?? {})
      .map(([name, value]) => `${name}=${value}`)
      .join(', ');
    return `- ${metric.id}: ${stat.metric.namespace ?? '?'} ${stat.metric.name ?? '?'}${dimensions ? ` [${dimensions}]` : ''}, ${stat.stat ?? ''} over ${stat.period ?? '?'}s`;
  });
  return {
    summary: `CloudWatch alarm ${detail.alarmName} is ${detail.state.value}`,
    occurredAt: detail.state.timestamp ? normalizeAwsTimestamp(detail.state.timestamp) : event.time,
    text: lines(
      `CloudWatch alarm "${detail.alarmName}" changed to ${detail.state.value}${detail.previousState ? ` from ${detail.previousState.value}` : ''} at ${event.time} in account ${event.account}, region ${event.region}.`,
      detail.configuration?.description && `Alarm description: ${detail.configuration.description}`,
      detail.state.reason && `State reason: ${detail.state.reason}`,
      detail.state.reasonData && `Reason data: ${detail.state.reasonData}`,
      detail.configuration?.alarmRule && `Composite alarm rule: ${detail.configuration.alarmRule}`,
      metrics.length > 0 && `Metrics:\n${metrics.join('\n')}`,
      event.resources.length > 0 && `Resources: ${event.resources.join(', ')}`,
    ),
  };
};

const describePagerDuty = ({ event }: PagerDutyWebhook): TriggerBrief => {
  const { data } = event;
  const details = data.body?.details;
  return {
    summary: `PagerDuty ${event.event_type}: ${data.title ?? data.id ?? 'incident'}`,
    occurredAt: data.created_at ?? event.occurred_at,
    text: lines(
      `PagerDuty event ${event.event_type} at ${event.occurred_at}.`,
      data.title && `Incident: ${data.title}${data.number === undefined ? '' : ` (#${data.number})`}`,
      data.service?.summary && `PagerDuty service: ${data.service.summary}`,
      data.urgency && `Urgency: ${data.urgency}`,
      data.priority?.summary && `Priority: ${data.priority.summary}`,
      data.status && `Status: ${data.status}`,
      details !== undefined && `Details: ${typeof details === 'string' ? details : JSON.stringify(details)}`,
    ),
  };
};

/** CloudWatch writes `2026-04-06T04:02:00.000+0000`; `Date` wants a colon in the offset. */
export const normalizeAwsTimestamp = (value: string): string => {
  const normalized = value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  return Number.isNaN(Date.parse(normalized)) ? value : new Date(normalized).toISOString();
};

export const describeTrigger = (trigger: Trigger): TriggerBrief => {
  if ('cloudwatchAlarm' in trigger) return describeAlarm(trigger.cloudwatchAlarm);
  if ('pagerduty' in trigger) return describePagerDuty(trigger.pagerduty);
  if ('schedule' in trigger) {
    return {
      summary: 'Scheduled health sweep',
      text: 'Scheduled health sweep: no alert fired. Look at alarms in ALARM or INSUFFICIENT_DATA, anomalies in key metrics (errors, latency, saturation, demand), recent changes and failing dependencies, and report whether there is an incident. Say plainly when everything is healthy: a healthy sweep pages no one.',
    };
  }
  return {
    summary: `Question: ${trigger.question.text}`,
    ...(trigger.question.since === undefined ? {} : { occurredAt: trigger.question.since }),
    text: lines(
      `A teammate asks: "${trigger.question.text}"`,
      trigger.question.service && `They are asking about the service ${trigger.question.service}.`,
      trigger.question.since && `They are asking about the time since ${trigger.question.since}.`,
    ),
  };
};
