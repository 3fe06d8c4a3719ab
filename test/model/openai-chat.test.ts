import { afterEach, describe, expect, it } from 'vitest';
import { modelResponse } from '../../lib/model/port.ts';
import { OpenAIChatModel } from '../../lib/model/providers/openai-chat.ts';
import { ModelCallError } from '../../lib/model/providers/errors.ts';
import { closedPortURL, openaiReply, startFakeOpenAI, type FakeModelServer, type Script } from '../support/fake-model-servers.ts';
import { finalJson, finalTurn, firstTurn, tools } from './fixtures.ts';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const modelOn = async (script: Script, options: Partial<ConstructorParameters<typeof OpenAIChatModel>[0]> = {}) => {
  server = await startFakeOpenAI(script);
  return new OpenAIChatModel({ model: 'gpt-4o', apiKey: 'sk-test', baseURL: server.baseURL, ...options });
};

const failureOf = async (promise: Promise<unknown>): Promise<ModelCallError> => {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
};

describe('OpenAIChatModel over the Chat Completions wire', () => {
  it('sends tools and tool_choice auto, and maps a tool-call turn with usage', async () => {
    const model = await modelOn(() =>
      openaiReply.toolCalls(
        [
          { id: 'call_a', name: 'list_alarms', arguments: { service: 'checkout' } },
          { id: 'call_b', name: 'query_logs', arguments: '{"query": "fields @message' },
        ],
        { usage: { prompt_tokens: 1200, completion_tokens: 80, cached_tokens: 1024 } },
      ),
    );
    const response = await model.complete(firstTurn);

    expect(modelResponse.parse(response)).toEqual(response);
    expect(response.stopReason).toBe('tool_use');
    expect(response.toolCalls).toEqual([
      { id: 'call_a', name: 'list_alarms', arguments: { service: 'checkout' } },
      { id: 'call_b', name: 'query_logs', arguments: { _raw: '{"query": "fields @message' } },
    ]);
    expect(response.usage).toEqual({ inputTokens: 1200, outputTokens: 80, cachedTokens: 1024 });
    expect(response.model).toBe('gpt-4o-2024-08-06');

    const [request] = server!.requests;
    expect(request!.headers.authorization).toBe('Bearer sk-test');
    expect(request!.body.model).toBe('gpt-4o');
    expect(request!.body.tool_choice).toBe('auto');
    expect(request!.body.messages).toEqual([
      { role: 'system', content: 'You are an SRE agent.' },
      { role: 'user', content: 'Investigate: checkout errors spiked at 10:02.' },
    ]);
    expect(request!.body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'list_alarms',
          description: 'Lists CloudWatch alarms in ALARM state.',
          parameters: { type: 'object', properties: { service: { type: 'string' } }, required: ['service'] },
        },
      },
      {
        type: 'function',
        function: {
          name: 'query_logs',
          description: 'Runs a Logs Insights query.',
          parameters: { type: 'object', properties: { query: { type: 'string' }, minutes: { type: 'integer' } }, required: ['query'] },
        },
      },
    ]);
  });

  it('sends assistant tool_calls paired with role:tool messages, and maps a final answer', async () => {
    const model = await modelOn(() => openaiReply.text(finalJson, { usage: { prompt_tokens: 3000, completion_tokens: 150 } }));
    const response = await model.complete(finalTurn);

    expect(response).toEqual({
      text: finalJson,
      toolCalls: [],
      usage: { inputTokens: 3000, outputTokens: 150, cachedTokens: 0 },
      stopReason: 'end_turn',
      model: 'gpt-4o-2024-08-06',
    });
    const body = server!.requests[0]!.body;
    expect(body.messages.map((message: { role: string }) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(body.messages[2]).toEqual({
      role: 'assistant',
      content: 'Checking alarms and logs.',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'list_alarms', arguments: '{"service":"checkout"}' } },
        { id: 'call_2', type: 'function', function: { name: 'query_logs', arguments: '{"query":"fields @message | filter level=\\"ERROR\\""}' } },
      ],
    });
    expect(body.messages[3]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: finalTurn.messages[2]!.content });
    expect(body.messages[4]).toMatchObject({ role: 'tool', tool_call_id: 'call_2' });
    // Tools withdrawn, but the history holds tool calls: stubs are declared and tool_choice is none.
    expect(body.tool_choice).toBe('none');
    expect(body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(['list_alarms', 'query_logs']);
  });

  it('omits tools and tool_choice when there are none to declare, and caps output tokens when asked', async () => {
    const model = await modelOn(() => openaiReply.text('hello'), { maxOutputTokens: 512 });
    await model.complete({ system: 's', messages: [{ role: 'user', content: 'hi' }], tools: [], toolChoice: 'none' });
    const body = server!.requests[0]!.body;
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
    expect(body.max_tokens).toBe(512);
  });

  it('stubs a missing tool result so every tool call stays paired', async () => {
    const model = await modelOn(() => openaiReply.text('{}'));
    await model.complete({
      system: 's',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'list_alarms', arguments: {} }] },
        { role: 'user', content: 'final answer please' },
      ],
      tools,
      toolChoice: 'none',
    });
    const messages = server!.requests[0]!.body.messages;
    expect(messages[2]).toMatchObject({ role: 'assistant', content: null });
    expect(messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'c1' });
    expect(JSON.parse(messages[3].content)).toHaveProperty('error');
    expect(messages[4]).toEqual({ role: 'user', content: 'final answer please' });
  });

  it('maps finish_reason length to max_tokens and drops tool calls when tools were refused', async () => {
    const model = await modelOn(() => openaiReply.text('{"incid', { finishReason: 'length' }));
    expect((await model.complete(firstTurn)).stopReason).toBe('max_tokens');
    server!.setScript(() => openaiReply.toolCalls([{ id: 'x', name: 'list_alarms', arguments: {} }], { finishReason: 'stop' }));
    expect((await model.complete(firstTurn)).stopReason).toBe('tool_use');
    const refused = await model.complete({ ...firstTurn, toolChoice: 'none' });
    expect(refused.toolCalls).toEqual([]);
    expect(refused.stopReason).toBe('end_turn');
  });

  describe('classifies failures', () => {
    it('429 with retry-after-ms is a rate limit with the wait', async () => {
      const model = await modelOn(() => openaiReply.rateLimited({ 'retry-after-ms': '1500' }));
      const error = await failureOf(model.complete(firstTurn));
      expect(error).toMatchObject({ kind: 'rate-limit', status: 429, retryAfterMs: 1500, provider: 'openai:gpt-4o' });
    });

    it('429 with retry-after seconds', async () => {
      const model = await modelOn(() => openaiReply.rateLimited({ 'retry-after': '3' }));
      expect(await failureOf(model.complete(firstTurn))).toMatchObject({ kind: 'rate-limit', retryAfterMs: 3000 });
    });

    it('500 and 503 are server errors', async () => {
      const model = await modelOn(() => openaiReply.serverError());
      expect(await failureOf(model.complete(firstTurn))).toMatchObject({ kind: 'server', status: 500 });
    });

    it('401 and 403 are auth errors naming the setting', async () => {
      const model = await modelOn(() => openaiReply.error(401, 'Incorrect API key provided', { type: 'invalid_request_error', code: 'invalid_api_key' }));
      const error = await failureOf(model.complete(firstTurn));
      expect(error).toMatchObject({ kind: 'auth', status: 401, setting: 'OPENAI_API_KEY' });
      expect(error.message).toContain('OPENAI_API_KEY');
      server!.setScript(() => openaiReply.error(403, 'Project does not have access to model', { type: 'invalid_request_error' }));
      expect(await failureOf(model.complete(firstTurn))).toMatchObject({ kind: 'auth', status: 403 });
    });

    it('context_length_exceeded is a context overflow; other 400s are invalid requests', async () => {
      const model = await modelOn(() =>
        openaiReply.error(400, "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.", { code: 'context_length_exceeded' }),
      );
      expect(await failureOf(model.complete(firstTurn))).toMatchObject({ kind: 'context-overflow', code: 'context_length_exceeded' });
      server!.setScript(() => openaiReply.error(400, "Invalid value for 'tool_choice'", { code: null }));
      expect(await failureOf(model.complete(firstTurn))).toMatchObject({ kind: 'invalid-request', status: 400 });
    });

    it('a vLLM-style context message without a code is still a context overflow', async () => {
      const model = await modelOn(() => openaiReply.error(400, "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens"));
      expect(await failureOf(model.complete(firstTurn))).toMatchObject({ kind: 'context-overflow' });
    });

    it('a refused connection is a server error', async () => {
      const model = new OpenAIChatModel({ model: 'gpt-4o', apiKey: 'sk-test', baseURL: await closedPortURL('/v1') });
      expect(await failureOf(model.complete(firstTurn))).toMatchObject({ kind: 'server' });
    });

    it('an abort is a timeout', async () => {
      const model = await modelOn(() => ({ hang: true }));
      const controller = new AbortController();
      const pending = model.complete(firstTurn, { signal: controller.signal });
      setTimeout(() => controller.abort(), 20);
      expect(await failureOf(pending)).toMatchObject({ kind: 'timeout' });
    });
  });
});
