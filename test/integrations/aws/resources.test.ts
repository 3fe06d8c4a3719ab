import { DescribeServicesCommand, DescribeTasksCommand, ECSClient, ListTasksCommand } from '@aws-sdk/client-ecs';
import { GetFunctionConcurrencyCommand, GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { DescribeDBInstancesCommand, DescribeEventsCommand, RDSClient } from '@aws-sdk/client-rds';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ServiceCatalog, ServiceResources } from '../../../integrations/aws/catalog.ts';
import { AwsClients } from '../../../integrations/aws/clients.ts';
import { serviceException } from '../../../integrations/aws/emulation/emulator.ts';
import { describeService } from '../../../integrations/aws/resources/describe-service.ts';
import { awsToolSettings } from '../../../integrations/aws/settings.ts';
import { Toolbox } from '../../../lib/tools/toolbox.ts';
import { bundledScenarios, emulatedAndReplayed } from './emulated-scenario.ts';

const now = new Date('2026-04-06T04:10:00Z');
const checkoutArn = 'arn:aws:ecs:us-east-1:123456789012:service/prod/checkout';
const services: ServiceResources[] = [
  { name: 'checkout', kind: 'ecs', arns: [checkoutArn], tags: { team: 'web' }, logGroups: [], dimensions: [] },
  { name: 'billing', kind: 'lambda', arns: ['arn:aws:lambda:us-east-1:123456789012:function:billing'], tags: {}, logGroups: [], dimensions: [] },
  { name: 'orders-db', kind: 'rds', arns: ['arn:aws:rds:us-east-1:123456789012:cluster:orders-db'], tags: {}, logGroups: [], dimensions: [] },
];
const catalog: ServiceCatalog = {
  services: async () => services,
  serviceOfArn: async () => undefined,
  serviceOfDimensions: async () => undefined,
  serviceOfLogGroup: async () => undefined,
};

let clients: AwsClients;
beforeEach(() => {
  clients = new AwsClients('us-east-1', { kind: 'live', credentials: async () => ({ accessKeyId: 'test', secretAccessKey: 'test' }) });
});

const run = async (service: string) => {
  const toolbox = new Toolbox([describeService({ clients, catalog, settings: awsToolSettings.parse({}) })]);
  const outcome = await toolbox.execute({ id: 'c', name: 'describe_service', arguments: { service } }, { now });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome as { summary: string; data: Record<string, unknown> & { available: boolean; events?: { source: string; message: string }[] } };
};

describe('describe_service on Lambda, ECS and RDS', () => {
  it('describes an ECS service: counts, deployments, service events and why its tasks stopped', async () => {
    const ecs = mockClient(clients.get(ECSClient));
    ecs.on(DescribeServicesCommand, { cluster: 'prod', services: [checkoutArn] }).resolves({
      services: [
        {
          serviceArn: checkoutArn,
          serviceName: 'checkout',
          status: 'ACTIVE',
          desiredCount: 4,
          runningCount: 2,
          taskDefinition: 'arn:aws:ecs:us-east-1:123456789012:task-definition/checkout:42',
          deployments: [{ id: 'ecs-svc/1', status: 'PRIMARY', rolloutState: 'IN_PROGRESS', createdAt: new Date('2026-04-06T03:58:00Z'), taskDefinition: 'arn:aws:ecs:us-east-1:123456789012:task-definition/checkout:42' }],
          events: [
            { createdAt: new Date('2026-04-06T04:05:00Z'), message: '(service checkout) has started 2 tasks' },
            { createdAt: new Date('2026-03-01T00:00:00Z'), message: '(service checkout) too old to matter' },
          ],
        },
      ],
    });
    ecs.on(ListTasksCommand, { cluster: 'prod', serviceName: 'checkout', desiredStatus: 'STOPPED' }).resolves({ taskArns: ['arn:aws:ecs:us-east-1:123456789012:task/prod/abc'] });
    ecs.on(DescribeTasksCommand).resolves({
      tasks: [{ taskArn: 'arn:aws:ecs:us-east-1:123456789012:task/prod/abc', stoppedAt: new Date('2026-04-06T04:06:00Z'), stoppedReason: 'Essential container in task exited', containers: [{ name: 'app', exitCode: 137, reason: 'OutOfMemoryError' }] }],
    });
    const { data } = await run('Checkout');
    expect(data).toMatchObject({
      service: 'checkout',
      kind: 'ecs',
      arn: checkoutArn,
      configuration: { cluster: 'prod', desiredCount: 4, runningCount: 2, taskDefinition: 'checkout:42', deployments: [{ id: 'ecs-svc/1', rolloutState: 'IN_PROGRESS', createdAt: '2026-04-06T03:58:00Z' }], tags: { team: 'web' } },
      events: [
        { timestamp: '2026-04-06T04:05:00Z', source: 'ecs', message: '(service checkout) has started 2 tasks' },
        { timestamp: '2026-04-06T04:06:00Z', source: 'ecs-task', message: 'task abc stopped: Essential container in task exited (app exit 137: OutOfMemoryError)' },
      ],
    });
  });

  it('describes a Lambda function with its reserved concurrency', async () => {
    const lambda = mockClient(clients.get(LambdaClient));
    lambda.on(GetFunctionConfigurationCommand).resolves({ FunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:billing', Runtime: 'nodejs20.x', Timeout: 10, MemorySize: 512, State: 'Active' });
    lambda.on(GetFunctionConcurrencyCommand).resolves({ ReservedConcurrentExecutions: 5 });
    const { data } = await run('billing');
    expect(data.configuration).toEqual({ runtime: 'nodejs20.x', timeoutSeconds: 10, memoryMb: 512, reservedConcurrency: 5, state: 'Active' });
  });

  it('describes an Aurora cluster\'s instances and its events', async () => {
    const rds = mockClient(clients.get(RDSClient));
    rds.on(DescribeDBInstancesCommand, { Filters: [{ Name: 'db-cluster-id', Values: ['orders-db'] }] }).resolves({ DBInstances: [{ DBInstanceIdentifier: 'orders-db-1', DBInstanceStatus: 'available', DBInstanceClass: 'db.r6g.large', Engine: 'aurora-postgresql' }] });
    rds.on(DescribeEventsCommand).resolves({ Events: [{ Date: new Date('2026-04-06T03:00:00Z'), Message: 'Started failover', SourceIdentifier: 'orders-db' }] });
    const { data } = await run('orders-db');
    expect(data).toMatchObject({ configuration: { cluster: 'orders-db', instances: [{ id: 'orders-db-1', class: 'db.r6g.large' }] }, events: [{ source: 'rds', message: 'Started failover' }] });
    expect(rds.commandCalls(DescribeEventsCommand)[0]?.args[0].input).toMatchObject({ SourceIdentifier: 'orders-db', SourceType: 'db-cluster' });
  });

  it('reports a denied call with the actions to grant, and an unknown service with the known ones', async () => {
    mockClient(clients.get(LambdaClient)).on(GetFunctionConfigurationCommand).rejects(serviceException('AccessDeniedException', 'not authorized', 403));
    expect((await run('billing')).data).toEqual({ available: false, reason: expect.stringMatching(/lambda:GetFunctionConfiguration/) });
    expect(await run('nope')).toMatchObject({ data: { available: false }, summary: expect.stringMatching(/known: checkout, billing, orders-db/) });
  });
});

describe('describe_service through the emulation, against the replay tool', () => {
  it.each(bundledScenarios().map((scenario) => [scenario.id, scenario] as const))('%s: every ECS and RDS service\'s recorded changes come back as platform events', async (_id, scenario) => {
    const tools = emulatedAndReplayed(scenario, describeService);
    for (const service of (scenario.environment.services ?? []).filter((candidate) => candidate.kind === 'ecs' || candidate.kind === 'rds' || candidate.kind === 'lambda')) {
      const replayed = await tools.replay('describe_service', { service: service.name });
      const emulated = await tools.aws('describe_service', { service: service.name });
      expect(emulated).toMatchObject({ available: true, service: service.name, kind: service.kind });
      if (service.kind === 'lambda') continue;
      for (const event of replayed.events as { timestamp: string; message: string }[]) {
        const match = (emulated.events as { timestamp: string; message: string }[]).find((candidate) => Date.parse(candidate.timestamp) === Date.parse(event.timestamp));
        expect(match?.message, `${service.name}: ${event.message}`).toContain(event.message);
      }
    }
  });
});
