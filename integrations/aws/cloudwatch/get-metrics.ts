import {
  CloudWatchClient,
  GetMetricDataCommand,
  ListMetricsCommand,
  type Metric,
  type MetricAlarm,
  type MetricDataQuery,
} from '@aws-sdk/client-cloudwatch';
import { earlierWindows, getMetricsContract, MAX_SERIES_POINTS, summarizedPoints, type EarlierDay, type MetricSeriesSummary } from '../../../lib/tools/contracts/get-metrics.ts';
import { noData } from '../../../lib/tools/contracts/shared-inputs.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import { deniedReason, isAccessDenied } from '../api-errors.ts';
import type { ServiceCatalog, ServiceResources } from '../catalog.ts';
import type { AwsToolDependencies } from '../tools.ts';
import { isoOf } from '../time-format.ts';
import { alarmDimensionSets, describeAllAlarms, serviceOfAlarm, UNATTRIBUTED } from './list-alarms.ts';

/** GetMetricData takes at most 500 queries a call. */
export const MAX_QUERIES_PER_CALL = 500;
/** GetMetricData's end is exclusive: a second past a window's end keeps the datapoint stamped at it. */
const INCLUSIVE_END_MS = 1000;
/** Series per answer: alarms' metrics first, then each namespace's key metrics, then the rest. */
const MAX_SERIES = 60;
/** Series read to fill the answer: many listed metrics have no data in the window. */
const MAX_FETCHED = 1000;
/** The account-wide metric listing stops after this many pages (500 metrics each). */
const MAX_LISTING_PAGES = 10;

/** The metrics that tell a resource's health, by namespace, in the order worth reading. */
const keyMetrics: Readonly<Record<string, readonly string[]>> = {
  'AWS/Lambda': ['Errors', 'Throttles', 'Duration', 'ConcurrentExecutions', 'Invocations'],
  'AWS/ECS': ['CPUUtilization', 'MemoryUtilization'],
  'AWS/RDS': ['DatabaseConnections', 'CPUUtilization', 'FreeStorageSpace', 'ReplicaLag', 'ReadLatency', 'WriteLatency', 'FreeableMemory'],
  'AWS/DynamoDB': ['ThrottledRequests', 'ConsumedWriteCapacityUnits', 'WriteThrottleEvents', 'ReadThrottleEvents', 'ConsumedReadCapacityUnits'],
  'AWS/SQS': ['ApproximateNumberOfMessagesVisible', 'ApproximateAgeOfOldestMessage'],
  'AWS/ApplicationELB': ['HTTPCode_Target_5XX_Count', 'TargetResponseTime', 'HTTPCode_ELB_5XX_Count', 'UnHealthyHostCount', 'RequestCount'],
  'AWS/ApiGateway': ['5XXError', 'Latency', 'Count'],
};

/** The statistic that summarizes a metric honestly: rates and ratios average, counts and consumed capacity add up, ages, lags and backlogs peak, the rest average. */
const statisticFor = (name: string): string => {
  // A rate of errors (CloudFront's 4xxErrorRate) is a percentage, however much its name says errors.
  if (/(Rate|Ratio|Percent(age)?|Utili[sz]ation)$/i.test(name)) return 'Average';
  if (/Age|Lag|ConcurrentExecutions|ApproximateNumberOf|QueueLength|QueueDepth/.test(name)) return 'Maximum';
  if (/Count$|Errors?$|Throttles|Requests$|Responses$|Calls$|Invocations|5XX|4XX|429|Messages(Sent|Received|Deleted|Published)|Evictions|Rejected|Failed|^Consumed|Bytes$/i.test(name)) return 'Sum';
  return 'Average';
};

/** One series the tool asks for, and what the model is told about it. */
interface Wanted {
  service: string;
  name: string;
  namespace?: string;
  dimensions?: Record<string, string>;
  stat?: string;
  /** Lower reads first: 0 an alarm's metric, 1 a key metric, 2 a team's own metric, 3 any other. */
  rank: number;
  queries: MetricDataQuery[];
  /** The query whose result is this series. */
  id: string;
}

const dimensionRecord = (metric: Metric): Record<string, string> =>
  Object.fromEntries((metric.Dimensions ?? []).filter((dimension) => dimension.Name && dimension.Value !== undefined).map((dimension) => [dimension.Name, dimension.Value]));

const metricKey = (namespace: string | undefined, name: string, dimensions: Record<string, string> | undefined): string =>
  `${namespace ?? ''}|${name}|${Object.entries(dimensions ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`)
    .join(',')}`;

const rankOf = (namespace: string, name: string): number => {
  if (keyMetrics[namespace]?.includes(name)) return 1;
  return namespace.startsWith('AWS/') ? 3 : 2;
};

/** A period that gives about as many points over the window as the model reads, in whole minutes. */
const periodFor = (windowMinutes: number): number => Math.max(60, Math.ceil((windowMinutes * 60) / MAX_SERIES_POINTS / 60) * 60);

/** An alarm's own queries (metric math included), with ids made unique across alarms and expressions rewritten to match. */
const alarmQueries = (alarm: MetricAlarm, index: number, period: number): { queries: MetricDataQuery[]; id: string; name: string } | undefined => {
  const prefix = `a${index}_`;
  if (alarm.Metrics && alarm.Metrics.length > 0) {
    const ids = alarm.Metrics.map((query) => query.Id ?? '').filter(Boolean);
    const rename = (expression: string) => ids.reduce((text, id) => text.replace(new RegExp(`\\b${id}\\b`, 'g'), `${prefix}${id}`), expression);
    const queries: MetricDataQuery[] = alarm.Metrics.map((query) => ({
      Id: `${prefix}${query.Id}`,
      ...(query.Expression ? { Expression: rename(query.Expression), Period: query.Period ?? period } : {}),
      ...(query.MetricStat ? { MetricStat: { ...query.MetricStat, Period: period } } : {}),
      ...(query.Label ? { Label: query.Label } : {}),
      ReturnData: query.ReturnData ?? false,
    }));
    const result = queries.find((query) => query.ReturnData) ?? queries[0];
    if (!result?.Id) return undefined;
    result.ReturnData = true;
    return { queries, id: result.Id, name: result.Label ?? alarm.AlarmName ?? result.Id };
  }
  if (!alarm.MetricName || !alarm.Namespace) return undefined;
  const stat = alarm.ExtendedStatistic ?? alarm.Statistic ?? statisticFor(alarm.MetricName);
  const id = `${prefix}m`;
  return {
    queries: [{ Id: id, MetricStat: { Metric: { Namespace: alarm.Namespace, MetricName: alarm.MetricName, Dimensions: alarm.Dimensions ?? [] }, Period: period, Stat: stat }, ReturnData: true }],
    id,
    name: alarm.MetricName,
  };
};

/** Every metric under a filter (the service's dimensions, or none for the whole account), all pages up to a cap. */
const listMetrics = async (client: CloudWatchClient, dimensions: Record<string, string> | undefined, maxPages: number): Promise<Metric[]> => {
  const metrics: Metric[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const page = await client.send(
      new ListMetricsCommand({
        ...(dimensions ? { Dimensions: Object.entries(dimensions).map(([Name, Value]) => ({ Name, Value })) } : { RecentlyActive: 'PT3H' }),
        ...(token ? { NextToken: token } : {}),
      }),
    );
    metrics.push(...(page.Metrics ?? []));
    token = page.NextToken || undefined;
    pages += 1;
  } while (token && pages < maxPages);
  return metrics;
};

const watchedKey = (namespace: string | undefined, dimensions: Record<string, string>): string => metricKey(namespace, '', dimensions);

/**
 * Whose metrics the alarms say they are: an alarm tagged with (or named for) a service owns the
 * metrics it watches, and the other metrics published in that namespace under the same dimensions
 * (`Provider=adyen` beside the alarmed one). A namespace and dimensions two services alarm on
 * belong to neither. (A whole namespace is not given to its one alarming service: a caller's
 * metrics about its provider, `Upstream=parcelhub`, are often filed under the provider.)
 */
const ownersByAlarms = async (alarms: readonly MetricAlarm[], catalog: ServiceCatalog, names: readonly string[]): Promise<Map<string, string>> => {
  const owners = new Map<string, string | null>();
  for (const alarm of alarms) {
    const service = await serviceOfAlarm(alarm, catalog, names);
    if (service === UNATTRIBUTED) continue;
    const watched = [
      ...(alarm.Namespace ? [{ Namespace: alarm.Namespace, Dimensions: alarm.Dimensions }] : []),
      ...(alarm.Metrics ?? []).flatMap((query) => (query.MetricStat?.Metric ? [query.MetricStat.Metric] : [])),
    ];
    for (const key of new Set(watched.map((metric) => watchedKey(metric.Namespace, dimensionRecord(metric))))) {
      const claimed = owners.get(key);
      owners.set(key, claimed === undefined || claimed === service ? service : null);
    }
  }
  return new Map([...owners].filter((entry): entry is [string, string] => entry[1] !== null));
};

/** The services' metrics: listed under each service's dimensions, plus the account's recent metrics the catalog, else an alarm, attributes to them. */
const discoveredMetrics = async (
  client: CloudWatchClient,
  catalog: ServiceCatalog,
  services: readonly ServiceResources[],
  alarmOwners: ReadonlyMap<string, string>,
): Promise<{ service: string; metric: Metric }[]> => {
  const found: { service: string; metric: Metric }[] = [];
  const wanted = new Set(services.map((service) => service.name));
  for (const service of services) {
    for (const dimensions of service.dimensions) {
      for (const metric of await listMetrics(client, dimensions, Number.POSITIVE_INFINITY)) {
        // ListMetrics matches every metric carrying at least these dimensions: a target group's metrics
        // also carry its load balancer's, and belong to the service the target group serves.
        const narrower = (metric.Dimensions?.length ?? 0) > Object.keys(dimensions).length;
        const owner = (narrower ? await catalog.serviceOfDimensions(dimensionRecord(metric)) : undefined) ?? service.name;
        if (wanted.has(owner)) found.push({ service: owner, metric });
      }
    }
  }
  for (const metric of await listMetrics(client, undefined, MAX_LISTING_PAGES)) {
    const dimensions = dimensionRecord(metric);
    const owner = (await catalog.serviceOfDimensions(dimensions)) ?? alarmOwners.get(watchedKey(metric.Namespace, dimensions));
    if (owner && wanted.has(owner)) found.push({ service: owner, metric });
  }
  return found;
};

interface FetchedSeries {
  timestamps: Date[];
  values: number[];
}

/** Runs the queries in batches of at most 500, following each batch's NextToken; results are merged by query id. */
const fetchSeries = async (client: CloudWatchClient, wanted: readonly Wanted[], start: Date, end: Date): Promise<Map<string, FetchedSeries>> => {
  const batches: MetricDataQuery[][] = [];
  for (const { queries } of wanted) {
    const last = batches.at(-1);
    if (last && last.length + queries.length <= MAX_QUERIES_PER_CALL) last.push(...queries);
    else batches.push([...queries]);
  }
  const fetched = new Map<string, FetchedSeries>();
  for (const batch of batches) {
    let token: string | undefined;
    do {
      const page = await client.send(
        new GetMetricDataCommand({ MetricDataQueries: batch, StartTime: start, EndTime: end, ScanBy: 'TimestampAscending', ...(token ? { NextToken: token } : {}) }),
      );
      for (const result of page.MetricDataResults ?? []) {
        if (!result.Id) continue;
        const series = fetched.get(result.Id) ?? { timestamps: [], values: [] };
        series.timestamps.push(...(result.Timestamps ?? []));
        series.values.push(...(result.Values ?? []));
        fetched.set(result.Id, series);
      }
      token = page.NextToken || undefined;
    } while (token);
  }
  return fetched;
};

/** A query's datapoints, oldest first, without the gaps CloudWatch reports as missing values. */
const pointsOf = (fetched: FetchedSeries | undefined): [string, number][] =>
  (fetched?.timestamps ?? [])
    .map((timestamp, index) => [timestamp.getTime(), fetched?.values[index] ?? Number.NaN] as const)
    .filter(([, value]) => Number.isFinite(value))
    .sort(([a], [b]) => a - b)
    .map(([timestamp, value]): [string, number] => [isoOf(timestamp), value]);

/**
 * The period the points are at: the closest spacing between them. CloudWatch answers at the asked
 * period, but a metric published less often than that (every 5 minutes, asked by 3) comes at its own.
 */
const spacingSeconds = (points: readonly [string, number][], asked: number): number => {
  const gaps = points.slice(1).map(([timestamp], index) => (Date.parse(timestamp) - Date.parse(points[index]?.[0] ?? timestamp)) / 1000);
  const closest = Math.min(...gaps.filter((gap) => gap > 0));
  return Number.isFinite(closest) ? closest : asked;
};

const toSummary = (wanted: Wanted, points: readonly [string, number][], periodSeconds: number): MetricSeriesSummary => ({
  service: wanted.service,
  name: wanted.name,
  ...(wanted.namespace ? { namespace: wanted.namespace } : {}),
  ...(wanted.dimensions ? { dimensions: wanted.dimensions } : {}),
  ...(wanted.stat ? { stat: wanted.stat } : {}),
  periodSeconds: spacingSeconds(points, periodSeconds),
  ...summarizedPoints(points),
});

/** Each series over the same window 1..days days earlier: one GetMetricData pass per day, a day without data left out. */
const earlierDaysOf = async (
  client: CloudWatchClient,
  wanted: readonly Wanted[],
  window: { start: number; end: number },
  days: number,
): Promise<Map<string, EarlierDay[]>> => {
  const byId = new Map<string, EarlierDay[]>();
  for (const { daysBefore, start, end } of earlierWindows(window, days)) {
    const fetched = await fetchSeries(client, wanted, new Date(start), new Date(end + INCLUSIVE_END_MS));
    for (const item of wanted) {
      const points = pointsOf(fetched.get(item.id));
      if (points.length > 0) byId.set(item.id, [...(byId.get(item.id) ?? []), { daysBefore, ...summarizedPoints(points) }]);
    }
  }
  return byId;
};

export const getMetrics = ({ clients, catalog }: AwsToolDependencies) =>
  implementTool(getMetricsContract, {
    sideEffect: 'read-only',
    iamActions: ['cloudwatch:DescribeAlarms', 'cloudwatch:ListMetrics', 'cloudwatch:GetMetricData'],
    run: async (input, context) => {
      const cloudwatch = clients.get(CloudWatchClient);
      const all = await catalog.services();
      const services = input.service === undefined ? all : all.filter((service) => service.name.toLowerCase() === input.service?.trim().toLowerCase());
      if (input.service !== undefined && services.length === 0) {
        return {
          summary: `no service named ${input.service}; known: ${all.map((service) => service.name).join(', ') || 'none'}`,
          data: { available: true as const, series: [] },
        };
      }
      const selected = new Set(services.map((service) => service.name));
      const needle = input.name?.toLowerCase();
      const period = periodFor(input.sinceMinutes);
      const wanted = new Map<string, Wanted>();
      const notes: string[] = [];

      let alarmOwners = new Map<string, string>();
      try {
        const { metric: alarms } = await describeAllAlarms(cloudwatch);
        const names = all.map((service) => service.name);
        alarmOwners = await ownersByAlarms(alarms, catalog, names);
        const firing = alarms.filter((alarm) => alarm.StateValue === 'ALARM');
        for (const [index, alarm] of firing.entries()) {
          const service = await serviceOfAlarm(alarm, catalog, names);
          const queries = alarmQueries(alarm, index, period);
          if (!selected.has(service) || !queries || (needle !== undefined && !queries.name.toLowerCase().includes(needle))) continue;
          const dimensions = alarm.MetricName ? alarmDimensionSets(alarm)[0] : undefined;
          const namespace = alarm.Metrics?.length ? undefined : alarm.Namespace;
          const stat = alarm.Metrics?.length ? undefined : (alarm.ExtendedStatistic ?? alarm.Statistic);
          wanted.set(metricKey(namespace, queries.name, dimensions), {
            service,
            ...(namespace ? { namespace } : {}),
            ...(dimensions ? { dimensions } : {}),
            ...(stat ? { stat } : {}),
            rank: 0,
            ...queries,
          });
        }
      } catch (error) {
        if (!isAccessDenied(error)) throw error;
        notes.push(`alarms' metrics skipped: ${deniedReason('cloudwatch:DescribeAlarms', error)}`);
      }

      let discovered: { service: string; metric: Metric }[];
      try {
        discovered = await discoveredMetrics(cloudwatch, catalog, services, alarmOwners);
      } catch (error) {
        if (isAccessDenied(error)) return noData('metrics could not be listed', deniedReason('cloudwatch:ListMetrics', error));
        throw error;
      }
      for (const { service, metric } of discovered) {
        const name = metric.MetricName;
        const namespace = metric.Namespace;
        if (!name || !namespace || (needle !== undefined && !name.toLowerCase().includes(needle))) continue;
        const dimensions = dimensionRecord(metric);
        const key = metricKey(namespace, name, dimensions);
        if (wanted.has(key)) continue;
        const id = `m${wanted.size}`;
        const stat = statisticFor(name);
        wanted.set(key, {
          service,
          name,
          namespace,
          dimensions,
          stat,
          rank: rankOf(namespace, name),
          id,
          queries: [{ Id: id, MetricStat: { Metric: { Namespace: namespace, MetricName: name, Dimensions: metric.Dimensions ?? [] }, Period: period, Stat: stat }, ReturnData: true }],
        });
      }

      const chosen = [...wanted.values()].sort((a, b) => a.rank - b.rank).slice(0, MAX_FETCHED);
      if (chosen.length === 0) {
        return { summary: `no CloudWatch metrics found for ${input.service ?? 'the catalog\'s services'}`, data: { available: true as const, series: [] } };
      }
      const window = { start: context.now.getTime() - input.sinceMinutes * 60_000, end: context.now.getTime() };
      let withData: { item: Wanted; points: [string, number][] }[];
      let earlierDays = new Map<string, EarlierDay[]>();
      try {
        const fetched = await fetchSeries(cloudwatch, chosen, new Date(window.start), new Date(window.end + INCLUSIVE_END_MS));
        withData = chosen.map((item) => ({ item, points: pointsOf(fetched.get(item.id)) })).filter(({ points }) => points.length > 0);
        if (withData.length > MAX_SERIES) notes.push(`${withData.length - MAX_SERIES} less telling series left out; ask by service or name to see them`);
        withData = withData.slice(0, MAX_SERIES);
        if (input.compareDaysBefore) earlierDays = await earlierDaysOf(cloudwatch, withData.map(({ item }) => item), window, input.compareDaysBefore);
      } catch (error) {
        if (isAccessDenied(error)) return noData('metric data could not be read', deniedReason('cloudwatch:GetMetricData', error));
        throw error;
      }
      const series = withData.map(({ item, points }) => {
        const earlier = earlierDays.get(item.id);
        return { ...toSummary(item, points, period), ...(earlier ? { earlierDays: earlier } : {}) };
      });
      const summary = [`${series.length} metric series`, ...notes].join('; ');
      return { summary, data: { available: true as const, series } };
    },
  });
