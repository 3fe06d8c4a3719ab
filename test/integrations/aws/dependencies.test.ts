import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetServiceGraphCommand, XRayClient } from '@aws-sdk/client-xray';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceCatalog, ServiceResources } from '../../../integrations/aws/catalog.ts';
import { taggedCatalog } from '../../../integrations/aws/catalog/tagged-catalog.ts';
import { AwsClients } from '../../../integrations/aws/clients.ts';
import { scenarioEmulations } from '../../../integrations/aws/emulation/index.ts';
import { awsToolSettings } from '../../../integrations/aws/settings.ts';
import { getDependencies } from '../../../integrations/aws/xray/get-dependencies.ts';
import { scenarioTools } from '../../../integrations/scenario/index.ts';
import { RecordedEnvironment } from '../../../integrations/scenario/recorded-environment.ts';
import type { Scenario } from '../../../lib/domain/scenario.ts';
import { Toolbox } from '../../../lib/tools/toolbox.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../../local/scenario-files.ts';

const xray = mockClient(XRayClient);

const now = new Date('2026-04-06T04:10:00Z');

const catalogOf = (services: (Pick<ServiceResources, 'name'> & Partial<ServiceResources>)[]): ServiceCatalog => {
  const full = services.map((service) => ({ arns: [], tags: {}, dimensions: [], logGroups: [], ...service }));
  return { services: async () => full, serviceOfArn: async () => undefined, serviceOfDimensions: async () => undefined, serviceOfLogGroup: async () => undefined };
};

const run = async (catalog: ServiceCatalog, args: Record<string, unknown> = {}, clients = new AwsClients('us-east-1', { kind: 'live' })) => {
  const box = new Toolbox([getDependencies({ clients, catalog, settings: awsToolSettings.parse({}) })]);
  const outcome = await box.execute({ id: 'c', name: 'get_dependencies', arguments: args }, { now });
  if (!outcome.ok) throw new Error(outcome.error);
  return { summary: outcome.summary, data: outcome.data as Record<string, any> };
};

describe('get_dependencies on X-Ray', () => {
  afterEach(() => xray.reset());
  it('reads every page of the service graph and names nodes as the catalog does', async () => {
    xray
      .on(GetServiceGraphCommand, { NextToken: undefined })
      .resolves({
        NextToken: 'n2',
        Services: [
          { ReferenceId: 0, Name: 'client', Type: 'client', Edges: [{ ReferenceId: 1 }] },
          { ReferenceId: 1, Name: 'Web', Type: 'AWS::ECS::Container', Edges: [{ ReferenceId: 2 }] },
        ],
      })
      .on(GetServiceGraphCommand, { NextToken: 'n2' })
      .resolves({ Services: [{ ReferenceId: 2, Name: 'orders', Type: 'AWS::Lambda::Function', Edges: [{ ReferenceId: 3 }] }, { ReferenceId: 3, Name: 'api.stripe.com', Type: 'remote' }] });
    const catalog = catalogOf([
      { name: 'web', arns: ['arn:aws:logs:us-east-1:123456789012:log-group:/ecs/web', 'arn:aws:ecs:us-east-1:123456789012:service/prod/web'], tags: { service: 'web', team: 'shop' } },
    ]);
    const { data } = await run(catalog);
    expect(xray.commandCalls(GetServiceGraphCommand)).toHaveLength(2);
    const window = xray.commandCalls(GetServiceGraphCommand)[0]?.args[0].input;
    expect(window?.EndTime).toEqual(now);
    expect(data.services).toEqual([
      { name: 'api.stripe.com', kind: 'external', dependsOn: [], calledBy: ['orders'] },
      { name: 'orders', kind: 'lambda', dependsOn: ['api.stripe.com'], calledBy: ['web'] },
      { name: 'web', kind: 'ecs', arn: 'arn:aws:ecs:us-east-1:123456789012:service/prod/web', awsService: 'ecs', tags: { service: 'web', team: 'shop' }, dependsOn: ['orders'], calledBy: [] },
    ]);
    const connected = await run(catalog, { service: 'ORDERS' });
    expect(connected.data.services.map((node: { name: string }) => node.name)).toEqual(['api.stripe.com', 'orders', 'web']);
    const unknown = await run(catalog, { service: 'billing' });
    expect(unknown.data).toEqual({ available: true, services: [], known: ['api.stripe.com', 'orders', 'web'] });
  });

  it('falls back to depends-on tags when X-Ray has no graph', async () => {
    xray.on(GetServiceGraphCommand).resolves({ Services: [] });
    const { data, summary } = await run(catalogOf([{ name: 'web', tags: { 'depends-on': 'orders, cart' } }, { name: 'orders' }, { name: 'cart' }]));
    expect(summary).toMatch(/from tags/);
    expect(data.services.find((node: { name: string }) => node.name === 'web').dependsOn).toEqual(['cart', 'orders']);
    expect(data.services.find((node: { name: string }) => node.name === 'cart').calledBy).toEqual(['web']);
  });

  it('reports a denied GetServiceGraph and answers from tags, or no data when there are none', async () => {
    xray.on(GetServiceGraphCommand).rejects(Object.assign(new Error('not authorized'), { name: 'AccessDeniedException' }));
    const fromTags = await run(catalogOf([{ name: 'web', tags: { 'depends-on': 'orders' } }, { name: 'orders' }]));
    expect(fromTags.summary).toMatch(/xray:GetServiceGraph/);
    expect(fromTags.data.services).toHaveLength(2);
    const none = await run(catalogOf([{ name: 'web' }]));
    expect(none.data).toEqual({ available: false, reason: expect.stringMatching(/xray:GetServiceGraph/) });
  });
});

const scenariosIn = (directory: string): Scenario[] =>
  readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => parseScenarioText(readFileSync(join(directory, file), 'utf8'), file));

describe('get_dependencies through the emulation matches the replay tool', () => {
  // The emulation answers at the SDK boundary: the real send must run.
  beforeAll(() => xray.restore());
  for (const scenario of [...scenariosIn(BUNDLED_SCENARIOS_DIR), ...scenariosIn(join(BUNDLED_SCENARIOS_DIR, 'holdout'))]) {
    it(scenario.id, async () => {
      const at = new Date(scenario.now);
      const recorded = new RecordedEnvironment(scenario.environment, at);
      const settings = awsToolSettings.parse({});
      const clients = new AwsClients('us-east-1', { kind: 'emulated', environment: recorded, emulations: scenarioEmulations });
      const aws = new Toolbox([getDependencies({ clients, catalog: taggedCatalog(clients, settings), settings })]);
      const replay = new Toolbox(scenarioTools(scenario.environment, at));
      const graphOf = async (toolbox: Toolbox, args: Record<string, unknown>) => {
        const outcome = await toolbox.execute({ id: 'c', name: 'get_dependencies', arguments: args }, { now: at });
        if (!outcome.ok) throw new Error(outcome.error);
        const data = outcome.data as { services?: { name: string; kind?: string; dependsOn: string[]; calledBy: string[] }[] };
        return (data.services ?? [])
          .map(({ name, kind, dependsOn, calledBy }) => ({ name, kind, dependsOn: [...dependsOn].sort(), calledBy: [...calledBy].sort() }))
          .sort((a, b) => a.name.localeCompare(b.name));
      };
      const first = scenario.environment.services?.[0]?.name;
      for (const args of [{}, ...(first ? [{ service: first }] : [])]) {
        expect(await graphOf(aws, args)).toEqual(await graphOf(replay, args));
      }
    });
  }
});
