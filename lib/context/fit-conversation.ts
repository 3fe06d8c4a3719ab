/**
 * Keeps a model request inside the model's context window by evicting old tool results. An evicted
 * result keeps its message (so every tool call still has its result, which every provider requires)
 * but its content becomes a stub that says what was there (the ref the model cites and the tool's
 * one-line summary) and how to get it back (the tool and the arguments of the original call).
 *
 * Never touched: the system prompt, user messages (the first one carries the alert and the plan),
 * assistant messages (the model's reasoning and calls), and the most recent tool results, which the
 * model is about to read. Results are evicted oldest first: the investigation has moved past them.
 */
import type { ChatMessage, ModelRequest, ToolCall } from '../model/port.ts';
import { estimateMessageTokens, estimateRequestTokens, estimateTokens, type TokenCounter } from './token-estimate.ts';

export interface FitOptions {
  /** Tokens left free for the model's reply. Default 4096. */
  reserveTokens?: number;
  /** Share of the window to fill at most, for the estimate's error and provider framing. Default 0.8. */
  targetFraction?: number;
  /** The most recent tool results that are never evicted. Default 2. */
  keepRecentToolResults?: number;
  /** The model's token count (`tokenCounterFor`), used once the estimate says the request may not fit. Default the estimate. */
  countTokens?: TokenCounter;
}

export interface FittedConversation {
  request: ModelRequest;
  /** Refs (E1, E2, ...) of the results replaced by stubs, oldest first; the tool-call id when a result had no ref. */
  evicted: string[];
  /** The estimate of the returned request. */
  estimatedTokens: number;
  /** What the request had to fit: targetFraction × window − reserve. */
  budgetTokens: number;
  /** False when even with every allowed eviction the request is over budget (it is returned anyway). */
  fits: boolean;
}

/** The stub that replaces an evicted result's content. */
export interface EvictedResultStub {
  ref: string;
  evicted: true;
  summary: string;
  refetch: { tool: string; arguments: Record<string, unknown> };
}

/** A summary longer than this is cut in the stub; a stub must stay small to be worth it. */
const maxStubSummaryChars = 400;

export function fitConversation(request: ModelRequest, windowTokens: number, options: FitOptions = {}): FittedConversation {
  const reserve = options.reserveTokens ?? 4096;
  const fraction = options.targetFraction ?? 0.8;
  const keepRecent = Math.max(0, options.keepRecentToolResults ?? 2);
  const budgetTokens = Math.floor(windowTokens * fraction - reserve);
  // The estimate over-counts (calibrated against the tokenizers), so under budget by it is under budget;
  // only a request near the budget pays for the model's own, slower count.
  let estimatedTokens = estimateRequestTokens(request);
  if (estimatedTokens <= budgetTokens) return { request, evicted: [], estimatedTokens, budgetTokens, fits: true };
  const count = options.countTokens ?? estimateTokens;
  if (count !== estimateTokens) {
    estimatedTokens = estimateRequestTokens(request, count);
    if (estimatedTokens <= budgetTokens) return { request, evicted: [], estimatedTokens, budgetTokens, fits: true };
  }

  const callsById = new Map<string, ToolCall>();
  for (const message of request.messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls) callsById.set(call.id, call);
  }
  const toolPositions = request.messages.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
  const evictable = toolPositions.slice(0, Math.max(0, toolPositions.length - keepRecent));

  const messages: ChatMessage[] = [...request.messages];
  const evicted: string[] = [];
  for (const index of evictable) {
    if (estimatedTokens <= budgetTokens) break;
    const message = messages[index]!;
    if (message.role !== 'tool') continue;
    const stub = stubFor(message, callsById.get(message.toolCallId));
    if (!stub) continue;
    const replacement: ChatMessage = { ...message, content: JSON.stringify(stub) };
    const saved = estimateMessageTokens(message, count) - estimateMessageTokens(replacement, count);
    // Evicting a result smaller than its stub would only lose information.
    if (saved <= 0) continue;
    messages[index] = replacement;
    estimatedTokens -= saved;
    evicted.push(stub.ref);
  }
  return {
    request: { ...request, messages },
    evicted,
    estimatedTokens,
    budgetTokens,
    fits: estimatedTokens <= budgetTokens,
  };
}

/**
 * The stub for a tool message, from its content as `toolResultContent` renders it (`{ref, summary, data}`
 * or `{ref, error}`); undefined for one that is already a stub.
 */
export function stubFor(message: Extract<ChatMessage, { role: 'tool' }>, call: ToolCall | undefined): EvictedResultStub | undefined {
  const content = parseObject(message.content);
  if (content?.evicted === true) return undefined;
  const ref = typeof content?.ref === 'string' ? content.ref : message.toolCallId;
  const summary =
    typeof content?.summary === 'string'
      ? content.summary
      : typeof content?.error === 'string'
        ? `the tool call failed: ${content.error}`
        : `${message.content.length} characters of tool output`;
  return {
    ref,
    evicted: true,
    summary: summary.length <= maxStubSummaryChars ? summary : `${summary.slice(0, maxStubSummaryChars)}…`,
    refetch: { tool: call?.name ?? message.name, arguments: call?.arguments ?? {} },
  };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
