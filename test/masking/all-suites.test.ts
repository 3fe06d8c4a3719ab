import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scenario as scenarioSchema, type Scenario } from '../../lib/domain/scenario.ts';
import { Masker } from '../../lib/masking/index.ts';
import type { ChatMessage, ModelRequest } from '../../lib/model/port.ts';
import { scenarioTools } from '../../integrations/scenario/index.ts';
import { BUNDLED_SCENARIOS_DIR } from '../../local/scenario-files.ts';
import { rawIdentifiers } from '../support/raw-identifiers.ts';

/**
 * Every scenario of every suite (every `.json` under scenarios/, however deep, so a new suite is
 * picked up): what its tools return, masked as the workflow masks it, must pass the leak check
 * with nothing left to block. Each scenario's requests hold each tool's answer for the whole
 * environment and for every service, the trigger, and the raw environment itself as one more
 * tool result, so no field is out of the masker's sight.
 */
const scenarioFiles = (readdirSync(BUNDLED_SCENARIOS_DIR, { recursive: true }) as string[])
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => join(BUNDLED_SCENARIOS_DIR, name));

const serviceNames = (scenario: Scenario): string[] =>
  [...new Set([...(scenario.environment.services ?? []).map((service) => service.name), ...(scenario.environment.logs ?? []).map((line) => line.service)])].sort();

/** The model requests of a scenario: one per tool input, each a short conversation, as call-model builds them. */
const requestsOf = async (scenario: Scenario, masker: Masker): Promise<ModelRequest[]> => {
  const now = new Date(scenario.now);
  const tools = scenarioTools(scenario.environment, now);
  const opening: ChatMessage = { role: 'user', content: `Investigate this trigger:\n${JSON.stringify(scenario.trigger, null, 2)}` };
  const toolSpecs = tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown> }));
  const requests: ModelRequest[] = [];
  const exchange = (name: string, args: Record<string, unknown>, content: string): ModelRequest => ({
    system: 'You are an SRE agent.',
    messages: [
      opening,
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name, arguments: args }] },
      { role: 'tool', toolCallId: 'call_1', name, content },
    ],
    tools: toolSpecs,
    toolChoice: 'auto',
  });
  for (const tool of tools) {
    for (const args of [{}, ...serviceNames(scenario).map((service) => ({ service }))]) {
      const input = tool.input.safeParse(args);
      if (!input.success) continue;
      const result = await tool.run(input.data, { now });
      // Stored masked, as run-tools stores it, then sent as the result's JSON text.
      const stored = masker.maskJson({ ref: 'E1', summary: result.summary, data: result.data });
      requests.push(exchange(tool.name, args, JSON.stringify(stored)));
    }
  }
  requests.push(exchange('recorded_environment', {}, JSON.stringify(scenario.environment)));
  return requests;
};

describe('masking over every scenario of every suite', () => {
  it('finds the scenario files of every suite', () => {
    expect(scenarioFiles.length).toBeGreaterThanOrEqual(20);
  });

  it.each(scenarioFiles.map((file) => [relative(BUNDLED_SCENARIOS_DIR, file), file] as const))('%s: nothing left to block', async (_, file) => {
    const scenario = scenarioSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    const masker = new Masker();
    const raw = [...rawIdentifiers(scenario)];
    for (const request of await requestsOf(scenario, masker)) {
      const { masked, leaks } = masker.maskJsonForModel(request);
      expect(leaks, `${request.messages[1]?.role === 'assistant' ? JSON.stringify(request.messages[1].toolCalls[0]) : ''}`).toEqual([]);
      const sent = JSON.stringify(masked);
      expect(raw.filter(([value]) => sent.includes(value))).toEqual([]);
    }
  });
});
