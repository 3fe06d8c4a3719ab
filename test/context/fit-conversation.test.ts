import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitConversation, type EvictedResultStub } from '../../lib/context/fit-conversation.ts';
import { estimateRequestTokens, tokenCounterFor } from '../../lib/context/token-estimate.ts';
import type { ChatMessage, ModelRequest } from '../../lib/model/port.ts';
import { toolResultContent } from '../../lib/workflow/conversation.ts';

const system = 'You are an SRE agent. Cite evidence refs.';
const opening = 'Alert: checkout 5xx above 5%.\n\nPlan:\n1. Check recent deploys\n2. Read error logs';

/** A conversation of `turns` tool rounds, each result `resultChars` long, rendered as the workflow renders them. */
function conversation(turns: number, resultChars: number): ModelRequest {
  const messages: ChatMessage[] = [{ role: 'user', content: opening }];
  for (let turn = 1; turn <= turns; turn += 1) {
    const id = `call_${turn}`;
    const args = { service: `svc-${turn}`, sinceMinutes: 30 * turn, contains: 'error' };
    messages.push({ role: 'assistant', content: `Looking at svc-${turn}.`, toolCalls: [{ id, name: turn % 2 ? 'query_logs' : 'get_metrics', arguments: args }] });
    messages.push({
      role: 'tool',
      toolCallId: id,
      name: turn % 2 ? 'query_logs' : 'get_metrics',
      content: toolResultContent({ toolCallId: id, name: 'query_logs', ref: `E${turn}`, summary: `${turn * 100} log lines matched`, data: { blob: 'log line '.repeat(resultChars / 9) } }),
    });
  }
  return { system, messages, tools: [{ name: 'query_logs', description: 'Search logs.', inputSchema: { type: 'object' } }], toolChoice: 'auto' };
}

const toolMessages = (request: ModelRequest) => request.messages.filter((message) => message.role === 'tool');
const isStub = (message: ChatMessage) => message.role === 'tool' && (JSON.parse(message.content) as { evicted?: boolean }).evicted === true;

describe('fitConversation', () => {
  it('is a no-op when the request is within budget', () => {
    const request = conversation(3, 900);
    const result = fitConversation(request, 200_000);
    expect(result.request).toBe(request);
    expect(result.evicted).toEqual([]);
    expect(result.fits).toBe(true);
  });

  it('near the budget, counts with the model tokenizer and evicts only what that count needs', async () => {
    const request = conversation(10, 20_000);
    const count = await tokenCounterFor('gpt-4.1-mini');
    const exact = estimateRequestTokens(request, count);
    const estimated = estimateRequestTokens(request);
    expect(estimated).toBeGreaterThan(exact);
    // A window whose budget lies between the tokenizer's count and the estimate.
    const budget = Math.floor((exact + estimated) / 2);
    const window = (budget + 4096) / 0.8;
    const byEstimate = fitConversation(request, window);
    const byTokenizer = fitConversation(request, window, { countTokens: count });
    expect(byEstimate.evicted.length).toBeGreaterThan(0);
    expect(byTokenizer).toMatchObject({ request, evicted: [], estimatedTokens: exact, fits: true });

    const tighter = fitConversation(request, window / 2, { countTokens: count });
    expect(tighter.fits).toBe(true);
    expect(tighter.evicted.length).toBeGreaterThan(0);
    expect(tighter.estimatedTokens).toBe(estimateRequestTokens(tighter.request, count));
    expect(tighter.estimatedTokens).toBeLessThanOrEqual(tighter.budgetTokens);
    // Far under the budget the estimate decides alone: the tokenizer is never asked.
    const small = conversation(2, 900);
    const refusing = () => {
      throw new Error('the tokenizer was asked');
    };
    expect(fitConversation(small, 200_000, { countTokens: refusing }).request).toBe(small);
  });

  it('evicts the oldest results into refetchable stubs until the request fits', () => {
    const request = conversation(10, 20_000);
    const window = 50_000;
    const result = fitConversation(request, window);
    const budget = window * 0.8 - 4096;
    expect(estimateRequestTokens(request)).toBeGreaterThan(budget);
    expect(result.fits).toBe(true);
    expect(estimateRequestTokens(result.request)).toBeLessThanOrEqual(budget);
    expect(result.estimatedTokens).toBe(estimateRequestTokens(result.request));
    // Oldest first, and only as many as needed.
    expect(result.evicted).toEqual(result.evicted.map((_, index) => `E${index + 1}`));
    expect(result.evicted.length).toBeLessThan(8);
    const first = JSON.parse(result.request.messages[2]!.content) as EvictedResultStub;
    expect(first).toEqual({
      ref: 'E1',
      evicted: true,
      summary: '100 log lines matched',
      refetch: { tool: 'query_logs', arguments: { service: 'svc-1', sinceMinutes: 30, contains: 'error' } },
    });
    expect(result.request.messages[2]!.content).toBe(
      '{"ref":"E1","evicted":true,"summary":"100 log lines matched","refetch":{"tool":"query_logs","arguments":{"service":"svc-1","sinceMinutes":30,"contains":"error"}}}',
    );
    const second = JSON.parse(result.request.messages[4]!.content) as EvictedResultStub;
    expect(second.refetch).toEqual({ tool: 'get_metrics', arguments: { service: 'svc-2', sinceMinutes: 60, contains: 'error' } });
    // The input is not mutated.
    expect(toolMessages(request).some(isStub)).toBe(false);
  });

  it('never touches the system prompt, user or assistant messages, or the last results, and keeps every pairing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 10, max: 30_000 }),
        fc.integer({ min: 5_000, max: 200_000 }),
        fc.integer({ min: 0, max: 4 }),
        (turns, resultChars, window, keepRecent) => {
          const request = conversation(turns, resultChars);
          const result = fitConversation(request, window, { keepRecentToolResults: keepRecent, reserveTokens: 1000 });
          expect(result.request.system).toBe(request.system);
          expect(result.request.tools).toBe(request.tools);
          expect(result.request.messages).toHaveLength(request.messages.length);
          request.messages.forEach((message, index) => {
            const after = result.request.messages[index]!;
            expect(after.role).toBe(message.role);
            if (message.role !== 'tool') expect(after).toBe(message);
            else expect(after).toMatchObject({ toolCallId: message.toolCallId, name: message.name });
          });
          const before = toolMessages(request);
          const after = toolMessages(result.request);
          expect(after.slice(Math.max(0, after.length - keepRecent))).toEqual(before.slice(Math.max(0, before.length - keepRecent)));
          expect(after.filter(isStub).length).toBe(result.evicted.length);
          for (const message of after.filter(isStub)) {
            const stub = JSON.parse(message.content) as EvictedResultStub;
            expect(stub.ref).toMatch(/^E\d+$/);
            expect(stub.refetch.tool).toBe(message.name);
            expect(stub.refetch.arguments).toHaveProperty('service');
          }
          // It fits whenever evicting everything allowed would make it fit.
          const everything = fitConversation(request, window, { keepRecentToolResults: keepRecent, reserveTokens: 1000, targetFraction: 0 });
          if (everything.estimatedTokens <= result.budgetTokens) expect(result.fits).toBe(true);
          expect(result.fits).toBe(result.estimatedTokens <= result.budgetTokens);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('returns its best effort when even the protected messages are over budget', () => {
    const request = conversation(4, 40_000);
    const result = fitConversation(request, 20_000);
    expect(result.fits).toBe(false);
    expect(result.evicted).toEqual(['E1', 'E2']);
    expect(toolMessages(result.request).slice(-2)).toEqual(toolMessages(request).slice(-2));
  });

  it('leaves results that are already stubs, and small results whose stub would be no smaller', () => {
    const request = conversation(6, 20_000);
    const once = fitConversation(request, 40_000);
    const twice = fitConversation(once.request, 40_000);
    expect(twice.evicted.filter((ref) => once.evicted.includes(ref))).toEqual([]);
    const tiny = conversation(5, 10);
    const squeezed = fitConversation(tiny, 1000, { reserveTokens: 0 });
    expect(squeezed.evicted).toEqual([]);
    expect(squeezed.request.messages).toEqual(tiny.messages);
  });
});
