import { CloudWatchClient, DescribeAlarmsCommand, type CompositeAlarm, type MetricAlarm, type StateValue } from '@aws-sdk/client-cloudwatch';
import { listAlarmsContract, type AlarmSummary } from '../../../lib/tools/contracts/list-alarms.ts';
import { noData } from '../../../lib/tools/contracts/shared-inputs.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import { deniedReason, isAccessDenied } from '../api-errors.ts';
import type { ServiceCatalog } from '../catalog.ts';
import type { AwsToolDependencies } from '../tools.ts';
import { isoOf } from '../time-format.ts';

/** The service an alarm no catalog entry claims is reported as this, rather than dropped. */
export const UNATTRIBUTED = 'unknown';

export interface DescribedAlarms {
  metric: MetricAlarm[];
  composite: CompositeAlarm[];
}

/** Every metric and composite alarm, optionally only those in one state, all pages. */
export const describeAllAlarms = async (client: CloudWatchClient, state?: StateValue): Promise<DescribedAlarms> => {
  const described: DescribedAlarms = { metric: [], composite: [] };
  let token: string | undefined;
  do {
    const page = await client.send(
      new DescribeAlarmsCommand({
        AlarmTypes: ['MetricAlarm', 'CompositeAlarm'],
        MaxRecords: 100,
        ...(state ? { StateValue: state } : {}),
        ...(token ? { NextToken: token } : {}),
      }),
    );
    described.metric.push(...(page.MetricAlarms ?? []));
    described.composite.push(...(page.CompositeAlarms ?? []));
    token = page.NextToken || undefined;
  } while (token);
  return described;
};

const dimensionRecord = (dimensions: readonly { Name?: string; Value?: string }[] | undefined): Record<string, string> =>
  Object.fromEntries((dimensions ?? []).filter((dimension) => dimension.Name && dimension.Value !== undefined).map((dimension) => [dimension.Name, dimension.Value]));

/** The dimension sets an alarm watches: its own metric's, or each metric of its metric math. */
export const alarmDimensionSets = (alarm: MetricAlarm | CompositeAlarm): Record<string, string>[] =>
  'AlarmRule' in alarm ? [] : metricDimensionSets(alarm);

const metricDimensionSets = (alarm: MetricAlarm): Record<string, string>[] =>
  [alarm.Dimensions, ...(alarm.Metrics ?? []).map((query) => query.MetricStat?.Metric?.Dimensions)]
    .filter((dimensions) => dimensions !== undefined && dimensions.length > 0)
    .map(dimensionRecord);

/** By naming convention: the longest known service name inside the alarm's name. */
const serviceNamedIn = (alarmName: string, serviceNames: readonly string[]): string | undefined => {
  const lowered = alarmName.toLowerCase();
  return [...serviceNames].sort((a, b) => b.length - a.length).find((name) => lowered.includes(name.toLowerCase()));
};

/** Dimensions that name a resource, most specific first; an unknown service is better named by its resource than not at all. */
const NAMING_DIMENSIONS = ['Service', 'ServiceName', 'FunctionName', 'DBInstanceIdentifier', 'DBClusterIdentifier', 'TableName', 'QueueName', 'TopicName', 'ApiName', 'TargetGroup', 'LoadBalancer'];

const resourceNamedBy = (dimensionSets: readonly Record<string, string>[]): string | undefined => {
  const value =
    NAMING_DIMENSIONS.map((key) => dimensionSets.find((dimensions) => dimensions[key] !== undefined)?.[key]).find((named) => named !== undefined) ??
    dimensionSets.map((dimensions) => Object.values(dimensions)[0]).find((first) => first !== undefined);
  // `targetgroup/<name>/<id>` and `app/<name>/<id>` name the resource in the middle.
  return value === undefined ? undefined : (/^(?:targetgroup|app|net)\/([^/]+)\//.exec(value)?.[1] ?? value);
};

/** The service an alarm watches: by its metric's dimensions, else its ARN's tags, else its name, else the resource it watches. */
export const serviceOfAlarm = async (alarm: MetricAlarm | CompositeAlarm, catalog: ServiceCatalog, serviceNames: readonly string[]): Promise<string> => {
  const dimensionSets = alarmDimensionSets(alarm);
  for (const dimensions of dimensionSets) {
    const service = await catalog.serviceOfDimensions(dimensions);
    if (service) return service;
  }
  const tagged = alarm.AlarmArn ? await catalog.serviceOfArn(alarm.AlarmArn) : undefined;
  return tagged ?? serviceNamedIn(alarm.AlarmName ?? '', serviceNames) ?? resourceNamedBy(dimensionSets) ?? UNATTRIBUTED;
};

/** Severity is no CloudWatch field: teams write it in the description (`severity: high`). */
const severityOf = (description: string | undefined): string | undefined => /\bseverity\s*[:=]\s*([\w-]+)/i.exec(description ?? '')?.[1];

const summarize = async (alarm: MetricAlarm | CompositeAlarm, catalog: ServiceCatalog, serviceNames: readonly string[]): Promise<AlarmSummary> => {
  const severity = severityOf(alarm.AlarmDescription);
  return {
    name: alarm.AlarmName ?? '(unnamed alarm)',
    service: await serviceOfAlarm(alarm, catalog, serviceNames),
    state: alarm.StateValue ?? 'INSUFFICIENT_DATA',
    ...(alarm.StateUpdatedTimestamp ? { since: isoOf(alarm.StateUpdatedTimestamp) } : {}),
    ...(alarm.StateReason ? { reason: alarm.StateReason } : {}),
    ...(severity ? { severity } : {}),
  };
};

export const listAlarms = ({ clients, catalog }: AwsToolDependencies) =>
  implementTool(listAlarmsContract, {
    sideEffect: 'read-only',
    iamActions: ['cloudwatch:DescribeAlarms'],
    run: async (input) => {
      let described: DescribedAlarms;
      try {
        described = await describeAllAlarms(clients.get(CloudWatchClient), input.state);
      } catch (error) {
        if (isAccessDenied(error)) return noData('alarms could not be read', deniedReason('cloudwatch:DescribeAlarms', error));
        throw error;
      }
      const serviceNames = (await catalog.services()).map((service) => service.name);
      const alarms = await Promise.all([...described.metric, ...described.composite].map((alarm) => summarize(alarm, catalog, serviceNames)));
      const firing = alarms.filter((alarm) => alarm.state === 'ALARM').length;
      return { summary: `${alarms.length} alarms, ${firing} in ALARM`, data: { available: true as const, alarms } };
    },
  });
