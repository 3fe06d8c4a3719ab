import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioReplaySource } from '../../integrations/scenario/replay-source.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import { investigationSettingsFromEnv } from '../../lib/workflow/settings.ts';
import { runWorkflowLocally } from '../../local/run-workflow.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { freshStore } from '../support/dynamodb.ts';
import { ScriptedModel, finalAnswer } from '../support/scripted-model.ts';
import { expectCompleteTranscript } from '../support/transcript-shape.ts';

const scenario = parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, 'bad-deploy-cascade.json'), 'utf8'), 'bad-deploy-cascade.json');

const manyCalls = (count: number) => ({
  toolCalls: Array.from({ length: count }, (_, index) => ({ id: `call_${index}`, name: 'query_logs', arguments: { sinceMinutes: index + 1, limit: 50 } })),
});

const investigate = async (investigationId: string, calls: number, maxToolCallsPerTurn?: number) => {
  const { store } = await freshStore();
  await store.putSnapshot('env', { now: scenario.now, environment: scenario.environment });
  const model = new ScriptedModel((_, turn) => (turn === 1 ? manyCalls(calls) : { text: finalAnswer('inventory-api') }));
  const dependencies = {
    store,
    model,
    tools: new ScenarioReplaySource(store),
    notifier: new RecordingNotifier(),
    ...(maxToolCallsPerTurn === undefined ? {} : { maxToolCallsPerTurn }),
  };
  const run = await runWorkflowLocally({
    dependencies,
    input: { trigger: scenario.trigger, investigationId, toolSource: { kind: 'scenario-replay', snapshot: 'env' } },
  });
  return { run, store, model, events: await store.events(investigationId), investigation: await store.get(investigationId) };
};

describe('tool calls per turn', () => {
  it('commits a turn of 200 tool calls, running the first 16 and answering the rest so the model can ask again', async () => {
    const { run, events, investigation, model } = await investigate('two-hundred', 200);
    expect(run.status).toBe('SUCCEEDED');
    expectCompleteTranscript(events);
    const results = events.filter((event) => event.type === 'tool.result').map((event) => event.payload as { error?: string });
    expect(results).toHaveLength(200);
    expect(results.slice(0, 16).every((result) => result.error === undefined)).toBe(true);
    expect(results.slice(16).every((result) => result.error === 'not run: over the per-turn cap of 16 tool calls; ask again in a later turn')).toBe(true);
    expect(investigation?.usage.toolCalls).toBe(16);
    expect(model.requests[1]?.messages.filter((message) => message.role === 'tool')).toHaveLength(200);
  });

  it('commits a turn of 100 calls whose results take megabytes, when the cap allows 100', async () => {
    const { run, events, investigation } = await investigate('one-hundred', 100, 100);
    expect(run.status).toBe('SUCCEEDED');
    expect(investigation?.usage.toolCalls).toBe(100);
    const resultBytes = events.filter((event) => event.type === 'tool.result').reduce((total, event) => total + JSON.stringify(event.payload).length, 0);
    expect(resultBytes).toBeGreaterThan(2_000_000);
  });

  it('reads the cap from SRE_AGENT_MAX_TOOL_CALLS_PER_TURN and names the variable when it is wrong', () => {
    expect(investigationSettingsFromEnv({ SRE_AGENT_MAX_TOOL_CALLS_PER_TURN: '8' })).toEqual({ maxToolCallsPerTurn: 8 });
    expect(() => investigationSettingsFromEnv({ SRE_AGENT_MAX_TOOL_CALLS_PER_TURN: '0' })).toThrow(/SRE_AGENT_MAX_TOOL_CALLS_PER_TURN must be a whole number from 1 to 100, got "0"/);
  });
});
