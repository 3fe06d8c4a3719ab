import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelPort } from '../../lib/model/port.ts';
import { AnthropicMessagesModel, BedrockConverseModel, OpenAIChatModel } from '../../lib/model/providers/index.ts';
import { ResilientModel } from '../../lib/model/resilience/index.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { evaluateBaseline } from '../../local/baseline.ts';
import { investigateScenario } from '../../local/session.ts';
import { freshStore } from '../support/dynamodb.ts';
import {
  anthropicReply,
  closedPortURL,
  openaiReply,
  seededRandom,
  startFakeAnthropic,
  startFakeOpenAI,
  type FakeModelServer,
  type FakeReply,
} from '../support/fake-model-servers.ts';
import { expectCompleteTranscript } from '../support/transcript-shape.ts';

const scenario = parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, 'bad-deploy-cascade.json'), 'utf8'), 'bad-deploy-cascade.json');
const accountId = scenario.environment.accountId ?? '';

const answer = JSON.stringify({
  incident: true,
  rootCause: { service: 'inventory-api', category: 'deploy', summary: 'inventory-api v2.14.0 broke reservations' },
  confidence: 0.7,
  evidence: [{ ref: 'E1', summary: 'alarms' }],
  remediation: [{ action: 'rollback', target: 'inventory-api', detail: 'previous task definition' }],
});

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A scripted investigator: looks at the alarms and the service map, then answers. */
const investigatorTurns = (toolTurn: FakeReply, answerTurn: FakeReply) => (request: { body: any }) =>
  /\bE1\b/.test(JSON.stringify(request.body)) ? answerTurn : toolTurn;

const investigate = async (model: ModelPort) => {
  const { store } = await freshStore();
  const run = await investigateScenario({ store, notifier: new RecordingNotifier() }, scenario, model);
  return { run, events: await store.events(run.investigationId) };
};

const expectValidFinding = (run: Awaited<ReturnType<typeof investigate>>['run']) => {
  expect(run.execution.status).toBe('SUCCEEDED');
  const { finding, usage } = run.investigation;
  expect(finding?.incomplete, JSON.stringify(finding?.incomplete)).toBeUndefined();
  expect(finding?.rootCause.service).toBe('inventory-api');
  expect(finding?.remediation[0]).toMatchObject({ action: 'rollback', target: 'inventory-api', requiresApproval: true });
  expect(usage.modelCalls).toBeGreaterThanOrEqual(2);
  expect(usage.inputTokens).toBeGreaterThan(0);
  expect(usage.costUsd).toBeGreaterThan(0);
};

describe('a full local investigation through each hosted-model adapter', () => {
  it('OpenAI Chat Completions', async () => {
    const server = await startFakeOpenAI(
      investigatorTurns(
        openaiReply.toolCalls([{ id: 'call_1', name: 'list_alarms', arguments: {} }, { id: 'call_2', name: 'get_dependencies', arguments: {} }]),
        openaiReply.text(answer),
      ),
    );
    servers.push(server);
    const { run, events } = await investigate(new OpenAIChatModel({ model: 'gpt-4o', apiKey: 'sk-test', baseURL: server.baseURL }));
    expectValidFinding(run);
    expectCompleteTranscript(events);
    const wire = JSON.stringify(server.requests.map((request) => request.body));
    expect(wire).toContain('"role":"tool"');
    expect(wire).not.toContain(accountId);
  });

  it('Anthropic Messages', async () => {
    const server = await startFakeAnthropic(
      investigatorTurns(anthropicReply.toolUse([{ id: 'toolu_1', name: 'list_alarms', input: {} }]), anthropicReply.text(answer)),
    );
    servers.push(server);
    const { run } = await investigate(new AnthropicMessagesModel({ model: 'claude-sonnet-4-20250514', apiKey: 'sk-ant-test', baseURL: server.baseURL }));
    expectValidFinding(run);
    const wire = JSON.stringify(server.requests.map((request) => request.body));
    expect(wire).toContain('"tool_result"');
    expect(wire).not.toContain(accountId);
  });

  it('Amazon Bedrock Converse', async () => {
    const bedrock = mockClient(BedrockRuntimeClient);
    const usage = { inputTokens: 120, outputTokens: 30, totalTokens: 150 };
    bedrock
      .on(ConverseCommand)
      .callsFake((input: { messages?: unknown[] }) =>
        /\bE1\b/.test(JSON.stringify(input.messages))
          ? { output: { message: { role: 'assistant', content: [{ text: answer }] } }, stopReason: 'end_turn', usage }
          : { output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: 'tu_1', name: 'list_alarms', input: {} } }] } }, stopReason: 'tool_use', usage },
      );
    const model = new BedrockConverseModel({ model: 'anthropic.claude-3-5-sonnet-20240620-v1:0', client: new BedrockRuntimeClient({ region: 'us-east-1' }) });
    const { run } = await investigate(model);
    expectValidFinding(run);
    expect(JSON.stringify(bedrock.commandCalls(ConverseCommand).map((call) => call.args[0].input))).not.toContain(accountId);
    bedrock.restore();
  });

  it('completes with 30% of calls failing with 429 or 500', async () => {
    const random = seededRandom(42);
    const server = await startFakeOpenAI((request) => {
      const roll = random();
      if (roll < 0.15) return openaiReply.rateLimited();
      if (roll < 0.3) return openaiReply.serverError();
      // Five turns, one tool each, then the answer: enough calls for the failures to bite.
      const seen = ['E1', 'E2', 'E3', 'E4'].filter((ref) => new RegExp(`\\b${ref}\\b`).test(JSON.stringify(request.body))).length;
      const tools = ['list_alarms', 'get_dependencies', 'list_changes', 'query_logs'];
      return seen < tools.length ? openaiReply.toolCalls([{ id: `call_${seen + 1}`, name: tools[seen]!, arguments: {} }]) : openaiReply.text(answer);
    });
    servers.push(server);
    const adapter = new OpenAIChatModel({ model: 'gpt-4o', apiKey: 'sk-test', baseURL: server.baseURL });
    const { run } = await investigate(new ResilientModel([adapter], { sleep: async () => undefined, random: seededRandom(7), maxAttempts: 6 }));
    expectValidFinding(run);
    expect(server.requests.length).toBeGreaterThan(run.investigation.usage.modelCalls);
  });

  it('falls back to the secondary when the primary is dead', async () => {
    const secondary = await startFakeAnthropic(
      investigatorTurns(anthropicReply.toolUse([{ id: 'toolu_1', name: 'list_alarms', input: {} }]), anthropicReply.text(answer)),
    );
    servers.push(secondary);
    const primary = new OpenAIChatModel({ model: 'gpt-4o', apiKey: 'sk-test', baseURL: await closedPortURL('/v1') });
    const fallback = new AnthropicMessagesModel({ model: 'claude-sonnet-4-20250514', apiKey: 'sk-ant-test', baseURL: secondary.baseURL });
    const { run } = await investigate(new ResilientModel([primary, fallback], { sleep: async () => undefined, maxAttempts: 2 }));
    expectValidFinding(run);
    expect(secondary.requests.length).toBe(run.investigation.usage.modelCalls);
  });

  it('grades the bare-model baseline: one call with all the data and no tools', async () => {
    const server = await startFakeOpenAI(() => openaiReply.text(answer));
    servers.push(server);
    const result = await evaluateBaseline(scenario, new OpenAIChatModel({ model: 'gpt-4o', apiKey: 'sk-test', baseURL: server.baseURL }));
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0]!.body as { tools?: unknown[]; messages: { content: string }[] };
    expect(body.tools ?? []).toEqual([]);
    expect(JSON.stringify(body.messages)).toContain('inventory-api');
    expect(JSON.stringify(body.messages)).not.toContain(accountId);
    expect(result).toMatchObject({ modelCalls: 1, toolCalls: 0 });
    expect(result.score).toBeGreaterThanOrEqual(0.6);
    expect(result.costUsd).toBeGreaterThan(0);
  });
});
