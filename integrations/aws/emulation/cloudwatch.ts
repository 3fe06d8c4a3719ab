import type {
  DescribeAlarmsCommandInput,
  DescribeAlarmsCommandOutput,
  Dimension,
  GetMetricDataCommandInput,
  GetMetricDataCommandOutput,
  ListMetricsCommandInput,
  ListMetricsCommandOutput,
  MetricAlarm,
  MetricDataResult,
} from '@aws-sdk/client-cloudwatch';
import { toMillis } from '../../../lib/domain/time.ts';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { serviceException, type Answer, type ServiceEmulation } from './emulator.ts';
import { dimensionsOf, emulatedAccount, emulatedRegion, namespaceOf } from './service-identity.ts';

/** Small pages, so the tools' pagination really runs against the emulation. */
const ALARMS_PER_PAGE = 3;
const METRICS_PER_PAGE = 10;
const DATAPOINTS_PER_PAGE = 100;
/** GetMetricData's own limit on queries per call. */
const MAX_QUERIES = 500;
/** Everything recorded up to the incident's clock. */
const ALL_HISTORY_MINUTES = 10 * 365 * 24 * 60;

const STANDARD_STATISTICS = new Set(['SampleCount', 'Average', 'Sum', 'Minimum', 'Maximum']);

export interface EmulatedMetric {
  service: string;
  namespace: string;
  name: string;
  dimensions: Record<string, string>;
  stat: string;
  periodSeconds: number;
  points: [string, number][];
}

/** The scenario's series as CloudWatch holds them, with a namespace and dimensions derived where the scenario leaves them out. */
export const emulatedMetrics = (environment: RecordedEnvironment): EmulatedMetric[] =>
  environment.has('metrics')
    ? environment.metrics(ALL_HISTORY_MINUTES).map((series) => ({
        service: series.service,
        namespace: series.namespace ?? namespaceOf(environment, series.service),
        name: series.name,
        dimensions: series.dimensions ?? dimensionsOf(environment, series.service),
        stat: series.stat ?? 'Average',
        periodSeconds: series.periodSeconds ?? 60,
        points: series.points,
      }))
    : [];

const toDimensions = (dimensions: Record<string, string>): Dimension[] => Object.entries(dimensions).map(([Name, Value]) => ({ Name, Value }));

const sameDimensions = (wanted: readonly Dimension[] | undefined, actual: Record<string, string>): boolean => {
  const list = wanted ?? [];
  return list.length === Object.keys(actual).length && list.every((dimension) => dimension.Name !== undefined && actual[dimension.Name] === dimension.Value);
};

const page = <T>(items: readonly T[], token: string | undefined, size: number): { items: T[]; next?: string } => {
  const start = token === undefined ? 0 : Number(token);
  if (!Number.isInteger(start) || start < 0) throw serviceException('InvalidNextToken', `invalid NextToken ${token}`);
  const end = start + size;
  return { items: items.slice(start, end), ...(end < items.length ? { next: String(end) } : {}) };
};

const words = (text: string): Set<string> =>
  new Set(
    text
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean),
  );

/** The series an alarm of this service most likely watches: the one sharing the most words with the alarm's name. */
const watchedSeries = (alarmName: string, metrics: readonly EmulatedMetric[], service: string): EmulatedMetric | undefined => {
  const alarmWords = words(alarmName);
  let best: { metric: EmulatedMetric; score: number } | undefined;
  for (const metric of metrics.filter((candidate) => candidate.service === service)) {
    const score = [...words(metric.name)].filter((word) => alarmWords.has(word)).length;
    if (!best || score > best.score) best = { metric, score };
  }
  return best?.metric;
};

const metricAlarms = (environment: RecordedEnvironment): MetricAlarm[] => {
  const metrics = emulatedMetrics(environment);
  const prefix = `arn:aws:cloudwatch:${emulatedRegion(environment)}:${emulatedAccount(environment)}:alarm:`;
  return environment.alarms.map((alarm) => {
    const series = watchedSeries(alarm.name, metrics, alarm.service);
    const stat = series?.stat ?? 'Sum';
    return {
      AlarmName: alarm.name,
      AlarmArn: `${prefix}${alarm.name}`,
      // Teams record an alarm's severity in its description; CloudWatch has no field for it.
      ...(alarm.severity ? { AlarmDescription: `severity: ${alarm.severity}` } : {}),
      StateValue: alarm.state,
      ...(alarm.reason ? { StateReason: alarm.reason } : {}),
      ...(alarm.since ? { StateUpdatedTimestamp: new Date(alarm.since) } : {}),
      Namespace: series?.namespace ?? namespaceOf(environment, alarm.service),
      MetricName: series?.name ?? 'Errors',
      Dimensions: toDimensions(series?.dimensions ?? dimensionsOf(environment, alarm.service)),
      ...(STANDARD_STATISTICS.has(stat) ? { Statistic: stat as MetricAlarm['Statistic'] } : { ExtendedStatistic: stat }),
      Period: series?.periodSeconds ?? 60,
    };
  });
};

const describeAlarms = (input: DescribeAlarmsCommandInput, environment: RecordedEnvironment): Answer<DescribeAlarmsCommandOutput> => {
  // As in CloudWatch: without AlarmTypes, only metric alarms. The scenarios record metric alarms only.
  const types = input.AlarmTypes ?? ['MetricAlarm'];
  if (!types.includes('MetricAlarm')) return { MetricAlarms: [], CompositeAlarms: [] };
  const selected = metricAlarms(environment).filter(
    (alarm) =>
      (input.StateValue === undefined || alarm.StateValue === input.StateValue) &&
      (input.AlarmNames === undefined || input.AlarmNames.includes(alarm.AlarmName ?? '')) &&
      (input.AlarmNamePrefix === undefined || (alarm.AlarmName ?? '').startsWith(input.AlarmNamePrefix)),
  );
  const { items, next } = page(selected, input.NextToken, Math.min(input.MaxRecords ?? ALARMS_PER_PAGE, ALARMS_PER_PAGE));
  return { MetricAlarms: items, CompositeAlarms: [], ...(next ? { NextToken: next } : {}) };
};

const listMetrics = (input: ListMetricsCommandInput, environment: RecordedEnvironment): Answer<ListMetricsCommandOutput> => {
  const matching = emulatedMetrics(environment).filter(
    (metric) =>
      metric.points.length > 0 &&
      (input.Namespace === undefined || metric.namespace === input.Namespace) &&
      (input.MetricName === undefined || metric.name === input.MetricName) &&
      (input.Dimensions ?? []).every((filter) => filter.Name !== undefined && filter.Name in metric.dimensions && (filter.Value === undefined || metric.dimensions[filter.Name] === filter.Value)),
  );
  const { items, next } = page(matching, input.NextToken, METRICS_PER_PAGE);
  return {
    Metrics: items.map((metric) => ({ Namespace: metric.namespace, MetricName: metric.name, Dimensions: toDimensions(metric.dimensions) })),
    ...(next ? { NextToken: next } : {}),
  };
};

/** Statistics whose value does not grow with the period they are taken over, so readings at several resolutions line up. */
const scaleFree = (stat: string): boolean => !/^(Sum|SampleCount)$/.test(stat);

/**
 * The datapoints of a metric's recordings in [start, end), oldest first. As CloudWatch keeps the
 * finest data it has, recordings of a scale-free statistic are merged: the finest recording's points
 * where it has any, coarser ones only before it starts. A sum taken over an hour cannot sit beside
 * five-minute sums, so for sums the first recording with data in the window answers alone.
 */
const pointsInWindow = (recordings: readonly EmulatedMetric[], start: number, end: number): [string, number][] => {
  const inWindow = (series: EmulatedMetric) => series.points.filter(([timestamp]) => toMillis(timestamp) >= start && toMillis(timestamp) < end);
  const withData = recordings.map((series) => ({ series, points: inWindow(series) })).filter(({ points }) => points.length > 0);
  const [first] = withData;
  const sameStatistic = withData.filter(({ series }) => series.stat === first?.series.stat);
  if (!first || sameStatistic.length === 1 || !scaleFree(first.series.stat)) return first?.points ?? [];
  const finestFirst = [...sameStatistic].sort((a, b) => a.series.periodSeconds - b.series.periodSeconds);
  const merged: [string, number][] = [];
  let covered = end;
  for (const { points } of finestFirst) {
    const earlier = points.filter(([timestamp]) => toMillis(timestamp) < covered);
    merged.push(...earlier);
    covered = Math.min(covered, ...earlier.map(([timestamp]) => toMillis(timestamp)));
  }
  return merged.sort(([a], [b]) => toMillis(a) - toMillis(b));
};

const getMetricData = (input: GetMetricDataCommandInput, environment: RecordedEnvironment): Answer<GetMetricDataCommandOutput> => {
  const queries = input.MetricDataQueries ?? [];
  if (queries.length > MAX_QUERIES) {
    throw serviceException('ValidationError', `The collection MetricDataQueries must not have a size greater than ${MAX_QUERIES}.`);
  }
  if (!input.StartTime || !input.EndTime) throw serviceException('ValidationError', 'StartTime and EndTime are required.');
  const start = input.StartTime.getTime();
  const end = Math.min(input.EndTime.getTime(), environment.nowMillis + 1);
  const metrics = emulatedMetrics(environment);
  const ascending = input.ScanBy === 'TimestampAscending';
  const answered = queries
    .filter((query) => query.ReturnData !== false)
    .map((query) => {
      const wanted = query.MetricStat?.Metric;
      if (!wanted) {
        return {
          result: { Id: query.Id, Label: query.Label ?? query.Id, Timestamps: [], Values: [], StatusCode: 'InternalError' as const, Messages: [{ Code: 'Unsupported', Value: 'the scenario emulation does not evaluate metric math' }] },
          points: [] as [string, number][],
        };
      }
      // A scenario may record one metric under several statistics (the asked one answers, else any
      // recorded), and at several resolutions over different spans (an hourly history beside a fine
      // recent series).
      const recorded = metrics.filter((metric) => metric.namespace === wanted.Namespace && metric.name === wanted.MetricName && sameDimensions(wanted.Dimensions, metric.dimensions));
      const asked = recorded.filter((metric) => metric.stat === query.MetricStat?.Stat);
      const points = pointsInWindow(asked.length > 0 ? asked : recorded, start, end);
      return { result: { Id: query.Id, Label: query.Label ?? wanted.MetricName, StatusCode: 'Complete' as const }, points: ascending ? points : [...points].reverse() };
    });
  // Datapoints are paged across all queries in order; a query's points may span pages, as on CloudWatch.
  const offset = input.NextToken === undefined ? 0 : Number(input.NextToken);
  if (!Number.isInteger(offset) || offset < 0) throw serviceException('InvalidNextToken', `invalid NextToken ${input.NextToken}`);
  const total = answered.reduce((sum, { points }) => sum + points.length, 0);
  const results: MetricDataResult[] = [];
  let position = 0;
  for (const { result, points } of answered) {
    const from = Math.max(offset - position, 0);
    const to = Math.min(offset + DATAPOINTS_PER_PAGE - position, points.length);
    position += points.length;
    if (from < to || (offset === 0 && points.length === 0)) {
      const slice = points.slice(from, Math.max(from, to));
      results.push({ ...result, Timestamps: slice.map(([timestamp]) => new Date(timestamp)), Values: slice.map(([, value]) => value) });
    }
  }
  const next = offset + DATAPOINTS_PER_PAGE < total ? String(offset + DATAPOINTS_PER_PAGE) : undefined;
  return { MetricDataResults: results, Messages: [], ...(next ? { NextToken: next } : {}) };
};

export const cloudWatchEmulation: ServiceEmulation = {
  DescribeAlarmsCommand: describeAlarms,
  ListMetricsCommand: listMetrics,
  GetMetricDataCommand: getMetricData,
};
