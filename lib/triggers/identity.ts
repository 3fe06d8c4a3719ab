import { createHash, randomUUID } from 'node:crypto';
import type { CloudWatchAlarmEvent, Trigger } from '../domain/trigger.ts';
import { normalizeAwsTimestamp } from './brief.ts';

/** What a trigger is, independent of how often it was delivered. */
export interface TriggerIdentity {
  /**
   * The same for every delivery of one occurrence: an alarm's ARN and state timestamp, a
   * PagerDuty incident id, a sweep's scheduled time. Absent for questions, which are never redelivered.
   */
  occurrenceKey?: string;
  /**
   * Occurrences that belong to one incident: the alarm source and the resource it watches (its
   * dimensions), so two resources behind one rule never merge. Absent when nothing groups.
   */
  groupKey?: string;
  /** The service the trigger points at, when it names one. */
  service?: string;
  /** Where the trigger came from, for humans: an alarm name, an incident title. */
  label: string;
}

/** Dimensions that name the resource's service, most specific first. */
const SERVICE_DIMENSIONS = [
  'ServiceName',
  'FunctionName',
  'ApiName',
  'TableName',
  'QueueName',
  'TopicName',
  'DBClusterIdentifier',
  'DBInstanceIdentifier',
  'TargetGroup',
  'LoadBalancer',
  'ClusterName',
];

/** `targetgroup/storefront-web/3d8e…` and `app/prod-shop/7f3c…` name the resource in their second segment. */
const serviceFromDimension = (name: string, value: string): string => {
  if (name !== 'TargetGroup' && name !== 'LoadBalancer') return value;
  return value.split('/')[1] ?? value;
};

const resourceDimensions = (event: CloudWatchAlarmEvent): Record<string, string> =>
  Object.assign({}, ...(event.detail.configuration?.metrics ?? []).map((metric) => metric.metricStat?.metric.dimensions ?? {}));

export const alarmArn = (event: CloudWatchAlarmEvent): string =>
  event.resources.find((resource) => resource.includes(':alarm:')) ??
  `arn:aws:cloudwatch:${event.region}:${event.account}:alarm:${event.detail.alarmName}`;

const alarmIdentity = (event: CloudWatchAlarmEvent): TriggerIdentity => {
  const arn = alarmArn(event);
  const stateAt = event.detail.state.timestamp ? normalizeAwsTimestamp(event.detail.state.timestamp) : event.time;
  const dimensions = resourceDimensions(event);
  const serviceDimension = SERVICE_DIMENSIONS.find((name) => dimensions[name] !== undefined);
  const service = serviceDimension === undefined ? undefined : serviceFromDimension(serviceDimension, dimensions[serviceDimension]!);
  const resource = Object.entries(dimensions)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${value}`)
    .join(',');
  return {
    occurrenceKey: `alarm|${arn}|${stateAt}`,
    // A composite alarm watches other alarms, not a resource: it groups with its own re-firings.
    groupKey: resource ? `alarm|${event.account}|${event.region}|${service ?? ''}|${resource}` : `alarm|${arn}`,
    ...(service === undefined ? {} : { service }),
    label: event.detail.alarmName,
  };
};

export const identifyTrigger = (trigger: Trigger): TriggerIdentity => {
  if ('cloudwatchAlarm' in trigger) return alarmIdentity(trigger.cloudwatchAlarm);
  if ('pagerduty' in trigger) {
    const { event } = trigger.pagerduty;
    const incidentId = event.data.id ?? event.id;
    const service = event.data.service?.summary;
    return {
      occurrenceKey: `pagerduty|${incidentId}`,
      groupKey: `pagerduty|${incidentId}`,
      ...(service === undefined ? {} : { service }),
      label: event.data.title ?? incidentId,
    };
  }
  if ('schedule' in trigger) {
    const { scheduledAt } = trigger.schedule;
    return { ...(scheduledAt === undefined ? {} : { occurrenceKey: `sweep|${new Date(scheduledAt).toISOString()}` }), label: 'scheduled health sweep' };
  }
  return { ...(trigger.question.service === undefined ? {} : { service: trigger.question.service }), label: trigger.question.text.slice(0, 80) };
};

/** Execution names allow 80 letters, digits, dashes and underscores; a hash of the occurrence fits. */
export const investigationIdFor = (identity: Pick<TriggerIdentity, 'occurrenceKey'>): string =>
  identity.occurrenceKey === undefined
    ? `inv-${randomUUID()}`
    : `inv-${createHash('sha256').update(identity.occurrenceKey).digest('hex').slice(0, 32)}`;
