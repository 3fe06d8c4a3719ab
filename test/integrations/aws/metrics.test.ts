import { CloudWatchClient, DescribeAlarmsCommand, GetMetricDataCommand, ListMetricsCommand } from '@aws-sdk/client-cloudwatch';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ServiceCatalog } from '../../../integrations/aws/catalog.ts';
import { AwsClients } from '../../../integrations/aws/clients.ts';
import { getMetrics } from '../../../integrations/aws/cloudwatch/get-metrics.ts';
import { serviceException } from '../../../integrations/aws/emulation/emulator.ts';
import { scenarioEmulations } from '../../../integrations/aws/emulation/index.ts';
import { RecordedEnvironment } from '../../../integrations/scenario/recorded-environment.ts';
import type { Environment } from '../../../lib/domain/scenario.ts';
import { awsToolSettings } from '../../../integrations/aws/settings.ts';
import { Toolbox } from '../../../lib/tools/toolbox.ts';
import { bundledScenarios, emulatedAndReplayed } from './emulated-scenario.ts';

const now = new Date('2026-04-06T04:10:00Z');
const catalog: ServiceCatalog = {
  services: async () => [
    { name: 'billing', kind: 'lambda', arns: [], tags: {}, logGroups: [], dimensions: [{ FunctionName: 'billing' }] },
    { name: 'orders', kind: 'ecs', arns: [], tags: {}, logGroups: [], dimensions: [{ ClusterName: 'prod', ServiceName: 'orders' }] },
  ],
  serviceOfArn: async () => undefined,
  serviceOfDimensions: async (dimensions) => {
    if (dimensions.FunctionName === 'billing') return 'billing';
    if (dimensions.ServiceName === 'orders' || dimensions.TargetGroup?.includes('/orders/')) return 'orders';
    return undefined;
  },
  serviceOfLogGroup: async () => undefined,
};

const minute = (offset: number) => new Date(now.getTime() - offset * 60_000);

let clients: AwsClients;
let cloudwatch: ReturnType<typeof mockClient>;
beforeEach(() => {
  clients = new AwsClients('us-east-1', { kind: 'live', credentials: async () => ({ accessKeyId: 'test', secretAccessKey: 'test' }) });
  cloudwatch = mockClient(clients.get(CloudWatchClient));
});

const run = async (args: Record<string, unknown> = {}) => {
  const toolbox = new Toolbox([getMetrics({ clients, catalog, settings: awsToolSettings.parse({}) })]);
  const outcome = await toolbox.execute({ id: 'c', name: 'get_metrics', arguments: args }, { now });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome as { summary: string; data: { available: boolean; reason?: string; series: Record<string, unknown>[] } };
};

const getMetricDataInputs = () => cloudwatch.commandCalls(GetMetricDataCommand).map((call) => call.args[0].input as { MetricDataQueries: { Id: string; Expression?: string }[]; NextToken?: string; ScanBy?: string; StartTime: Date; EndTime: Date });

describe('get_metrics on CloudWatch', () => {
  it('reads the firing alarm\'s metric math and the services\' listed metrics, across pages, oldest point first', async () => {
    cloudwatch.on(DescribeAlarmsCommand).resolves({
      MetricAlarms: [
        {
          AlarmName: 'billing-error-rate',
          StateValue: 'ALARM',
          Metrics: [
            { Id: 'e1', Expression: 'm1 / m2 * 100', Label: 'billing error rate', ReturnData: true },
            { Id: 'm1', MetricStat: { Metric: { Namespace: 'AWS/Lambda', MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] }, Period: 60, Stat: 'Sum' }, ReturnData: false },
            { Id: 'm2', MetricStat: { Metric: { Namespace: 'AWS/Lambda', MetricName: 'Invocations', Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] }, Period: 60, Stat: 'Sum' }, ReturnData: false },
          ],
        },
      ],
    });
    cloudwatch
      .on(ListMetricsCommand, { Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] })
      .resolvesOnce({ Metrics: [{ Namespace: 'AWS/Lambda', MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] }], NextToken: 'more' })
      .resolvesOnce({ Metrics: [{ Namespace: 'AWS/Lambda', MetricName: 'Throttles', Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] }] });
    cloudwatch.on(ListMetricsCommand, { Dimensions: [{ Name: 'ClusterName', Value: 'prod' }, { Name: 'ServiceName', Value: 'orders' }] }).resolves({ Metrics: [] });
    cloudwatch.on(ListMetricsCommand, { RecentlyActive: 'PT3H' }).resolves({
      Metrics: [
        { Namespace: 'AWS/ApplicationELB', MetricName: 'HTTPCode_Target_5XX_Count', Dimensions: [{ Name: 'TargetGroup', Value: 'targetgroup/orders/abc' }] },
        { Namespace: 'AWS/S3', MetricName: 'BucketSizeBytes', Dimensions: [{ Name: 'BucketName', Value: 'nobody-owns-this' }] },
      ],
    });
    cloudwatch
      .on(GetMetricDataCommand)
      .resolvesOnce({
        MetricDataResults: [
          { Id: 'a0_e1', Label: 'billing error rate', Timestamps: [minute(3), minute(2)], Values: [1, 40], StatusCode: 'PartialData' },
          { Id: 'm1', Timestamps: [minute(3)], Values: [0], StatusCode: 'PartialData' },
        ],
        NextToken: 'page-2',
      })
      .resolvesOnce({
        MetricDataResults: [
          { Id: 'a0_e1', Timestamps: [minute(1)], Values: [55], StatusCode: 'Complete' },
          { Id: 'm1', Timestamps: [minute(2)], Values: [12], StatusCode: 'Complete' },
          { Id: 'm2', Timestamps: [], Values: [], StatusCode: 'Complete' },
          { Id: 'm3', Timestamps: [minute(2)], Values: [25], StatusCode: 'Complete' },
        ],
      });

    const { data } = await run({ sinceMinutes: 60 });
    expect(data.series.map((series) => [series.service, series.name])).toEqual([
      ['billing', 'billing error rate'],
      ['billing', 'Errors'],
      ['orders', 'HTTPCode_Target_5XX_Count'],
    ]);
    expect(data.series[0]).toMatchObject({ points: [['2026-04-06T04:07:00Z', 1], ['2026-04-06T04:08:00Z', 40], ['2026-04-06T04:09:00Z', 55]], stats: { min: 1, max: 55, first: 1, last: 55, count: 3 } });
    expect(data.series[1]).toMatchObject({ namespace: 'AWS/Lambda', dimensions: { FunctionName: 'billing' }, stat: 'Sum', periodSeconds: 60, points: [['2026-04-06T04:07:00Z', 0], ['2026-04-06T04:08:00Z', 12]] });

    const [first, second] = getMetricDataInputs();
    expect(first?.MetricDataQueries.find((query) => query.Id === 'a0_e1')?.Expression).toBe('a0_m1 / a0_m2 * 100');
    expect(first).toMatchObject({ ScanBy: 'TimestampAscending', StartTime: minute(60), EndTime: new Date(now.getTime() + 1000) });
    expect(second?.NextToken).toBe('page-2');
    // The alarm's Errors and the listed Errors are different queries (alarm Sum at the alarm's id, listed by name): both are read once.
    expect(first?.MetricDataQueries.map((query) => query.Id)).toEqual(['a0_e1', 'a0_m1', 'a0_m2', 'm1', 'm2', 'm3']);
  });

  it('with compareDaysBefore, reads the same window on each earlier day, follows its pages and leaves out a day without data', async () => {
    cloudwatch.on(DescribeAlarmsCommand).resolves({});
    cloudwatch.on(ListMetricsCommand).resolves({ Metrics: [] });
    cloudwatch
      .on(ListMetricsCommand, { Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] })
      .resolves({ Metrics: [{ Namespace: 'AWS/Lambda', MetricName: 'Duration', Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] }] });
    const day = 24 * 60 * 60_000;
    const at = (daysBefore: number, minutesBefore: number) => new Date(now.getTime() - daysBefore * day - minutesBefore * 60_000);
    cloudwatch.on(GetMetricDataCommand).callsFake((input: { StartTime: Date; NextToken?: string }) => {
      const daysBefore = Math.round((now.getTime() - 60 * 60_000 - input.StartTime.getTime()) / day);
      if (daysBefore === 0) return { MetricDataResults: [{ Id: 'm0', Timestamps: [at(0, 2), at(0, 1)], Values: [900, 950], StatusCode: 'Complete' }] };
      // Day 1 comes in two pages, newest first as CloudWatch sends by default; day 2 has no datapoints.
      if (daysBefore === 1 && !input.NextToken) return { MetricDataResults: [{ Id: 'm0', Timestamps: [at(1, 1)], Values: [880], StatusCode: 'PartialData' }], NextToken: 'more' };
      if (daysBefore === 1) return { MetricDataResults: [{ Id: 'm0', Timestamps: [at(1, 30)], Values: [410], StatusCode: 'Complete' }] };
      return { MetricDataResults: [{ Id: 'm0', Timestamps: [], Values: [], StatusCode: 'Complete' }] };
    });

    const { data } = await run({ service: 'billing', sinceMinutes: 60, compareDaysBefore: 2 });
    expect(data.series).toHaveLength(1);
    expect(data.series[0]?.points).toEqual([['2026-04-06T04:08:00Z', 900], ['2026-04-06T04:09:00Z', 950]]);
    expect(data.series[0]?.earlierDays).toEqual([
      { daysBefore: 1, stats: { min: 410, max: 880, first: 410, last: 880, count: 2 }, points: [['2026-04-05T03:40:00Z', 410], ['2026-04-05T04:09:00Z', 880]] },
    ]);
    const windows = getMetricDataInputs().map((input) => [input.StartTime.toISOString(), input.EndTime.toISOString(), input.NextToken ?? null]);
    expect(windows).toEqual([
      ['2026-04-06T03:10:00.000Z', '2026-04-06T04:10:01.000Z', null],
      ['2026-04-05T03:10:00.000Z', '2026-04-05T04:10:01.000Z', null],
      ['2026-04-05T03:10:00.000Z', '2026-04-05T04:10:01.000Z', 'more'],
      ['2026-04-04T03:10:00.000Z', '2026-04-04T04:10:01.000Z', null],
    ]);
  });

  it('asks for no earlier window unless compareDaysBefore is given', async () => {
    cloudwatch.on(DescribeAlarmsCommand).resolves({});
    cloudwatch.on(ListMetricsCommand).resolves({ Metrics: [] });
    cloudwatch
      .on(ListMetricsCommand, { Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] })
      .resolves({ Metrics: [{ Namespace: 'AWS/Lambda', MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] }] });
    cloudwatch.on(GetMetricDataCommand).resolves({ MetricDataResults: [{ Id: 'm0', Timestamps: [minute(1)], Values: [3], StatusCode: 'Complete' }] });
    const { data } = await run({ service: 'billing' });
    expect(data.series[0]).not.toHaveProperty('earlierDays');
    expect(getMetricDataInputs()).toHaveLength(1);
  });

  it("gives a team's metric that names no resource to the service whose alarm watches it or its siblings under the same dimensions", async () => {
    const adyen = [{ Name: 'Provider', Value: 'adyen' }];
    cloudwatch.on(DescribeAlarmsCommand).resolves({
      MetricAlarms: [
        // An alarm in OK still says whose metric it watches: named for billing.
        { AlarmName: 'billing-provider-latency', StateValue: 'OK', Namespace: 'Acme/Payments', MetricName: 'ProviderLatency', Dimensions: adyen, Statistic: 'Average', Period: 60 },
      ],
    });
    cloudwatch.on(ListMetricsCommand).resolves({ Metrics: [] });
    cloudwatch.on(ListMetricsCommand, { RecentlyActive: 'PT3H' }).resolves({
      Metrics: [
        { Namespace: 'Acme/Payments', MetricName: 'ProviderResponses', Dimensions: adyen },
        { Namespace: 'Acme/Payments', MetricName: 'ProviderResponses', Dimensions: [{ Name: 'Provider', Value: 'stripe' }] },
        { Namespace: 'Acme/Search', MetricName: 'ProviderResponses', Dimensions: adyen },
      ],
    });
    cloudwatch.on(GetMetricDataCommand).callsFake((input: { MetricDataQueries: { Id: string }[] }) => ({
      MetricDataResults: input.MetricDataQueries.map((query) => ({ Id: query.Id, Timestamps: [minute(5)], Values: [1], StatusCode: 'Complete' })),
    }));
    const { data } = await run();
    expect(data.series.map((series) => [series.service, series.namespace, series.dimensions])).toEqual([['billing', 'Acme/Payments', { Provider: 'adyen' }]]);
    // Every alarm is read, not only those firing, to know whose metrics they watch.
    expect(cloudwatch.commandCalls(DescribeAlarmsCommand)[0]?.args[0].input).not.toHaveProperty('StateValue');
  });

  it("gives a target group's metric, listed under its load balancer's dimensions too, to the target group's service", async () => {
    const loadBalancer = { Name: 'LoadBalancer', Value: 'app/edge/1f2e' };
    const targetGroup = { Name: 'TargetGroup', Value: 'targetgroup/tg-7/9a8b' };
    const withTargetGroup: ServiceCatalog = {
      services: async () => [
        { name: 'edge', kind: 'elb', arns: [], tags: {}, logGroups: [], dimensions: [{ LoadBalancer: loadBalancer.Value }] },
        { name: 'checkout', kind: 'ecs', arns: [], tags: {}, logGroups: [], dimensions: [{ TargetGroup: targetGroup.Value }] },
      ],
      serviceOfArn: async () => undefined,
      serviceOfDimensions: async (dimensions) => (dimensions.TargetGroup ? 'checkout' : dimensions.LoadBalancer ? 'edge' : undefined),
      serviceOfLogGroup: async () => undefined,
    };
    const targetErrors = { Namespace: 'AWS/ApplicationELB', MetricName: 'HTTPCode_Target_5XX_Count', Dimensions: [loadBalancer, targetGroup] };
    const elbErrors = { Namespace: 'AWS/ApplicationELB', MetricName: 'HTTPCode_ELB_5XX_Count', Dimensions: [loadBalancer] };
    cloudwatch.on(DescribeAlarmsCommand).resolves({});
    cloudwatch.on(ListMetricsCommand).resolves({ Metrics: [] });
    cloudwatch.on(ListMetricsCommand, { Dimensions: [loadBalancer] }).resolves({ Metrics: [elbErrors, targetErrors] });
    cloudwatch.on(ListMetricsCommand, { Dimensions: [targetGroup] }).resolves({ Metrics: [targetErrors] });
    cloudwatch.on(GetMetricDataCommand).callsFake((input: { MetricDataQueries: { Id: string }[] }) => ({
      MetricDataResults: input.MetricDataQueries.map((query) => ({ Id: query.Id, Timestamps: [minute(5)], Values: [1] })),
    }));
    const read = async (args: Record<string, unknown>) => {
      const toolbox = new Toolbox([getMetrics({ clients, catalog: withTargetGroup, settings: awsToolSettings.parse({}) })]);
      const outcome = await toolbox.execute({ id: 'c', name: 'get_metrics', arguments: args }, { now });
      if (!outcome.ok) throw new Error(outcome.error);
      return (outcome.data as { series: { service: string; name: string }[] }).series.map(({ service, name }) => `${service}|${name}`);
    };
    expect((await read({})).sort()).toEqual(['checkout|HTTPCode_Target_5XX_Count', 'edge|HTTPCode_ELB_5XX_Count']);
    expect(await read({ service: 'edge' })).toEqual(['edge|HTTPCode_ELB_5XX_Count']);
  });

  it('reads a rate as an average however much its name says errors, and counts as sums', async () => {
    cloudwatch.on(DescribeAlarmsCommand).resolves({});
    cloudwatch.on(ListMetricsCommand).resolves({ Metrics: [] });
    const names = ['4xxErrorRate', 'CacheHitRate', 'Errors', 'HTTPCode_Target_5XX_Count', 'ApproximateAgeOfOldestMessage', 'CPUUtilization'];
    cloudwatch
      .on(ListMetricsCommand, { Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] })
      .resolves({ Metrics: names.map((MetricName) => ({ Namespace: 'AWS/Test', MetricName, Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] })) });
    cloudwatch.on(GetMetricDataCommand).resolves({ MetricDataResults: [] });
    await run({ service: 'billing' });
    const queries = (cloudwatch.commandCalls(GetMetricDataCommand)[0]?.args[0].input.MetricDataQueries ?? []) as { MetricStat?: { Metric?: { MetricName?: string }; Stat?: string } }[];
    expect(Object.fromEntries(queries.map((query) => [query.MetricStat?.Metric?.MetricName, query.MetricStat?.Stat]))).toEqual({
      '4xxErrorRate': 'Average',
      CacheHitRate: 'Average',
      Errors: 'Sum',
      HTTPCode_Target_5XX_Count: 'Sum',
      ApproximateAgeOfOldestMessage: 'Maximum',
      CPUUtilization: 'Average',
    });
  });

  it('reports the period the points come at: a metric published every 5 minutes, asked by 3', async () => {
    cloudwatch.on(DescribeAlarmsCommand).resolves({});
    cloudwatch.on(ListMetricsCommand).resolves({ Metrics: [] });
    cloudwatch
      .on(ListMetricsCommand, { Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] })
      .resolves({ Metrics: [{ Namespace: 'AWS/Lambda', MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] }] });
    cloudwatch.on(GetMetricDataCommand).resolves({ MetricDataResults: [{ Id: 'm0', Timestamps: [minute(20), minute(15), minute(5)], Values: [1, 2, 3], StatusCode: 'Complete' }] });
    const { data } = await run({ service: 'billing', sinceMinutes: 240 });
    expect(getMetricDataInputs()[0]?.MetricDataQueries[0]).toMatchObject({ MetricStat: { Period: 180 } });
    expect(data.series[0]?.periodSeconds).toBe(300);
  });

  it('batches at most 500 queries a GetMetricData call', async () => {
    cloudwatch.on(DescribeAlarmsCommand).resolves({});
    const many = Array.from({ length: 700 }, (_, index) => ({ Namespace: 'Acme/Billing', MetricName: `Queue${index}`, Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] }));
    cloudwatch.on(ListMetricsCommand).resolves({ Metrics: [] });
    cloudwatch.on(ListMetricsCommand, { Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] }).resolves({ Metrics: many });
    cloudwatch.on(GetMetricDataCommand).callsFake((input: { MetricDataQueries: { Id: string }[] }) => ({
      MetricDataResults: input.MetricDataQueries.map((query) => ({ Id: query.Id, Timestamps: [minute(5)], Values: [1] })),
    }));
    const { data, summary } = await run();
    expect(getMetricDataInputs().map((input) => input.MetricDataQueries.length)).toEqual([500, 200]);
    expect(data.series).toHaveLength(60);
    expect(summary).toMatch(/640 less telling series left out/);
  });

  it('reports denied calls as observations naming the action', async () => {
    cloudwatch.on(DescribeAlarmsCommand).rejects(serviceException('AccessDenied', 'not authorized', 403));
    cloudwatch.on(ListMetricsCommand).resolves({ Metrics: [{ Namespace: 'AWS/Lambda', MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: 'billing' }] }] });
    cloudwatch.on(GetMetricDataCommand).rejects(serviceException('AccessDenied', 'not authorized', 403));
    const { data } = await run();
    expect(data).toEqual({ available: false, reason: expect.stringMatching(/cloudwatch:GetMetricData/) });
  });

  it('says so when nothing is listed, and when the service is unknown', async () => {
    cloudwatch.on(DescribeAlarmsCommand).resolves({});
    cloudwatch.on(ListMetricsCommand).resolves({});
    expect(await run()).toMatchObject({ data: { available: true, series: [] }, summary: expect.stringMatching(/no CloudWatch metrics/) });
    expect(await run({ service: 'nope' })).toMatchObject({ data: { available: true, series: [] }, summary: expect.stringMatching(/known: billing, orders/) });
  });
});

describe('get_metrics through the emulation, against the replay tool', () => {
  type Series = { service: string; name: string; dimensions?: unknown; stat?: string; points: [string, number][] };
  const keyOf = (item: Series) => `${item.service}|${item.name}|${JSON.stringify(item.dimensions ?? {})}`;
  const millis = (points: [string, number][]) => points.map(([timestamp, value]) => [Date.parse(timestamp), value]);

  // A scenario may record one metric under two statistics; the AWS tool reads each metric once, with one statistic.
  // A series recorded without dimensions gets its service's on CloudWatch, so it is matched by service and name.
  it.each(bundledScenarios().map((scenario) => [scenario.id, scenario] as const))('%s: the same metrics with the same points', async (_id, scenario) => {
    // The recorded catalog: the tagged one knows a service's metrics only by its ARN's dimensions or its name inside a dimension value.
    const tools = emulatedAndReplayed(scenario, getMetrics, 'recorded');
    const replayed = (await tools.replay('get_metrics')).series as Series[];
    const emulated = (await tools.aws('get_metrics')).series as Series[];
    const emulatedKeys = new Set(emulated.map(keyOf));
    const named = (item: Series) => `${item.service}|${item.name}`;
    for (const item of replayed) {
      if (item.dimensions === undefined) expect(emulated.map(named)).toContain(named(item));
      else expect(emulatedKeys).toContain(keyOf(item));
    }
    expect(emulated).toHaveLength(emulatedKeys.size);
    for (const series of emulated) {
      const candidates = replayed.filter((item) => (item.dimensions === undefined ? named(item) === named(series) : keyOf(item) === keyOf(series)));
      expect(candidates.map((candidate) => millis(candidate.points)), keyOf(series)).toContainEqual(millis(series.points));
    }
  });
});

describe('get_metrics through the emulated account and its tagged catalog, against the replay tool', () => {
  type Series = { service: string; name: string; dimensions?: Record<string, string>; points: [string, number][]; earlierDays?: { daysBefore: number; points: [string, number][] }[] };
  const named = (item: Series) => `${item.service}|${item.name}`;
  // Dimensions that name an AWS resource, which a real account tags with its service. A metric whose
  // dimensions name none (a team's `Provider=adyen`, `Pool=primary`) is found only through an alarm.
  const resourceKeys = new Set([
    'FunctionName', 'ClusterName', 'ServiceName', 'DBInstanceIdentifier', 'DBClusterIdentifier', 'TableName', 'QueueName', 'TopicName', 'StreamName',
    'InstanceId', 'VolumeId', 'NatGatewayId', 'KeyId', 'WebACL', 'CacheClusterId', 'ReplicationGroupId', 'TargetGroup', 'LoadBalancer',
    'DistributionId', 'ApiName', 'BucketName', 'DomainName', 'HostedZoneId', 'CertificateArn', 'RuleName', 'StateMachineArn',
  ]);
  const namesAResource = (item: Series) => item.dimensions === undefined || Object.keys(item.dimensions).some((key) => resourceKeys.has(key));

  it.each(bundledScenarios().map((scenario) => [scenario.id, scenario] as const))(
    '%s: every metric of a tagged resource, under its service, with the same earlier days',
    async (_id, scenario) => {
      const tools = emulatedAndReplayed(scenario, getMetrics, 'tagged');
      const input = { sinceMinutes: 240, compareDaysBefore: 2 };
      const replayed = (await tools.replay('get_metrics', input)).series as Series[] | undefined;
      const emulated = (await tools.aws('get_metrics', input)).series as Series[];
      const found = emulated.map(named);
      // Never a metric the scenario does not hold, nor one under another service; every metric of a tagged resource.
      expect((replayed ?? []).map(named)).toEqual(expect.arrayContaining(found));
      expect(found).toEqual(expect.arrayContaining((replayed ?? []).filter(namesAResource).map(named)));
      for (const series of emulated) {
        const days = (item: Series) => (item.earlierDays ?? []).map(({ daysBefore, points }) => [daysBefore, points.map(([at, value]) => [Date.parse(at), value])]);
        const candidates = (replayed ?? []).filter((item) => named(item) === named(series) && (item.dimensions === undefined || JSON.stringify(item.dimensions) === JSON.stringify(series.dimensions)));
        if (series.earlierDays) expect(candidates.map(days), named(series)).toContainEqual(days(series));
        else expect(candidates.some((candidate) => candidate.earlierDays === undefined), named(series)).toBe(true);
      }
    },
  );
});

describe('the emulated GetMetricData over a metric recorded at two resolutions', () => {
  const at = (hour: number, minute = 0) => `2026-04-02T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`;
  const history = (stat: string): NonNullable<Environment['metrics']> => [
    { service: 'ledger-db', name: 'FreeStorageSpace', namespace: 'AWS/RDS', dimensions: { DBInstanceIdentifier: 'ledger-db' }, stat, periodSeconds: 3600, points: [[at(3), 42], [at(4), 38], [at(5), 34], [at(6), 30]] },
    { service: 'ledger-db', name: 'FreeStorageSpace', namespace: 'AWS/RDS', dimensions: { DBInstanceIdentifier: 'ledger-db' }, stat, periodSeconds: 300, points: [[at(5, 30), 3.2], [at(5, 45), 3.1], [at(6), 3]] },
  ];
  const read = async (stat: string) => {
    const recorded = new RecordedEnvironment({ metrics: history(stat) }, new Date(at(6)));
    const emulated = new AwsClients('us-east-1', { kind: 'emulated', environment: recorded, emulations: scenarioEmulations });
    const page = await emulated.get(CloudWatchClient).send(
      new GetMetricDataCommand({
        StartTime: new Date(at(2, 30)),
        EndTime: new Date(at(6, 1)),
        ScanBy: 'TimestampAscending',
        MetricDataQueries: [{ Id: 'm', MetricStat: { Metric: { Namespace: 'AWS/RDS', MetricName: 'FreeStorageSpace', Dimensions: [{ Name: 'DBInstanceIdentifier', Value: 'ledger-db' }] }, Period: 300, Stat: stat } }],
      }),
    );
    return page.MetricDataResults?.[0]?.Values ?? [];
  };

  it('answers a scale-free statistic from the finest recording where it has data and the coarser one before it', async () => {
    expect(await read('Minimum')).toEqual([42, 38, 34, 3.2, 3.1, 3]);
  });

  it('answers a sum from one recording: hourly sums cannot sit beside five-minute ones', async () => {
    expect(await read('Sum')).toEqual([42, 38, 34, 30]);
  });
});
