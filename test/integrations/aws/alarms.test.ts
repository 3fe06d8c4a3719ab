import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ServiceCatalog } from '../../../integrations/aws/catalog.ts';
import { AwsClients } from '../../../integrations/aws/clients.ts';
import { listAlarms } from '../../../integrations/aws/cloudwatch/list-alarms.ts';
import { serviceException } from '../../../integrations/aws/emulation/emulator.ts';
import { awsToolSettings } from '../../../integrations/aws/settings.ts';
import { RecordedEnvironment } from '../../../integrations/scenario/recorded-environment.ts';
import { Toolbox } from '../../../lib/tools/toolbox.ts';
import { bundledScenarios, emulatedAndReplayed } from './emulated-scenario.ts';

const now = new Date('2026-04-06T04:10:00Z');
const catalog: ServiceCatalog = {
  services: async () => [
    { name: 'orders', kind: 'ecs', arns: [], tags: {}, logGroups: [], dimensions: [{ ClusterName: 'prod', ServiceName: 'orders' }] },
    { name: 'orders-db', kind: 'rds', arns: [], tags: {}, logGroups: [], dimensions: [{ DBInstanceIdentifier: 'orders-db' }] },
    { name: 'billing', kind: 'lambda', arns: [], tags: {}, logGroups: [], dimensions: [{ FunctionName: 'billing' }] },
  ],
  serviceOfArn: async (arn) => (arn.endsWith(':alarm:team-pager') ? 'billing' : undefined),
  serviceOfDimensions: async (dimensions) => (dimensions.DBInstanceIdentifier === 'orders-db' ? 'orders-db' : undefined),
  serviceOfLogGroup: async () => undefined,
};

const toolboxOver = (clients: AwsClients) => new Toolbox([listAlarms({ clients, catalog, settings: awsToolSettings.parse({}) })]);
const liveClients = () => new AwsClients('us-east-1', { kind: 'live', credentials: async () => ({ accessKeyId: 'test', secretAccessKey: 'test' }) });

const run = async (toolbox: Toolbox, args: Record<string, unknown> = {}) => {
  const outcome = await toolbox.execute({ id: 'c', name: 'list_alarms', arguments: args }, { now });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome as { summary: string; data: { available: boolean; reason?: string; alarms: Record<string, unknown>[] } };
};

let live = liveClients();
let cloudwatch = mockClient(live.get(CloudWatchClient));
beforeEach(() => {
  live = liveClients();
  cloudwatch = mockClient(live.get(CloudWatchClient));
});

describe('list_alarms on CloudWatch', () => {
  it('reads every page of metric and composite alarms and finds each alarm\'s service by dimensions, tags, then name', async () => {
    cloudwatch
      .on(DescribeAlarmsCommand)
      .resolvesOnce({
        MetricAlarms: [
          {
            AlarmName: 'db-connections-high',
            AlarmArn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:db-connections-high',
            StateValue: 'ALARM',
            StateReason: 'Threshold Crossed: 3 datapoints were greater than the threshold (90.0)',
            StateUpdatedTimestamp: new Date('2026-04-06T04:02:00Z'),
            AlarmDescription: 'Pool near exhaustion. severity: critical',
            Namespace: 'AWS/RDS',
            MetricName: 'DatabaseConnections',
            Dimensions: [{ Name: 'DBInstanceIdentifier', Value: 'orders-db' }],
          },
        ],
        NextToken: 'page-2',
      })
      .resolvesOnce({
        MetricAlarms: [{ AlarmName: 'orders-5xx', StateValue: 'OK', StateUpdatedTimestamp: new Date('2026-04-05T10:00:00.250Z'), Namespace: 'AWS/ApplicationELB', MetricName: 'HTTPCode_Target_5XX_Count', Dimensions: [{ Name: 'TargetGroup', Value: 'targetgroup/x/1' }] }],
        CompositeAlarms: [{ AlarmName: 'team-pager', AlarmArn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:team-pager', StateValue: 'ALARM', AlarmRule: 'ALARM(orders-5xx)' }],
      });
    const { data, summary } = await run(toolboxOver(live));
    expect(summary).toBe('3 alarms, 2 in ALARM');
    expect(data.alarms).toEqual([
      {
        name: 'db-connections-high',
        service: 'orders-db',
        state: 'ALARM',
        since: '2026-04-06T04:02:00Z',
        reason: 'Threshold Crossed: 3 datapoints were greater than the threshold (90.0)',
        severity: 'critical',
      },
      { name: 'orders-5xx', service: 'orders', state: 'OK', since: '2026-04-05T10:00:00.250Z' },
      { name: 'team-pager', service: 'billing', state: 'ALARM' },
    ]);
    const calls = cloudwatch.commandCalls(DescribeAlarmsCommand).map((call) => call.args[0].input);
    expect(calls).toEqual([
      { AlarmTypes: ['MetricAlarm', 'CompositeAlarm'], MaxRecords: 100 },
      { AlarmTypes: ['MetricAlarm', 'CompositeAlarm'], MaxRecords: 100, NextToken: 'page-2' },
    ]);
  });

  it('asks CloudWatch for one state when the model does', async () => {
    cloudwatch.on(DescribeAlarmsCommand).resolves({ MetricAlarms: [] });
    const { data, summary } = await run(toolboxOver(live), { state: 'ALARM' });
    expect(data).toEqual({ available: true, alarms: [] });
    expect(summary).toBe('0 alarms, 0 in ALARM');
    expect(cloudwatch.commandCalls(DescribeAlarmsCommand)[0]?.args[0].input.StateValue).toBe('ALARM');
  });

  it('reports a denied DescribeAlarms as an observation naming the action', async () => {
    cloudwatch.on(DescribeAlarmsCommand).rejects(serviceException('AccessDenied', 'User is not authorized to perform: cloudwatch:DescribeAlarms', 403));
    const { data } = await run(toolboxOver(live));
    expect(data.available).toBe(false);
    expect(data.reason).toMatch(/cloudwatch:DescribeAlarms/);
  });

  it('leaves throttling to the SDK\'s retry strategy', async () => {
    let calls = 0;
    const throttledOnce = {
      DescribeAlarmsCommand: () => {
        calls += 1;
        if (calls === 1) throw serviceException('Throttling', 'Rate exceeded', 400);
        return { MetricAlarms: [{ AlarmName: 'billing-errors', StateValue: 'ALARM' }] };
      },
    };
    const clients = new AwsClients('us-east-1', {
      kind: 'emulated',
      environment: new RecordedEnvironment({}, now),
      emulations: new Map([['CloudWatchClient', throttledOnce]]),
    });
    const { data } = await run(toolboxOver(clients));
    expect(calls).toBe(2);
    expect(data.alarms).toEqual([{ name: 'billing-errors', service: 'billing', state: 'ALARM' }]);
  });
});

describe('list_alarms through the emulation, against the replay tool', () => {
  const byName = (alarms: Record<string, unknown>[]) =>
    alarms
      .map((alarm): Record<string, unknown> => ({ ...alarm, since: alarm.since === undefined ? undefined : Date.parse(alarm.since as string) }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));

  it.each(bundledScenarios().map((scenario) => [scenario.id, scenario] as const))('%s: the same alarms, services, states and times', async (_id, scenario) => {
    // The recorded catalog: services with no ARN (kinds other, ec2, external) are not tagged in the emulated account.
    const tools = emulatedAndReplayed(scenario, listAlarms, 'recorded');
    const replayed = await tools.replay('list_alarms');
    const emulated = await tools.aws('list_alarms');
    if (replayed.available === false) {
      expect(emulated).toEqual({ available: true, alarms: [] });
      return;
    }
    expect(byName(emulated.alarms as Record<string, unknown>[])).toEqual(byName(replayed.alarms as Record<string, unknown>[]));
    const firing = await tools.aws('list_alarms', { state: 'ALARM' });
    expect((firing.alarms as { state: string }[]).every((alarm) => alarm.state === 'ALARM')).toBe(true);
  });
});
