import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CloudTrailClient, LookupEventsCommand } from '@aws-sdk/client-cloudtrail';
import { DescribeServicesCommand, ECSClient } from '@aws-sdk/client-ecs';
import { LambdaClient, ListAliasesCommand, ListVersionsByFunctionCommand } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ServiceCatalog } from '../../../integrations/aws/catalog.ts';
import { listChanges } from '../../../integrations/aws/changes/list-changes.ts';
import type { SpacerTiming } from '../../../integrations/aws/changes/request-spacer.ts';
import { AwsClients } from '../../../integrations/aws/clients.ts';
import { serviceException } from '../../../integrations/aws/emulation/emulator.ts';
import { awsToolSettings } from '../../../integrations/aws/settings.ts';
import type { AwsToolDependencies } from '../../../integrations/aws/tools.ts';
import { Toolbox } from '../../../lib/tools/toolbox.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../../local/scenario-files.ts';
import { bundledScenarios, emulatedAndReplayed } from './emulated-scenario.ts';

const now = new Date('2026-04-06T04:10:00Z');
const checkoutArn = 'arn:aws:ecs:us-east-1:123456789012:service/prod/checkout';
const billingArn = 'arn:aws:lambda:us-east-1:123456789012:function:billing';
const catalog: ServiceCatalog = {
  services: async () => [
    { name: 'checkout', kind: 'ecs', arns: [checkoutArn], tags: {}, logGroups: [], dimensions: [] },
    { name: 'billing', kind: 'lambda', arns: [billingArn], tags: {}, logGroups: [], dimensions: [{ FunctionName: 'billing' }] },
  ],
  serviceOfArn: async (arn) => (arn === checkoutArn ? 'checkout' : arn.startsWith(billingArn) ? 'billing' : undefined),
  serviceOfDimensions: async () => undefined,
  serviceOfLogGroup: async () => undefined,
};

/** A clock that only moves when the spacer sleeps: the waits are recorded, nothing really sleeps. */
const fakeTiming = () => {
  let clock = 0;
  const sleeps: number[] = [];
  const timing: SpacerTiming = {
    now: () => clock,
    sleep: async (milliseconds) => {
      sleeps.push(milliseconds);
      clock += milliseconds;
    },
  };
  return { timing, sleeps };
};
const instant: SpacerTiming = { now: () => 0, sleep: async () => undefined };

const trailEvent = (options: { id: string; name: string; source: string; at: string; user: string; parameters: Record<string, unknown>; resources?: string[] }) => ({
  EventId: options.id,
  EventName: options.name,
  EventTime: new Date(options.at),
  EventSource: options.source,
  Username: options.user,
  Resources: (options.resources ?? []).map((ResourceName) => ({ ResourceName, ResourceType: 'AWS::Unknown' })),
  CloudTrailEvent: JSON.stringify({ eventName: options.name, eventSource: options.source, userIdentity: { type: 'IAMUser', userName: options.user }, requestParameters: options.parameters }),
});

let clients: AwsClients;
let cloudtrail: ReturnType<typeof mockClient>;
let ecs: ReturnType<typeof mockClient>;
let lambda: ReturnType<typeof mockClient>;
beforeEach(() => {
  clients = new AwsClients('us-east-1', { kind: 'live', credentials: async () => ({ accessKeyId: 'test', secretAccessKey: 'test' }) });
  cloudtrail = mockClient(clients.get(CloudTrailClient));
  ecs = mockClient(clients.get(ECSClient));
  lambda = mockClient(clients.get(LambdaClient));
  ecs.on(DescribeServicesCommand).resolves({ services: [] });
  lambda.on(ListAliasesCommand).resolves({ Aliases: [] });
  lambda.on(ListVersionsByFunctionCommand).resolves({ Versions: [] });
});

const run = async (args: Record<string, unknown> = {}, timing: SpacerTiming = instant) => {
  const dependencies: AwsToolDependencies = { clients, catalog, settings: awsToolSettings.parse({}) };
  const toolbox = new Toolbox([listChanges(dependencies, timing)]);
  const outcome = await toolbox.execute({ id: 'c', name: 'list_changes', arguments: args }, { now });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome as { summary: string; data: { available: boolean; reason?: string; changes: Record<string, unknown>[] } };
};

describe('list_changes on CloudTrail, ECS and Lambda', () => {
  it('reads write events across pages, spaced within CloudTrail\'s rate, and turns them into changes of the vocabulary\'s kinds', async () => {
    cloudtrail
      .on(LookupEventsCommand)
      .resolvesOnce({
        Events: [
          trailEvent({ id: 'e3', name: 'UpdateService', source: 'ecs.amazonaws.com', at: '2026-04-06T04:01:00Z', user: 'alice', parameters: { cluster: 'prod', service: 'checkout', desiredCount: 8 }, resources: [checkoutArn] }),
          trailEvent({ id: 'e2', name: 'CreateNetworkInterface', source: 'ec2.amazonaws.com', at: '2026-04-06T03:59:00Z', user: 'lambda', parameters: {}, resources: [checkoutArn] }),
        ],
        NextToken: 'p2',
      })
      .resolvesOnce({
        Events: [trailEvent({ id: 'e1', name: 'UpdateFunctionCode20150331v2', source: 'lambda.amazonaws.com', at: '2026-04-06T03:40:00Z', user: 'deployer', parameters: { functionName: billingArn, publish: true } })],
        NextToken: 'p3',
      })
      .resolvesOnce({
        Events: [
          trailEvent({ id: 'e0', name: 'PutRolePolicy', source: 'iam.amazonaws.com', at: '2026-04-06T02:00:00Z', user: 'bob', parameters: { roleName: 'billing-task-role', policyName: 'ddb' } }),
          trailEvent({ id: 'e-', name: 'TagResource', source: 'tag.amazonaws.com', at: '2026-04-06T01:00:00Z', user: 'bob', parameters: { resourceArn: 'arn:aws:s3:::nobody' } }),
        ],
      });
    const { timing, sleeps } = fakeTiming();
    const { data, summary } = await run({ sinceMinutes: 600 }, timing);
    expect(summary).toBe('3 changes');
    expect(data.changes).toEqual([
      { service: 'billing', timestamp: '2026-04-06T02:00:00Z', kind: 'iam', summary: 'PutRolePolicy on billing by bob', actor: 'bob', details: { roleName: 'billing-task-role', policyName: 'ddb' } },
      { service: 'billing', timestamp: '2026-04-06T03:40:00Z', kind: 'deploy', summary: 'UpdateFunctionCode on billing by deployer', actor: 'deployer', details: { functionName: billingArn, publish: true } },
      { service: 'checkout', timestamp: '2026-04-06T04:01:00Z', kind: 'scaling', summary: 'UpdateService on checkout (desired 8) by alice', actor: 'alice', details: { cluster: 'prod', service: 'checkout', desiredCount: 8 } },
    ]);
    const inputs = cloudtrail.commandCalls(LookupEventsCommand).map((call) => call.args[0].input);
    expect(inputs[0]).toEqual({ LookupAttributes: [{ AttributeKey: 'ReadOnly', AttributeValue: 'false' }], StartTime: new Date('2026-04-05T18:10:00Z'), EndTime: now, MaxResults: 50 });
    expect(inputs.map((input) => input.NextToken)).toEqual([undefined, 'p2', 'p3']);
    // Three calls: the first at once, each next one 500 ms after the previous (2 requests a second).
    expect(sleeps).toEqual([500, 500]);
  });

  it('adds ECS deployments and Lambda versions the trail missed, and drops the ones it already reported', async () => {
    cloudtrail.on(LookupEventsCommand).resolves({
      Events: [trailEvent({ id: 'e1', name: 'UpdateService', source: 'ecs.amazonaws.com', at: '2026-04-06T03:58:00Z', user: 'ci', parameters: { service: 'checkout', taskDefinition: 'checkout:42' }, resources: [checkoutArn] })],
    });
    ecs.on(DescribeServicesCommand, { cluster: 'prod', services: [checkoutArn] }).resolves({
      services: [
        {
          serviceArn: checkoutArn,
          deployments: [
            { id: 'ecs-svc/2', status: 'PRIMARY', taskDefinition: 'arn:aws:ecs:us-east-1:123456789012:task-definition/checkout:42', createdAt: new Date('2026-04-06T03:58:02Z'), rolloutState: 'IN_PROGRESS', desiredCount: 4, runningCount: 1 },
            { id: 'ecs-svc/1', status: 'ACTIVE', taskDefinition: 'arn:aws:ecs:us-east-1:123456789012:task-definition/checkout:41', createdAt: new Date('2026-04-06T01:00:00Z'), rolloutState: 'COMPLETED', desiredCount: 4, runningCount: 3 },
          ],
        },
      ],
    });
    lambda.on(ListAliasesCommand, { FunctionName: 'billing' }).resolves({ Aliases: [{ Name: 'live', FunctionVersion: '7' }] });
    lambda
      .on(ListVersionsByFunctionCommand, { FunctionName: 'billing' })
      .resolvesOnce({ Versions: [{ Version: '$LATEST', LastModified: '2026-04-06T03:30:00.000+0000' }, { Version: '6', LastModified: '2026-03-01T00:00:00.000+0000' }], NextMarker: 'm2' })
      .resolvesOnce({ Versions: [{ Version: '7', LastModified: '2026-04-06T03:30:00.000+0000', Description: 'retry jitter' }] });
    const { data } = await run({ sinceMinutes: 600 });
    expect(data.changes.map((change) => [change.service, change.timestamp, change.kind, change.summary])).toEqual([
      ['checkout', '2026-04-06T01:00:00Z', 'deploy', 'ECS deployment of checkout: task definition checkout:41 (COMPLETED)'],
      ['billing', '2026-04-06T03:30:00Z', 'deploy', 'billing version 7 published, alias live now on it: retry jitter'],
      ['checkout', '2026-04-06T03:58:00Z', 'deploy', 'UpdateService on checkout (task definition checkout:42) by ci'],
    ]);
    expect(lambda.commandCalls(ListVersionsByFunctionCommand).map((call) => call.args[0].input.Marker)).toEqual([undefined, 'm2']);
  });

  it('reports a denied LookupEvents as an observation naming the action, and keeps what the platforms said', async () => {
    cloudtrail.on(LookupEventsCommand).rejects(serviceException('AccessDeniedException', 'not authorized to perform cloudtrail:LookupEvents', 400));
    expect((await run({ service: 'checkout' })).data).toEqual({ available: false, reason: expect.stringMatching(/cloudtrail:LookupEvents/) });
    ecs.on(DescribeServicesCommand).resolves({ services: [{ serviceArn: checkoutArn, deployments: [{ id: 'd', createdAt: new Date('2026-04-06T04:00:00Z'), taskDefinition: 'td/checkout:3' }] }] });
    const partial = await run({ service: 'checkout' });
    expect(partial.data.changes).toHaveLength(1);
    expect(partial.summary).toMatch(/access denied to cloudtrail:LookupEvents/);
  });

  it('notes a function deleted since the catalog was read, and keeps the trail and the other platforms', async () => {
    cloudtrail.on(LookupEventsCommand).resolves({
      Events: [trailEvent({ id: 'e1', name: 'UpdateService', source: 'ecs.amazonaws.com', at: '2026-04-06T03:58:00Z', user: 'ci', parameters: { service: 'checkout', taskDefinition: 'checkout:42' }, resources: [checkoutArn] })],
    });
    ecs.on(DescribeServicesCommand).resolves({ services: [{ serviceArn: checkoutArn, deployments: [{ id: 'd', status: 'ACTIVE', createdAt: new Date('2026-04-06T01:00:00Z'), taskDefinition: 'td/checkout:41', rolloutState: 'COMPLETED' }] }] });
    lambda.on(ListAliasesCommand, { FunctionName: 'billing' }).rejects(serviceException('ResourceNotFoundException', 'Function not found: arn:aws:lambda:us-east-1:123456789012:function:billing', 404));
    const { data, summary } = await run({ sinceMinutes: 600 });
    expect(data.changes.map((change) => [change.service, change.kind])).toEqual([['checkout', 'deploy'], ['checkout', 'deploy']]);
    expect(summary).toBe('2 changes; functions not found, deleted or renamed since the catalog was read: billing');
    lambda.on(ListAliasesCommand, { FunctionName: 'billing' }).rejects(serviceException('ServiceException', 'internal error', 500));
    await expect(run({ sinceMinutes: 600 })).rejects.toThrow(/internal error/);
  });

  it('answers an empty trail with no changes', async () => {
    cloudtrail.on(LookupEventsCommand).resolves({ Events: [] });
    expect(await run()).toMatchObject({ summary: '0 changes', data: { available: true, changes: [] } });
  });
});

const factory = (dependencies: AwsToolDependencies) => listChanges(dependencies, instant);
const holdoutScenarios = () => {
  const directory = join(BUNDLED_SCENARIOS_DIR, 'holdout');
  return readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .map((file) => parseScenarioText(readFileSync(join(directory, file), 'utf8'), file));
};

describe('list_changes through the emulation, against the replay tool', () => {
  const keyed = (changes: Record<string, unknown>[]) => changes.map((change) => `${change.service}|${Date.parse(change.timestamp as string)}|${change.kind}`).sort();

  it.each([...bundledScenarios(), ...holdoutScenarios()].map((scenario) => [scenario.id, scenario] as const))('%s: the same changes, services, times and kinds', async (_id, scenario) => {
    const tools = emulatedAndReplayed(scenario, factory);
    const replayed = await tools.replay('list_changes', { sinceMinutes: 7 * 24 * 60 });
    const emulated = await tools.aws('list_changes', { sinceMinutes: 7 * 24 * 60 });
    const expected = replayed.available === false ? [] : keyed(replayed.changes as Record<string, unknown>[]);
    expect(keyed(emulated.changes as Record<string, unknown>[])).toEqual(expected);
    for (const change of (replayed.available === false ? [] : replayed.changes) as { summary: string }[]) {
      expect((emulated.changes as { summary: string }[]).some((candidate) => candidate.summary.endsWith(change.summary))).toBe(true);
    }
  });
});
