import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { estimateRequestTokens, estimateTokens, openAiEncodingOf, tokenCounterFor, type TokenCounter } from '../../lib/context/token-estimate.ts';
import type { ModelRequest } from '../../lib/model/port.ts';

const scenariosDir = new URL('../../scenarios/', import.meta.url);

/**
 * What the budget counts: log lines as the tools print them, and the JSON of every part of every
 * bundled scenario's recorded environment (logs, metrics, traces, changes, alarms ...) as a tool
 * result carries it.
 */
const corpus = (): { kind: 'log line' | 'JSON tool result'; text: string }[] =>
  readdirSync(scenariosDir)
    .filter((file) => file.endsWith('.json'))
    .flatMap((file) => {
      const { environment } = JSON.parse(readFileSync(new URL(file, scenariosDir), 'utf8')) as {
        environment: Record<string, unknown> & { logs?: { timestamp: string; level: string; service: string; message: string }[] };
      };
      return [
        ...(environment.logs ?? []).slice(0, 150).map(({ timestamp, level, service, message }) => ({ kind: 'log line' as const, text: `${timestamp} ${level} ${service} ${message}` })),
        ...Object.values(environment).map((part) => ({ kind: 'JSON tool result' as const, text: JSON.stringify(part).slice(0, 20_000) })),
      ];
    });

let o200k: Tiktoken;
let cl100k: Tiktoken;
beforeAll(() => {
  o200k = new Tiktoken(o200kBase);
  cl100k = new Tiktoken(cl100kBase);
});

describe('estimateTokens', () => {
  it('counts nothing for nothing and over-counts English prose (about 4 characters a token)', () => {
    expect(estimateTokens('')).toBe(0);
    const prose = 'The checkout service started failing after the deploy because a migration did not run.';
    expect(estimateTokens(prose)).toBeGreaterThanOrEqual(Math.ceil(prose.length / 4));
  });

  it('counts ids, hex and long numbers more heavily than words of the same length', () => {
    expect(estimateTokens('3f2b8a1c9d4e4f6a8b2c1d2e3f4a5b6c')).toBeGreaterThan(estimateTokens('abcdefghijklmnopqrstuvwxyzabcdef'));
    // The tokenizers cut digits in groups of three.
    expect(estimateTokens('12345678901234567890')).toBe(7);
    expect(estimateTokens('3f2b8a1c-9d4e-4f6a-8b2c-1d2e3f4a5b6c')).toBeGreaterThanOrEqual(o200k.encode('3f2b8a1c-9d4e-4f6a-8b2c-1d2e3f4a5b6c').length);
    expect(estimateTokens('2026-04-06T03:00:00.000Z')).toBeGreaterThanOrEqual(o200k.encode('2026-04-06T03:00:00.000Z').length);
  });

  /**
   * The tolerance: over the corpus of each kind, the estimate is between 1.0 and 1.3 times the
   * tokenizer's count (never short in total, at most 30% of the context wasted), and no single
   * sample of ten tokens or more is more than 15% short.
   */
  it.each([
    ['o200k_base', () => o200k],
    ['cl100k_base', () => cl100k],
  ])('is calibrated against %s on log lines and JSON tool results', (_name, tokenizer) => {
    const totals = new Map<string, { estimated: number; counted: number }>();
    let worst = { ratio: Infinity, text: '' };
    for (const { kind, text } of corpus()) {
      const estimated = estimateTokens(text);
      const counted = tokenizer().encode(text, [], []).length;
      const total = totals.get(kind) ?? { estimated: 0, counted: 0 };
      totals.set(kind, { estimated: total.estimated + estimated, counted: total.counted + counted });
      if (counted >= 10 && estimated / counted < worst.ratio) worst = { ratio: estimated / counted, text };
    }
    expect([...totals.keys()].sort()).toEqual(['JSON tool result', 'log line']);
    for (const [kind, { estimated, counted }] of totals) {
      expect(counted, kind).toBeGreaterThan(10_000);
      expect(estimated / counted, kind).toBeGreaterThanOrEqual(1);
      expect(estimated / counted, kind).toBeLessThanOrEqual(1.3);
    }
    expect(worst.ratio, worst.text).toBeGreaterThanOrEqual(0.85);
  });

  it('counts a non-ASCII character as a token', () => {
    expect(estimateTokens('障害発生')).toBe(4);
  });

  it('is additive over newline-joined pieces: the parts never count less than the whole', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 80 }), { maxLength: 30 }), (pieces) => {
        const parts = pieces.reduce((sum, piece) => sum + estimateTokens(piece) + 1, 0);
        expect(estimateTokens(pieces.join('\n'))).toBeLessThanOrEqual(parts);
      }),
    );
  });
});

describe('estimateRequestTokens', () => {
  it('counts the system prompt, every message and the tool specs', () => {
    const request: ModelRequest = {
      system: 'You are an SRE.',
      messages: [
        { role: 'user', content: 'checkout is failing' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'query_logs', arguments: { service: 'orders' } }] },
        { role: 'tool', toolCallId: 'c1', name: 'query_logs', content: '{"ref":"E1","summary":"3 lines","data":{}}' },
      ],
      tools: [{ name: 'query_logs', description: 'Search logs.', inputSchema: { type: 'object' } }],
      toolChoice: 'auto',
    };
    const withoutTools = estimateRequestTokens({ ...request, tools: [] });
    expect(estimateRequestTokens(request)).toBeGreaterThan(withoutTools);
    expect(withoutTools).toBeGreaterThan(estimateTokens(request.system) + estimateTokens('checkout is failing'));
    const characters: TokenCounter = (text) => text.length;
    expect(estimateRequestTokens(request, characters)).toBe(
      request.system.length + 3 * 4 + 'checkout is failing'.length + 4 + 'c1'.length + 'query_logs'.length + JSON.stringify({ service: 'orders' }).length
        + 'c1'.length + 'query_logs'.length + (request.messages[2] as { content: string }).content.length + JSON.stringify(request.tools).length,
    );
  });
});

describe('tokenCounterFor', () => {
  it('picks the tokenizer of OpenAI-family models and the estimate for the others', () => {
    for (const model of ['gpt-4.1-mini', 'gpt-4o', 'gpt-5', 'o3-mini', 'o4-mini', 'openai.gpt-oss-120b-1:0']) expect(openAiEncodingOf(model), model).toBe('o200k_base');
    for (const model of ['gpt-4', 'gpt-4-turbo', 'gpt-3.5-turbo']) expect(openAiEncodingOf(model), model).toBe('cl100k_base');
    for (const model of ['claude-sonnet-4-6', 'anthropic.claude-3-5-haiku-20241022-v1:0', 'amazon.nova-pro-v1:0', 'offline']) expect(openAiEncodingOf(model), model).toBeUndefined();
  });

  it('counts exactly what the tokenizer counts for an OpenAI model, and estimates for the others', async () => {
    const gpt41 = await tokenCounterFor('gpt-4.1-mini');
    const gpt4 = await tokenCounterFor('gpt-4');
    const samples = corpus().filter((_, index) => index % 40 === 0);
    expect(samples.length).toBeGreaterThan(20);
    for (const { text } of samples) {
      expect(gpt41(text)).toBe(o200k.encode(text, [], []).length);
      expect(gpt4(text)).toBe(cl100k.encode(text, [], []).length);
    }
    expect(await tokenCounterFor('claude-sonnet-4-6')).toBe(estimateTokens);
  });

  it('counts a special-token string in a log line as text', async () => {
    const count = await tokenCounterFor('gpt-4o');
    const line = 'worker exited: unexpected <|endoftext|> in prompt';
    expect(count(line)).toBe(o200k.encode(line, [], []).length);
    expect(count(line)).toBeGreaterThan(o200k.encode(line, ['<|endoftext|>']).length);
  });

  it('tokenizes a long run of one character in parts of 64, so it cannot stall the budget', async () => {
    const count: TokenCounter = await tokenCounterFor('gpt-4o');
    const part = o200k.encode('='.repeat(64), [], []).length;
    expect(count('='.repeat(64 * 500))).toBe(500 * part);
    expect(count(`start ${'a'.repeat(64 * 100)} end`)).toBeGreaterThanOrEqual(o200k.encode(`start ${'a'.repeat(640)} end`, [], []).length);
  });
});
