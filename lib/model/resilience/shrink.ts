import type { ChatMessage, ModelRequest } from '../port.ts';

/** Makes a request smaller after a context-overflow error; called at most once per model call. */
export type ShrinkRequest = (request: ModelRequest) => ModelRequest;

export interface EvictionOptions {
  /** The share of tool-result characters to keep; the oldest results go first. Default 0.5. */
  keepFraction?: number;
}

const stubOf = (message: Extract<ChatMessage, { role: 'tool' }>): string => {
  let ref: unknown;
  try {
    ref = (JSON.parse(message.content) as { ref?: unknown } | null)?.ref;
  } catch {
    ref = undefined;
  }
  return JSON.stringify({ ref: typeof ref === 'string' ? ref : message.toolCallId, evicted: true });
};

/** True when a tool message's content is already an eviction stub. */
export const isEvicted = (message: ChatMessage): boolean => {
  if (message.role !== 'tool') return false;
  try {
    const value = JSON.parse(message.content) as { evicted?: unknown } | null;
    return value !== null && typeof value === 'object' && value.evicted === true;
  } catch {
    return false;
  }
};

/**
 * Replaces the content of the oldest tool results with a stub `{"ref": "E3", "evicted": true}` until at
 * most `keepFraction` of the tool-result text remains (at least one result is evicted when any is left).
 * No message is removed or reordered, so every tool call stays paired with its result and the first user
 * message (the brief) is untouched; the evidence refs stay citable.
 */
export const evictOldestToolResults = (request: ModelRequest, options: EvictionOptions = {}): ModelRequest => {
  const keepFraction = Math.min(1, Math.max(0, options.keepFraction ?? 0.5));
  const candidates = request.messages.flatMap((message, index) => (message.role === 'tool' && !isEvicted(message) ? [index] : []));
  if (candidates.length === 0) return request;
  const sizes = candidates.map((index) => request.messages[index]!.content.length);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const toEvict = total * (1 - keepFraction);
  const evict = new Set<number>();
  let evicted = 0;
  for (const [position, index] of candidates.entries()) {
    if (evict.size > 0 && evicted >= toEvict) break;
    evict.add(index);
    evicted += sizes[position]!;
  }
  return {
    ...request,
    messages: request.messages.map((message, index) =>
      message.role === 'tool' && evict.has(index) ? { ...message, content: stubOf(message) } : message,
    ),
  };
};

/** The default shrink: evict the oldest half of the tool-result text. */
export const defaultShrink: ShrinkRequest = (request) => evictOldestToolResults(request);
