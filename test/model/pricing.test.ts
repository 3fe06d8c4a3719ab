import { describe, expect, it } from 'vitest';
import { contextWindowOf, costOf, DEFAULT_CONTEXT_WINDOW, estimateCost, isPriced, normalizeModelId, priceTable } from '../../lib/model/pricing.ts';

const million = { inputTokens: 1_000_000, outputTokens: 1_000_000, cachedTokens: 0 };

describe('costOf', () => {
  it('prices model families by longest prefix', () => {
    expect(costOf('gpt-4o-2024-08-06', million)).toBeCloseTo(12.5);
    expect(costOf('gpt-4o-mini-2024-07-18', million)).toBeCloseTo(0.75);
    expect(costOf('gpt-4.1-mini', million)).toBeCloseTo(2);
    expect(costOf('o4-mini', million)).toBeCloseTo(5.5);
    expect(costOf('claude-3-5-sonnet-20241022', million)).toBeCloseTo(18);
    expect(costOf('claude-3-5-haiku-latest', million)).toBeCloseTo(4.8);
    expect(costOf('claude-sonnet-4-20250514', million)).toBeCloseTo(18);
    expect(costOf('claude-opus-4-1-20250805', million)).toBeCloseTo(90);
    expect(costOf('amazon.nova-pro-v1:0', million)).toBeCloseTo(4);
    expect(costOf('us.anthropic.claude-sonnet-4-20250514-v1:0', million)).toBeCloseTo(18);
    expect(costOf('anthropic/claude-3.5-sonnet', million)).toBeCloseTo(18);
  });

  it('bills cached input tokens at the cached price', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 0, cachedTokens: 800_000 };
    // 200k at $2.50/M + 800k at $1.25/M
    expect(costOf('gpt-4o', usage)).toBeCloseTo(0.5 + 1);
    expect(estimateCost('gpt-4o', usage)).toMatchObject({ priced: true, matched: 'gpt-4o' });
  });

  it('costs an unknown model 0 and says so', () => {
    expect(costOf('llama3.1:8b', million)).toBe(0);
    expect(estimateCost('llama3.1:8b', million)).toEqual({ usd: 0, priced: false });
    expect(isPriced('llama3.1:8b')).toBe(false);
    expect(isPriced('gpt-4o')).toBe(true);
  });

  it('takes overrides from SRE_AGENT_PRICES', () => {
    const table = priceTable({ SRE_AGENT_PRICES: '{"llama3": {"input": 0.1, "output": 0.2}, "gpt-4o": {"input": 1, "output": 1}}' });
    expect(costOf('llama3.1:8b', million, table)).toBeCloseTo(0.3);
    expect(costOf('gpt-4o-2024-08-06', million, table)).toBeCloseTo(2);
    expect(costOf('gpt-4o-mini', million, table)).toBeCloseTo(0.75);
    expect(() => priceTable({ SRE_AGENT_PRICES: '[1,2]' })).toThrow(/SRE_AGENT_PRICES/);
  });
});

describe('contextWindowOf', () => {
  it('knows the families and is conservative otherwise', () => {
    expect(contextWindowOf('gpt-4o-mini')).toBe(128_000);
    expect(contextWindowOf('gpt-4.1-nano')).toBe(1_047_576);
    expect(contextWindowOf('claude-3-5-haiku-latest')).toBe(200_000);
    expect(contextWindowOf('eu.anthropic.claude-3-7-sonnet-20250219-v1:0')).toBe(200_000);
    expect(contextWindowOf('amazon.nova-micro-v1:0')).toBe(128_000);
    expect(contextWindowOf('mistral-7b')).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(DEFAULT_CONTEXT_WINDOW).toBe(32_000);
  });

  it('normalizes ids', () => {
    expect(normalizeModelId('arn:aws:bedrock:us-east-1:123:inference-profile/us.amazon.nova-pro-v1:0')).toBe('amazon.nova-pro-v1:0');
    expect(normalizeModelId('openai/GPT-4o')).toBe('gpt-4o');
  });
});
