import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateRequestTokens, estimateTokens } from '../../lib/context/token-estimate.ts';
import type { ModelRequest } from '../../lib/model/port.ts';

describe('estimateTokens', () => {
  it('counts nothing for nothing and over-counts English prose (about 4 characters a token)', () => {
    expect(estimateTokens('')).toBe(0);
    const prose = 'The checkout service started failing after the deploy because a migration did not run.';
    expect(estimateTokens(prose)).toBeGreaterThanOrEqual(Math.ceil(prose.length / 4));
  });

  it('counts ids, hex and long numbers more heavily than words of the same length', () => {
    expect(estimateTokens('3f2b8a1c9d4e4f6a8b2c1d2e3f4a5b6c')).toBeGreaterThan(estimateTokens('abcdefghijklmnopqrstuvwxyzabcdef'));
    expect(estimateTokens('12345678901234567890')).toBe(10);
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
  });
});
