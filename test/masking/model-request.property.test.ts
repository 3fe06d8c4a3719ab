import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Masker } from '../../lib/masking/index.ts';
import { glued, logText } from './generators.ts';

/**
 * The chokepoint masks a whole model request with `maskJson` and then checks
 * `findLeaks(JSON.stringify(masked))`: every string masked on its own, the check run over the
 * JSON text, where strings sit next to each other and quotes and newlines are escaped. A request
 * masked this way must never be blocked.
 */
const request = (texts: string[]) => ({
  system: `You are an SRE agent. Context: ${texts[0] ?? ''}`,
  messages: [
    { role: 'user', content: texts[1] ?? '' },
    {
      role: 'assistant',
      content: texts[2] ?? '',
      toolCalls: [{ id: 'call_1', name: 'query_logs', arguments: { logGroupName: '/aws/lambda/orders-api', filter: texts[3] ?? '', limit: 50 } }],
    },
    { role: 'tool', toolCallId: 'call_1', name: 'query_logs', content: JSON.stringify({ events: texts.slice(4).map((message) => ({ message })) }) },
  ],
  tools: [
    {
      name: 'query_logs',
      description: 'Query CloudWatch Logs; arguments: logGroupName, filter, accountId.',
      inputSchema: { type: 'object', properties: { logGroupName: { type: 'string' }, accountId: { type: 'string' }, password: { type: 'string' } } },
    },
  ],
  toolChoice: 'auto',
});

describe('model requests through the chokepoint (property)', () => {
  it('are never blocked after maskJson, and restore exactly', () => {
    fc.assert(
      fc.property(fc.array(logText.map((part) => part.text), { minLength: 4, maxLength: 8 }), (texts) => {
        const masker = new Masker();
        const original = request(texts);
        const masked = masker.maskJson(original);
        expect(masker.findLeaks(JSON.stringify(masked))).toEqual([]);
        expect(masker.unmaskJson(masked)).toEqual(original);
      }),
      { numRuns: 200 },
    );
  });

  it('are never blocked, string by string, even with secrets and glued tokens in every string', () => {
    // Adversarial input, so a fixed seed: the run is the same on every machine.
    fc.assert(
      fc.property(fc.array(glued, { minLength: 4, maxLength: 8 }), (texts) => {
        const masker = new Masker();
        const masked = masker.maskJson(request(texts));
        expect(masker.findLeaksJson(masked)).toEqual([]);
      }),
      { numRuns: 300, seed: 20240115 },
    );
  });
});
