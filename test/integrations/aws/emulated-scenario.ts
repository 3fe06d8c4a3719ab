import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scenarioTools } from '../../../integrations/scenario/index.ts';
import { RecordedEnvironment } from '../../../integrations/scenario/recorded-environment.ts';
import type { ServiceCatalog, ServiceResources } from '../../../integrations/aws/catalog.ts';
import { AwsClients } from '../../../integrations/aws/clients.ts';
import { scenarioEmulations } from '../../../integrations/aws/emulation/index.ts';
import { emulatedMetrics } from '../../../integrations/aws/emulation/cloudwatch.ts';
import { dimensionsOf, serviceArnOf } from '../../../integrations/aws/emulation/service-identity.ts';
import { awsToolSettings } from '../../../integrations/aws/settings.ts';
import { taggedCatalog } from '../../../integrations/aws/catalog/tagged-catalog.ts';
import type { AwsToolDependencies, AwsToolFactory } from '../../../integrations/aws/tools.ts';
import type { Scenario } from '../../../lib/domain/scenario.ts';
import { Toolbox } from '../../../lib/tools/toolbox.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../../local/scenario-files.ts';

/** Every bundled scenario (the top-level suite). */
export const bundledScenarios = (): Scenario[] =>
  readdirSync(BUNDLED_SCENARIOS_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, file), 'utf8'), file));

const segmentsOf = (identifier: string) => new Set(identifier.toLowerCase().split(/[/:|]/));

/**
 * A small catalog over a recorded environment, standing in for the tagged catalog in these tests:
 * each service's ARN and the dimensions its recorded metrics carry.
 */
export const environmentCatalog = (recorded: RecordedEnvironment): ServiceCatalog => {
  const metrics = emulatedMetrics(recorded);
  const services: ServiceResources[] = recorded.services.map((service) => {
    const arn = serviceArnOf(recorded, service);
    const recordedDimensions = metrics.filter((metric) => metric.service === service.name).map((metric) => metric.dimensions);
    const unique = new Map([dimensionsOf(recorded, service.name), ...recordedDimensions].map((dimensions) => [JSON.stringify(dimensions), dimensions]));
    return {
      name: service.name,
      ...(service.kind ? { kind: service.kind } : {}),
      arns: arn ? [arn] : [],
      tags: service.tags ?? {},
      logGroups: [],
      dimensions: [...unique.values()],
    };
  });
  const namedIn = (identifier: string) => services.find((service) => segmentsOf(identifier).has(service.name.toLowerCase()))?.name;
  return {
    services: async () => services,
    serviceOfArn: async (arn) => services.find((service) => service.arns.includes(arn))?.name ?? namedIn(arn),
    serviceOfDimensions: async (dimensions) => {
      let best: { name: string; keys: number } | undefined;
      for (const service of services) {
        for (const owned of service.dimensions) {
          const keys = Object.keys(owned);
          if (keys.every((key) => dimensions[key] === owned[key]) && keys.length > (best?.keys ?? 0)) best = { name: service.name, keys: keys.length };
        }
      }
      return best?.name ?? Object.values(dimensions).map(namedIn).find(Boolean);
    },
    serviceOfLogGroup: async (logGroup) => namedIn(logGroup),
  };
};

/**
 * The AWS tool and the replay tool of one contract, over the same scenario: the AWS one answered by the emulation,
 * with the tagged catalog over the emulated Tagging API, or (`recorded`) the stand-in above, which also knows the
 * services a scenario gives no ARN (kinds `other`, `external`, `ec2`) and every recorded metric's dimensions.
 */
export const emulatedAndReplayed = (scenario: Scenario, factory: AwsToolFactory, catalogKind: 'tagged' | 'recorded' = 'tagged') => {
  const now = new Date(scenario.now);
  const recorded = new RecordedEnvironment(scenario.environment, now);
  const clients = new AwsClients(scenario.environment.region ?? 'us-east-1', { kind: 'emulated', environment: recorded, emulations: scenarioEmulations });
  const settings = awsToolSettings.parse({});
  const catalog = catalogKind === 'tagged' ? taggedCatalog(clients, settings) : environmentCatalog(recorded);
  const dependencies: AwsToolDependencies = { clients, catalog, settings, paced: false };
  const aws = new Toolbox([factory(dependencies)]);
  const replay = new Toolbox(scenarioTools(scenario.environment, now));
  const run = async (toolbox: Toolbox, name: string, args: Record<string, unknown>) => {
    const outcome = await toolbox.execute({ id: 'c', name, arguments: args }, { now });
    if (!outcome.ok) throw new Error(`${scenario.id}: ${outcome.error}`);
    return outcome.data as Record<string, unknown>;
  };
  return {
    now,
    aws: (name: string, args: Record<string, unknown> = {}) => run(aws, name, args),
    replay: (name: string, args: Record<string, unknown> = {}) => run(replay, name, args),
  };
};
