import { afterEach, describe, expect, it } from 'vitest';
import { modelResponse } from '../../lib/model/port.ts';
import { AnthropicMessagesModel } from '../../lib/model/providers/anthropic-messages.ts';
import { ModelCallError } from '../../lib/model/providers/errors.ts';
import { anthropicReply, closedPortURL, startFakeAnthropic, type FakeModelServer, type Script } from '../support/fake-model-servers.ts';
import { finalJson, finalTurn, firstTurn } from './fixtures.ts';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const modelOn = async (script: Script, options: Partial<ConstructorParameters<typeof AnthropicMessagesModel>[0]> = {}) => {
  server = await startFakeAnthropic(script);
  return new AnthropicMessagesModel({ model: 'claude-sonnet-4-20250514', apiKey: 'sk-ant-test', baseURL: server.baseURL, ...options });
};

const failureOf = async (promise: Promise<unknown>): Promise<ModelCallError> => {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
};

describe('AnthropicMessagesModel over the Messages wire', () => {
  it('sends system, tools and tool_choice auto, and maps a tool_use turn with usage', async () => {
    const model = await modelOn(() =>
      anthropicReply.toolUse([{ id: 'toolu_01', name: 'list_alarms', input: { service: 'checkout' } }], {
        text: 'Let me look at the alarms.',
        usage: { input_tokens: 300, output_tokens: 40, cache_read_input_tokens: 900, cache_creation_input_tokens: 0 },
      }),
    );
    const response = await model.complete(firstTurn);

    expect(modelResponse.parse(response)).toEqual(response);
    expect(response).toEqual({
      text: 'Let me look at the alarms.',
      toolCalls: [{ id: 'toolu_01', name: 'list_alarms', arguments: { service: 'checkout' } }],
      usage: { inputTokens: 1200, outputTokens: 40, cachedTokens: 900 },
      stopReason: 'tool_use',
      model: 'claude-sonnet-4-20250514',
    });
    const body = server!.requests[0]!.body;
    expect(body.system).toBe('You are an SRE agent.');
    expect(body.max_tokens).toBe(4096);
    expect(body.tool_choice).toEqual({ type: 'auto' });
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Investigate: checkout errors spiked at 10:02.' }] }]);
    expect(body.tools).toEqual([
      {
        name: 'list_alarms',
        description: 'Lists CloudWatch alarms in ALARM state.',
        input_schema: { type: 'object', properties: { service: { type: 'string' } }, required: ['service'] },
      },
      {
        name: 'query_logs',
        description: 'Runs a Logs Insights query.',
        input_schema: { type: 'object', properties: { query: { type: 'string' }, minutes: { type: 'integer' } }, required: ['query'] },
      },
    ]);
  });

  it('puts consecutive tool results in one user message, and maps a final answer', async () => {
    const model = await modelOn(() => anthropicReply.text(finalJson, { usage: { input_tokens: 2500, output_tokens: 200 } }), { maxOutputTokens: 1024 });
    const response = await model.complete(finalTurn);

    expect(response).toEqual({ text: finalJson, toolCalls: [], usage: { inputTokens: 2500, outputTokens: 200, cachedTokens: 0 }, stopReason: 'end_turn', model: 'claude-sonnet-4-20250514' });
    const body = server!.requests[0]!.body;
    expect(body.max_tokens).toBe(1024);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Investigate: checkout errors spiked at 10:02.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking alarms and logs.' },
          { type: 'tool_use', id: 'call_1', name: 'list_alarms', input: { service: 'checkout' } },
          { type: 'tool_use', id: 'call_2', name: 'query_logs', input: { query: 'fields @message | filter level="ERROR"' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: finalTurn.messages[2]!.content },
          { type: 'tool_result', tool_use_id: 'call_2', content: finalTurn.messages[3]!.content },
          { type: 'text', text: 'Give your final answer as JSON now.' },
        ],
      },
    ]);
    // Tools withdrawn but tool blocks in the history: declared as stubs, with tool_choice none.
    expect(body.tool_choice).toEqual({ type: 'none' });
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(['list_alarms', 'query_logs']);
  });

  it('makes foreign tool-call ids fit Anthropic and keeps them paired', async () => {
    const model = await modelOn(() => anthropicReply.text('{}'));
    await model.complete({
      system: 's',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call:1/x', name: 'list_alarms', arguments: {} }] },
        { role: 'tool', toolCallId: 'call:1/x', name: 'list_alarms', content: '{"ref":"E1"}' },
      ],
      tools: firstTurn.tools,
      toolChoice: 'auto',
    });
    const messages = server!.requests[0]!.body.messages;
    expect(messages[1].content).toEqual([{ type: 'tool_use', id: 'call_1_x', name: 'list_alarms', input: {} }]);
    expect(messages[2].content).toEqual([{ type: 'tool_result', tool_use_id: 'call_1_x', content: '{"ref":"E1"}' }]);
  });

  it('asks a key function for the key before each request', async () => {
    let calls = 0;
    const model = await modelOn(() => anthropicReply.text('ok'), { apiKey: async () => `sk-ant-${++calls}` });
    await model.complete(firstTurn);
    await model.complete(firstTurn);
    expect(server!.requests.map((request) => request.headers.authorization ?? request.headers['x-api-key'])).toEqual(['Bearer sk-ant-1', 'Bearer sk-ant-2']);
  });

  it('sends a large max_tokens without the SDK refusing a non-streaming call', async () => {
    const model = await modelOn(() => anthropicReply.text('ok'), { maxOutputTokens: 64_000 });
    await model.complete(firstTurn);
    expect(server!.requests[0]!.body.max_tokens).toBe(64_000);
  });

  it('maps stop reasons', async () => {
    const model = await modelOn(() => anthropicReply.text('{"a', { stopReason: 'max_tokens' }));
    expect((await model.complete(firstTurn)).stopReason).toBe('max_tokens');
    server!.setScript(() => anthropicReply.text('done', { stopReason: 'stop_sequence' }));
    expect((await model.complete(firstTurn)).stopReason).toBe('end_turn');
  });

  describe('classifies failures', () => {
    it('429 with retry-after is a rate limit', async () => {
      const model = await modelOn(() => anthropicReply.rateLimited({ 'retry-after': '2' }));
      expect(await failureOf(model.complete(firstTurn))).toMatchObject({ kind: 'rate-limit', status: 429, retryAfterMs: 2000, provider: 'anthropic:claude-sonnet-4-20250514' });
    });

    it('529 overloaded_error is overloaded; 500 is a server error', async () => {
      const model = await modelOn(() => anthropicReply.overloaded());
      expect(await failureOf(model.complete(firstTurn))).toMatchObject({ kind: 'overloaded', status: 529 });
      server!.setScript(() => anthropicReply.serverError());
      expect(await failureOf(model.complete(firstTurn))).toMatchObject({ kind: 'server', status: 500 });
    });

    it('401 is an auth error naming ANTHROPIC_API_KEY', async () => {
      const model = await modelOn(() => anthropicReply.error(401, 'authentication_error', 'invalid x-api-key'));
      const error = await failureOf(model.complete(firstTurn));
      expect(error).toMatchObject({ kind: 'auth', setting: 'ANTHROPIC_API_KEY' });
      expect(error.message).toContain('ANTHROPIC_API_KEY');
    });

    it('400 "prompt is too long" is a context overflow; other 400s are invalid requests', async () => {
      const model = await modelOn(() => anthropicReply.error(400, 'invalid_request_error', 'prompt is too long: 215000 tokens > 200000 maximum'));
      expect(await failureOf(model.complete(firstTurn))).toMatchObject({ kind: 'context-overflow', status: 400 });
      server!.setScript(() => anthropicReply.error(400, 'invalid_request_error', 'messages.1.content.0.tool_use.input: Input should be a valid dictionary'));
      expect(await failureOf(model.complete(firstTurn))).toMatchObject({ kind: 'invalid-request' });
    });

    it('a refused connection is a server error', async () => {
      const model = new AnthropicMessagesModel({ model: 'claude-sonnet-4-20250514', apiKey: 'k', baseURL: await closedPortURL() });
      expect(await failureOf(model.complete(firstTurn))).toMatchObject({ kind: 'server' });
    });
  });
});
