import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { taggedCatalog } from '../../../integrations/aws/catalog/tagged-catalog.ts';
import { AwsClients } from '../../../integrations/aws/clients.ts';
import { scenarioEmulations } from '../../../integrations/aws/emulation/index.ts';
import { queryLogs } from '../../../integrations/aws/logs/query-logs.ts';
import { awsToolSettings } from '../../../integrations/aws/settings.ts';
import { scenarioTools } from '../../../integrations/scenario/index.ts';
import { RecordedEnvironment } from '../../../integrations/scenario/recorded-environment.ts';
import type { Scenario } from '../../../lib/domain/scenario.ts';
import { Toolbox } from '../../../lib/tools/toolbox.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../../local/scenario-files.ts';

const fast = { insights: { pollIntervalsMs: [1] }, limiter: { concurrency: 7, spacingMs: 0 } };

const scenariosIn = (directory: string): Scenario[] =>
  readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => parseScenarioText(readFileSync(join(directory, file), 'utf8'), file));

const scenarios = [...scenariosIn(BUNDLED_SCENARIOS_DIR), ...scenariosIn(join(BUNDLED_SCENARIOS_DIR, 'holdout'))];

const both = (scenario: Scenario) => {
  const now = new Date(scenario.now);
  const recorded = new RecordedEnvironment(scenario.environment, now);
  const settings = awsToolSettings.parse({});
  const clients = new AwsClients('us-east-1', { kind: 'emulated', environment: recorded, emulations: scenarioEmulations });
  const aws = new Toolbox([queryLogs({ clients, catalog: taggedCatalog(clients, settings), settings }, fast)]);
  const replay = new Toolbox(scenarioTools(scenario.environment, now));
  const run = async (toolbox: Toolbox, args: Record<string, unknown>) => {
    const outcome = await toolbox.execute({ id: 'c', name: 'query_logs', arguments: args }, { now });
    if (!outcome.ok) throw new Error(`${scenario.id}: ${outcome.error}`);
    return outcome.data as Record<string, unknown>;
  };
  return { aws: (args: Record<string, unknown>) => run(aws, args), replay: (args: Record<string, unknown>) => run(replay, args) };
};

interface Result {
  available: boolean;
  matched?: number;
  lines?: { timestamp: string; service: string; level: string; message: string; fields?: Record<string, unknown> }[];
  templates?: { template: string; count: number; firstSeen: string; lastSeen: string; levels?: Record<string, number>; services?: string[] }[];
  incomplete?: unknown;
}

/** The content both tools must agree on: times as instants, everything else as is. */
const comparable = (result: Result) => ({
  available: result.available,
  matched: result.matched,
  lines: result.lines?.map((line) => ({ ...line, timestamp: Date.parse(line.timestamp), fields: line.fields && Object.keys(line.fields).length > 0 ? line.fields : undefined })),
  templates: result.templates?.map((template) => ({ ...template, example: undefined, firstSeen: Date.parse(template.firstSeen), lastSeen: Date.parse(template.lastSeen) })),
  incomplete: result.incomplete,
});

describe('query_logs through the emulation matches the replay tool on every bundled scenario', () => {
  for (const scenario of scenarios) {
    it(scenario.id, async () => {
      const { aws, replay } = both(scenario);
      const services = [...new Set((scenario.environment.logs ?? []).map((line) => line.service))];
      const word = (scenario.environment.logs ?? []).find((line) => line.level.toUpperCase().startsWith('ERR'))?.message.split(' ')[0];
      const inputs: Record<string, unknown>[] = [
        {},
        { minLevel: 'WARN', sinceMinutes: 360, limit: 200 },
        { minLevel: 'INFO', sinceMinutes: 60 },
        ...(services[0] ? [{ service: services[0].toUpperCase(), minLevel: 'ERROR' }] : []),
        ...(word ? [{ contains: word, limit: 5 }] : []),
      ];
      for (const input of inputs) {
        const [fromAws, fromReplay] = await Promise.all([aws(input), replay(input)]);
        expect(comparable(fromAws as unknown as Result), JSON.stringify(input)).toEqual(comparable(fromReplay as unknown as Result));
      }
    });
  }
});

describe('query_logs through the emulation on a scenario larger than one Insights result', () => {
  it('splits on the emulated 10,000-row cap and still matches the replay tool', async () => {
    const now = new Date('2026-04-06T04:10:00Z');
    const lines = Array.from({ length: 23_000 }, (_, index) => ({
      service: index % 3 === 0 ? 'orders' : 'cart',
      timestamp: new Date(now.getTime() - (23_000 - index) * 300).toISOString(),
      level: index % 1000 === 0 ? 'ERROR' : 'INFO',
      message: index % 1000 === 0 ? `payment declined for order ${index}` : `GET /cart/${index} 200 in ${index % 50}ms`,
    }));
    const scenario = {
      format: 'sre-scenario/v1',
      id: 'large-log-volume',
      title: 'large',
      now: now.toISOString(),
      trigger: { question: { text: 'anything wrong?' } },
      environment: { services: [{ name: 'orders', kind: 'ecs' }, { name: 'cart', kind: 'lambda' }], logs: lines },
      truth: { incident: false },
    } as Scenario;
    const { aws, replay } = both(scenario);
    for (const input of [{ limit: 10 }, { service: 'orders', limit: 4 }, { minLevel: 'ERROR' }]) {
      const [fromAws, fromReplay] = await Promise.all([aws(input), replay(input)]);
      expect(comparable(fromAws as unknown as Result), JSON.stringify(input)).toEqual(comparable(fromReplay as unknown as Result));
    }
    expect((await aws({})).matched).toBe(23_000);
  });
});
