import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage, ModelPort, ModelRequest } from '../../lib/model/port.ts';
import { AnthropicMessagesModel } from '../../lib/model/providers/anthropic-messages.ts';
import { ModelCallError } from '../../lib/model/providers/errors.ts';
import { OpenAIChatModel } from '../../lib/model/providers/openai-chat.ts';
import { backoffDelay, ModelChainError, ResilientModel, type AttemptEvent } from '../../lib/model/resilience/resilient-model.ts';
import { evictOldestToolResults, isEvicted } from '../../lib/model/resilience/shrink.ts';
import {
  anthropicReply,
  closedPortURL,
  inSequence,
  openaiReply,
  seededRandom,
  startFakeAnthropic,
  startFakeOpenAI,
  type FakeModelServer,
  type Script,
} from '../support/fake-model-servers.ts';
import { finalJson, finalTurn, firstTurn, okResponse } from './fixtures.ts';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const openaiOn = async (script: Script) => {
  const server = await startFakeOpenAI(script);
  servers.push(server);
  return { server, model: new OpenAIChatModel({ model: 'gpt-4o', apiKey: 'sk-test', baseURL: server.baseURL }) };
};

const anthropicOn = async (script: Script) => {
  const server = await startFakeAnthropic(script);
  servers.push(server);
  return { server, model: new AnthropicMessagesModel({ model: 'claude-3-5-haiku-latest', apiKey: 'sk-ant-test', baseURL: server.baseURL }) };
};

/** Test hooks: sleeping is recorded, never real. */
const hooks = (seed = 7) => {
  const sleeps: number[] = [];
  const events: AttemptEvent[] = [];
  return {
    sleeps,
    events,
    options: {
      sleep: async (ms: number) => {
        sleeps.push(ms);
      },
      random: seededRandom(seed),
      onAttempt: (event: AttemptEvent) => events.push(event),
    },
  };
};

const rejectionOf = async (promise: Promise<unknown>): Promise<ModelCallError> => {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
};

describe('ResilientModel over real SDK clients and local servers', () => {
  it('completes every call when 30% of requests fail with 429 or 500 (seeded)', async () => {
    const faults = seededRandom(20240601);
    let failed = 0;
    const flaky: Script = (request) => {
      if (faults() < 0.3) {
        failed += 1;
        return faults() < 0.5 ? openaiReply.rateLimited() : openaiReply.serverError();
      }
      return request.body.tool_choice === 'none' ? openaiReply.text(finalJson) : openaiReply.toolCalls([{ id: 'c', name: 'list_alarms', arguments: { service: 'checkout' } }]);
    };
    const { server, model } = await openaiOn(flaky);
    const secondaryFaults = seededRandom(99);
    const { model: secondary } = await anthropicOn(() => (secondaryFaults() < 0.3 ? anthropicReply.overloaded() : anthropicReply.text(finalJson)));
    const { sleeps, events, options } = hooks();
    const resilient = new ResilientModel([model, secondary], options);

    const calls = 60;
    const responses = [];
    for (let index = 0; index < calls; index += 1) responses.push(await resilient.complete(index % 2 === 0 ? firstTurn : finalTurn));

    expect(responses).toHaveLength(calls);
    expect(responses.every((response) => response.usage.inputTokens > 0)).toBe(true);
    expect(failed).toBeGreaterThan(calls * 0.15);
    expect(server.requests.length).toBe(calls + failed - events.filter((event) => event.providerIndex === 1 && event.ok).length);
    expect(events.filter((event) => event.providerIndex === 0 && !event.ok)).toHaveLength(failed);
    expect(events.filter((event) => event.ok)).toHaveLength(calls);
    for (const delay of sleeps) {
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(20_000);
    }
  });

  it('falls back to the secondary when the primary always answers 500', async () => {
    const { server: primary, model } = await openaiOn(() => openaiReply.serverError());
    const { server: secondary, model: fallback } = await anthropicOn(() => anthropicReply.text(finalJson));
    const { sleeps, events, options } = hooks();
    const response = await new ResilientModel([model, fallback], options).complete(finalTurn);

    expect(response.text).toBe(finalJson);
    expect(response.model).toBe('claude-sonnet-4-20250514');
    expect(primary.requests).toHaveLength(4);
    expect(secondary.requests).toHaveLength(1);
    expect(sleeps).toHaveLength(3);
    expect(events.map((event) => `${event.providerIndex}:${event.attempt}:${event.next}`)).toEqual(['0:1:retry', '0:2:retry', '0:3:retry', '0:4:fallback', '1:1:done']);
    expect(events[0]).toMatchObject({ provider: 'openai:gpt-4o', ok: false, kind: 'server' });
  });

  it('falls back when the primary refuses connections', async () => {
    const dead = new OpenAIChatModel({ model: 'gpt-4o', apiKey: 'sk-test', baseURL: await closedPortURL('/v1') });
    const { model: fallback } = await anthropicOn(() => anthropicReply.text(finalJson));
    const { events, options } = hooks();
    const response = await new ResilientModel([dead, fallback], { ...options, maxAttempts: 2 }).complete(finalTurn);
    expect(response.text).toBe(finalJson);
    expect(events.map((event) => event.next)).toEqual(['retry', 'fallback', 'done']);
  });

  it('fails fast on an auth error: no retry, no fallback, the setting named', async () => {
    const { server: primary, model } = await openaiOn(() => openaiReply.error(401, 'Incorrect API key provided', { code: 'invalid_api_key' }));
    const { server: secondary, model: fallback } = await anthropicOn(() => anthropicReply.text(finalJson));
    const { sleeps, events, options } = hooks();
    const error = await rejectionOf(new ResilientModel([model, fallback], options).complete(firstTurn));

    expect(error.kind).toBe('auth');
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(primary.requests).toHaveLength(1);
    expect(secondary.requests).toHaveLength(0);
    expect(sleeps).toEqual([]);
    expect(events.map((event) => event.next)).toEqual(['fail']);
  });

  it('fails fast on an invalid request without trying the fallback', async () => {
    const { server: primary, model } = await anthropicOn(() => anthropicReply.error(400, 'invalid_request_error', 'tools.0.name: String should match pattern'));
    const { server: secondary, model: fallback } = await openaiOn(() => openaiReply.text(finalJson));
    const error = await rejectionOf(new ResilientModel([model, fallback], hooks().options).complete(firstTurn));
    expect(error.kind).toBe('invalid-request');
    expect(primary.requests).toHaveLength(1);
    expect(secondary.requests).toHaveLength(0);
  });

  it('times out a slow response and retries', async () => {
    const { server, model } = await openaiOn((_request, index) => (index === 0 ? { ...openaiReply.text(finalJson), delayMs: 10_000 } : openaiReply.text(finalJson)));
    const { sleeps, events, options } = hooks();
    const started = Date.now();
    const response = await new ResilientModel([model], { ...options, timeoutMs: 150 }).complete(finalTurn);

    expect(response.text).toBe(finalJson);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    expect(events[0]).toMatchObject({ ok: false, kind: 'timeout', next: 'retry' });
    expect(events[0]!.error!.message).toContain('150 ms');
  });

  it('times out an adapter that ignores the abort signal', async () => {
    const stuck: ModelPort = { name: 'stuck', complete: () => new Promise(() => undefined) };
    const healthy: ModelPort = { name: 'healthy', complete: async () => okResponse() };
    const { events, options } = hooks();
    const response = await new ResilientModel([stuck, healthy], { ...options, timeoutMs: 20, maxAttempts: 2 }).complete(firstTurn);
    expect(response.model).toBe('test-model');
    expect(events.map((event) => `${event.provider}:${event.kind ?? 'ok'}:${event.next}`)).toEqual(['stuck:timeout:retry', 'stuck:timeout:fallback', 'healthy:ok:done']);
  });

  it('shrinks the conversation once on a context overflow and retries', async () => {
    const { server, model } = await anthropicOn((_request, index) =>
      index === 0 ? anthropicReply.error(400, 'invalid_request_error', 'prompt is too long: 250000 tokens > 200000 maximum') : anthropicReply.text(finalJson),
    );
    const { sleeps, events, options } = hooks();
    const response = await new ResilientModel([model], options).complete(finalTurn);

    expect(response.text).toBe(finalJson);
    expect(sleeps).toEqual([]);
    expect(events.map((event) => event.next)).toEqual(['shrink', 'done']);
    const [before, after] = server.requests.map((request) => request.body.messages[2].content);
    expect(before[0].content).toBe(finalTurn.messages[2]!.content);
    expect(JSON.parse(after[0].content)).toEqual({ ref: 'E1', evicted: true });
    expect(after[0].tool_use_id).toBe('call_1');
    expect(server.requests[1]!.body.messages[0]).toEqual(server.requests[0]!.body.messages[0]);
  });

  it('shrinks only once: a second overflow is the end of the line', async () => {
    const { server, model } = await openaiOn(() => openaiReply.error(400, 'maximum context length exceeded', { code: 'context_length_exceeded' }));
    const shrink = vi.fn((request: ModelRequest) => request);
    const error = await rejectionOf(new ResilientModel([model], { ...hooks().options, shrink }).complete(finalTurn));
    expect(error.kind).toBe('context-overflow');
    expect(shrink).toHaveBeenCalledTimes(1);
    expect(server.requests).toHaveLength(2);
  });

  it('honours retry-after, and moves on when the wait is too long', async () => {
    const { model } = await openaiOn(inSequence(openaiReply.rateLimited({ 'retry-after-ms': '1234' }), openaiReply.text(finalJson)));
    const first = hooks();
    await new ResilientModel([model], first.options).complete(finalTurn);
    expect(first.sleeps).toEqual([1234]);

    const { model: slow } = await openaiOn(() => openaiReply.rateLimited({ 'retry-after': '600' }));
    const { model: fallback } = await anthropicOn(() => anthropicReply.text(finalJson));
    const second = hooks();
    const response = await new ResilientModel([slow, fallback], second.options).complete(finalTurn);
    expect(response.text).toBe(finalJson);
    expect(second.sleeps).toEqual([]);
    expect(second.events.map((event) => event.next)).toEqual(['fallback', 'done']);
  });

  it('reports every provider when the whole chain fails', async () => {
    const { model } = await openaiOn(() => openaiReply.serverError());
    const { model: fallback } = await anthropicOn(() => anthropicReply.overloaded());
    const error = await rejectionOf(new ResilientModel([model, fallback], { ...hooks().options, maxAttempts: 2 }).complete(firstTurn));
    expect(error).toBeInstanceOf(ModelChainError);
    expect(error.kind).toBe('overloaded');
    expect((error as ModelChainError).failures.map((failure) => failure.kind)).toEqual(['server', 'overloaded']);
    expect(error.message).toContain('openai:gpt-4o');
    expect(error.message).toContain('anthropic:claude-3-5-haiku-latest');
  });
});

describe('ResilientModel policy', () => {
  it('backs off exponentially with full jitter, capped', () => {
    const top = () => 0.999_999;
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((retry) => backoffDelay(retry, { baseDelayMs: 500, maxDelayMs: 20_000, random: top }));
    expect(delays).toEqual([499, 999, 1999, 3999, 7999, 15_999, 19_999, 19_999]);
    expect(backoffDelay(3, { baseDelayMs: 500, maxDelayMs: 20_000, random: () => 0 })).toBe(0);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 0.999_999, noNaN: true }), (retry, random) => {
        const delay = backoffDelay(retry, { baseDelayMs: 500, maxDelayMs: 20_000, random: () => random });
        return delay >= 0 && delay < Math.min(20_000, 500 * 2 ** (retry - 1));
      }),
      { seed: 42 },
    );
  });

  it('moves on after an unknown error without retrying', async () => {
    const broken: ModelPort = {
      name: 'broken',
      complete: async () => {
        throw new TypeError('cannot read properties of undefined');
      },
    };
    const { events, options } = hooks();
    const response = await new ResilientModel([broken, { name: 'ok', complete: async () => okResponse() }], options).complete(firstTurn);
    expect(response.text).toBe(finalJson);
    expect(events.map((event) => `${event.kind ?? 'ok'}:${event.next}`)).toEqual(['unknown:fallback', 'ok:done']);
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    let calls = 0;
    const model: ModelPort = {
      name: 'flaky',
      complete: async () => {
        calls += 1;
        controller.abort();
        throw new ModelCallError({ kind: 'server', provider: 'flaky', message: 'boom' });
      },
    };
    const { sleeps, options } = hooks();
    const error = await rejectionOf(new ResilientModel([model, { name: 'ok', complete: async () => okResponse() }], options).complete(firstTurn, { signal: controller.signal }));
    expect(error).toMatchObject({ kind: 'timeout', code: 'aborted' });
    expect(calls).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('a throwing onAttempt callback does not break the call', async () => {
    const model = new ResilientModel([{ name: 'ok', complete: async () => okResponse() }], {
      onAttempt: () => {
        throw new Error('logger down');
      },
    });
    await expect(model.complete(firstTurn)).resolves.toMatchObject({ text: finalJson });
  });
});

describe('the default shrink', () => {
  const conversation = fc
    .array(fc.array(fc.nat({ max: 5000 }), { minLength: 1, maxLength: 4 }), { minLength: 0, maxLength: 8 })
    .map((rounds): ChatMessage[] => {
      const messages: ChatMessage[] = [{ role: 'user', content: 'the brief' }];
      let ref = 0;
      for (const [round, sizes] of rounds.entries()) {
        const calls = sizes.map((_, index) => ({ id: `c${round}_${index}`, name: 'query_logs', arguments: {} }));
        messages.push({ role: 'assistant', content: '', toolCalls: calls });
        for (const [index, size] of sizes.entries()) {
          ref += 1;
          messages.push({ role: 'tool', toolCallId: calls[index]!.id, name: 'query_logs', content: JSON.stringify({ ref: `E${ref}`, data: 'x'.repeat(size) }) });
        }
      }
      return messages;
    });

  it('stubs the oldest tool results only, keeping every call paired and the brief intact', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const request: ModelRequest = { system: 's', messages, tools: [], toolChoice: 'auto' };
        const shrunk = evictOldestToolResults(request);
        expect(shrunk.messages).toHaveLength(messages.length);
        expect(shrunk.messages[0]).toEqual(messages[0]);
        shrunk.messages.forEach((message, index) => {
          const original = messages[index]!;
          expect(message.role).toBe(original.role);
          if (message.role === 'tool' && original.role === 'tool') expect(message.toolCallId).toBe(original.toolCallId);
          if (message.role === 'assistant') expect(message).toEqual(original);
        });
        const flags = shrunk.messages.filter((message) => message.role === 'tool').map(isEvicted);
        const evictedCount = flags.filter(Boolean).length;
        // Evicted results are a prefix: the oldest go first.
        expect(flags).toEqual(flags.map((_, index) => index < evictedCount));
        if (flags.length > 0) expect(evictedCount).toBeGreaterThan(0);
        const size = (list: ChatMessage[]) => list.filter((message) => message.role === 'tool').reduce((sum, message) => sum + message.content.length, 0);
        if (evictedCount > 1) expect(size(shrunk.messages)).toBeLessThan(size(messages));
      }),
      { seed: 1234, numRuns: 200 },
    );
  });

  it('writes stubs that keep the evidence ref', () => {
    const shrunk = evictOldestToolResults(finalTurn, { keepFraction: 0 });
    expect(shrunk.messages[2]).toEqual({ role: 'tool', toolCallId: 'call_1', name: 'list_alarms', content: '{"ref":"E1","evicted":true}' });
    expect(shrunk.messages[3]).toEqual({ role: 'tool', toolCallId: 'call_2', name: 'query_logs', content: '{"ref":"E2","evicted":true}' });
    expect(evictOldestToolResults(shrunk)).toBe(shrunk);
  });
});
