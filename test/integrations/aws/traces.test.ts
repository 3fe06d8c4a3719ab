import { GetTraceSummariesCommand, XRayClient } from '@aws-sdk/client-xray';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ServiceCatalog } from '../../../integrations/aws/catalog.ts';
import { AwsClients } from '../../../integrations/aws/clients.ts';
import { serviceException } from '../../../integrations/aws/emulation/emulator.ts';
import { awsToolSettings } from '../../../integrations/aws/settings.ts';
import { getTraces } from '../../../integrations/aws/xray/get-traces.ts';
import { Toolbox } from '../../../lib/tools/toolbox.ts';
import { bundledScenarios, emulatedAndReplayed } from './emulated-scenario.ts';

const now = new Date('2026-04-06T04:10:00Z');
const catalog: ServiceCatalog = {
  services: async () => [
    { name: 'web', kind: 'ecs', arns: [], tags: {}, logGroups: [], dimensions: [] },
    { name: 'orders', kind: 'ecs', arns: [], tags: {}, logGroups: [], dimensions: [] },
  ],
  serviceOfArn: async () => undefined,
  serviceOfDimensions: async () => undefined,
  serviceOfLogGroup: async () => undefined,
};

let clients: AwsClients;
let xray: ReturnType<typeof mockClient>;
beforeEach(() => {
  clients = new AwsClients('us-east-1', { kind: 'live', credentials: async () => ({ accessKeyId: 'test', secretAccessKey: 'test' }) });
  xray = mockClient(clients.get(XRayClient));
});

const run = async (args: Record<string, unknown> = {}) => {
  const toolbox = new Toolbox([getTraces({ clients, catalog, settings: awsToolSettings.parse({}) })]);
  const outcome = await toolbox.execute({ id: 'c', name: 'get_traces', arguments: args }, { now });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome as { summary: string; data: { available: boolean; reason?: string; services: Record<string, unknown>[] } };
};

const summary = (id: string, at: string, seconds: number, options: { fault?: boolean; downstream?: [string, number][]; exceptions?: [string, string][] } = {}) => ({
  Id: id,
  StartTime: new Date(at),
  ResponseTime: seconds,
  Duration: seconds,
  HasFault: options.fault ?? false,
  EntryPoint: { Name: 'WEB', Type: 'AWS::ECS::Container' },
  ServiceIds: [{ Name: 'WEB' }, ...(options.downstream ?? []).map(([name]) => ({ Name: name }))],
  ResponseTimeRootCauses: (options.downstream ?? []).map(([name, coverage]) => ({ Services: [{ Name: 'WEB', EntityPath: [{ Name: 'WEB', Coverage: 1 }] }, { Name: name, EntityPath: [{ Name: name, Coverage: coverage, Remote: true }] }] })),
  FaultRootCauses: (options.exceptions ?? []).map(([name, message]) => ({ Services: [{ Name: name, EntityPath: [{ Name: name, Exceptions: [{ Name: 'Error', Message: message }] }] }] })),
});

describe('get_traces on X-Ray', () => {
  it('reads every page of every 6-hour slice and summarizes per entry service with its downstream calls', async () => {
    xray
      .on(GetTraceSummariesCommand)
      .resolvesOnce({ TraceSummaries: [summary('t1', '2026-04-06T00:00:00Z', 0.2, { downstream: [['orders', 0.5]] })], NextToken: 'n2' })
      .resolvesOnce({ TraceSummaries: [summary('t2', '2026-04-06T02:00:00Z', 1, { fault: true, downstream: [['orders', 0.9]], exceptions: [['orders', 'pool exhausted'], ['WEB', 'upstream 500']] })] })
      .resolves({ TraceSummaries: [] });
    const { data } = await run({ sinceMinutes: 10 * 60 });
    const inputs = xray.commandCalls(GetTraceSummariesCommand).map((call) => call.args[0].input);
    expect(inputs.map((input) => [input.StartTime?.toISOString(), input.EndTime?.toISOString(), input.NextToken, input.TimeRangeType])).toEqual([
      ['2026-04-05T18:10:00.000Z', '2026-04-06T00:10:00.000Z', undefined, 'Event'],
      ['2026-04-05T18:10:00.000Z', '2026-04-06T00:10:00.000Z', 'n2', 'Event'],
      ['2026-04-06T00:10:00.000Z', '2026-04-06T04:10:00.000Z', undefined, 'Event'],
    ]);
    expect(data.services).toEqual([
      {
        service: 'web',
        requests: 2,
        faults: 1,
        p50Ms: 1000,
        p95Ms: 1000,
        firstFault: '2026-04-06T02:00:00Z',
        errors: ['upstream 500'],
        downstream: [{ service: 'orders', calls: 2, p95Ms: 900, errors: 1, sampleError: 'pool exhausted', firstErrorAt: '2026-04-06T02:00:00Z' }],
      },
    ]);
  });

  it('filters on the service in X-Ray itself', async () => {
    xray.on(GetTraceSummariesCommand).resolves({ TraceSummaries: [summary('t1', '2026-04-06T04:00:00Z', 0.1)] });
    const { data } = await run({ service: 'Web' });
    expect(xray.commandCalls(GetTraceSummariesCommand)[0]?.args[0].input.FilterExpression).toBe('service("web")');
    expect(data.services.map((service) => service.service)).toEqual(['web']);
  });

  it('says tracing may be off when X-Ray has nothing, and names a denied action', async () => {
    xray.on(GetTraceSummariesCommand).resolves({ TraceSummaries: [] });
    expect((await run()).data).toEqual({ available: false, reason: expect.stringMatching(/tracing may be off/) });
    xray.on(GetTraceSummariesCommand).rejects(serviceException('AccessDeniedException', 'not authorized', 403));
    expect((await run()).data).toEqual({ available: false, reason: expect.stringMatching(/xray:GetTraceSummaries/) });
  });
});

describe('get_traces through the emulation, against the replay tool', () => {
  it.each(bundledScenarios().map((scenario) => [scenario.id, scenario] as const))('%s: the same per-service summaries', async (_id, scenario) => {
    const tools = emulatedAndReplayed(scenario, getTraces);
    const replayed = await tools.replay('get_traces', { sinceMinutes: 180 });
    const emulated = await tools.aws('get_traces', { sinceMinutes: 180 });
    if (replayed.available === false || (replayed.services as unknown[]).length === 0) {
      expect(emulated.available).toBe(false);
      return;
    }
    const timeOf = (at: unknown) => (at === undefined ? undefined : Date.parse(at as string));
    const normalized = (services: Record<string, unknown>[]) =>
      services
        .map((service): Record<string, unknown> => ({
          ...service,
          firstFault: timeOf(service.firstFault),
          errors: [...(service.errors as string[])].sort(),
          downstream: (service.downstream as Record<string, unknown>[]).map((segment) => ({ ...segment, firstErrorAt: timeOf(segment.firstErrorAt) })),
        }))
        .sort((a, b) => String(a.service).localeCompare(String(b.service)));
    expect(normalized(emulated.services as Record<string, unknown>[])).toEqual(normalized(replayed.services as Record<string, unknown>[]));
  });
});
