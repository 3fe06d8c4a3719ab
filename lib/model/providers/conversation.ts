import type { ChatMessage, ModelPort, ModelRequest, ModelResponse, ToolCall, ToolSpec } from '../port.ts';

/** Per-call options every adapter here accepts on top of the port: an abort signal for timeouts. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
}

/** A model port whose calls can be aborted. Every adapter here is one; any plain `ModelPort` fits too. */
export interface AbortableModelPort extends ModelPort {
  complete(request: ModelRequest, options?: CallOptions): Promise<ModelResponse>;
}

/** Tool-call arguments arrive as JSON text on some wires; anything that is not a JSON object is kept raw. */
export const parseArguments = (raw: string | null | undefined): Record<string, unknown> => {
  if (raw === null || raw === undefined || raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    return isPlainObject(value) ? value : { _raw: raw };
  } catch {
    return { _raw: raw };
  }
};

/** Tool inputs that arrive as values (Anthropic, Bedrock): objects pass, anything else is kept raw. */
export const argumentsOf = (input: unknown): Record<string, unknown> => {
  if (input === undefined || input === null) return {};
  if (isPlainObject(input)) return input;
  return { _raw: typeof input === 'string' ? input : JSON.stringify(input) };
};

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A tool's JSON Schema as providers want it: an object schema without the `$schema` marker. */
export const inputSchemaOf = (spec: ToolSpec): Record<string, unknown> => {
  const { $schema: _ignored, ...schema } = spec.inputSchema;
  return schema.type === undefined ? { type: 'object', ...schema } : schema;
};

/** Anthropic and Bedrock accept `[a-zA-Z0-9_-]{1,64}` as tool-use ids; ids from another provider are made to fit. */
export const safeToolId = (id: string): string => {
  const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned.length > 0 ? cleaned : 'tool_call';
};

const missingResult = JSON.stringify({ error: 'no result was recorded for this tool call' });

/**
 * The conversation with every assistant tool call followed by exactly one result, in call order:
 * results found later in the turn are pulled up, missing ones get a stub, and results whose call is
 * not in the preceding assistant turn become plain user text. All three wire formats require this pairing.
 */
export const pairToolMessages = (messages: readonly ChatMessage[]): ChatMessage[] => {
  const paired: ChatMessage[] = [];
  const used = new Set<number>();
  for (let index = 0; index < messages.length; index += 1) {
    if (used.has(index)) continue;
    const message = messages[index]!;
    if (message.role === 'tool') {
      paired.push({ role: 'user', content: `Result of tool ${message.name} (${message.toolCallId}):\n${message.content}` });
      continue;
    }
    paired.push(message);
    if (message.role !== 'assistant' || message.toolCalls.length === 0) continue;
    const turnEnd = messages.findIndex((next, at) => at > index && next.role === 'assistant');
    const end = turnEnd === -1 ? messages.length : turnEnd;
    for (const call of message.toolCalls) {
      let found: ChatMessage | undefined;
      for (let at = index + 1; at < end; at += 1) {
        const candidate = messages[at]!;
        if (!used.has(at) && candidate.role === 'tool' && candidate.toolCallId === call.id) {
          used.add(at);
          found = candidate;
          break;
        }
      }
      paired.push(found ?? { role: 'tool', toolCallId: call.id, name: call.name, content: missingResult });
    }
  }
  return paired;
};

/** True when the conversation holds tool calls or tool results. */
export const hasToolTraffic = (messages: readonly ChatMessage[]): boolean =>
  messages.some((message) => message.role === 'tool' || (message.role === 'assistant' && message.toolCalls.length > 0));

/**
 * The tool definitions to send. When the request offers none but the history holds tool calls
 * (the final-answer turn), providers that insist on definitions for tool traffic get a stub per
 * tool name seen, described as unavailable; with `toolChoice: 'none'` the model cannot call them.
 */
export const toolsToDeclare = (request: ModelRequest): ToolSpec[] => {
  if (request.tools.length > 0) return request.tools;
  const names = new Set<string>();
  for (const message of request.messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls) names.add(call.name);
    if (message.role === 'tool') names.add(message.name);
  }
  return [...names].map((name) => ({
    name,
    description: 'Used earlier in this conversation; not available now.',
    inputSchema: { type: 'object', properties: {} },
  }));
};

/** The port asks for no tool calls with `toolChoice: 'none'`; providers that cannot enforce it are held to it here. */
export const enforceToolChoice = (request: ModelRequest, response: ModelResponse): ModelResponse =>
  request.toolChoice === 'none' && response.toolCalls.length > 0
    ? { ...response, toolCalls: [], stopReason: response.stopReason === 'tool_use' ? 'end_turn' : response.stopReason }
    : response;

export const nonNegativeInt = (value: number | null | undefined): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0;

/** What a Messages-style reply (Anthropic, Bedrock Converse) says, before it becomes the port's response. */
export interface ReplyParts {
  text: readonly string[];
  toolCalls: ToolCall[];
  /** Input tokens billed as new; cache reads and writes are counted apart by these providers. */
  inputTokens: number | null | undefined;
  outputTokens: number | null | undefined;
  cacheReadTokens: number | null | undefined;
  cacheWriteTokens: number | null | undefined;
  stopReason: string | null | undefined;
  model: string;
}

/** The port's response: `inputTokens` is the whole prompt, cache reads and writes included. */
export const responseFromParts = (parts: ReplyParts): ModelResponse => {
  const cached = nonNegativeInt(parts.cacheReadTokens);
  const stop = parts.stopReason;
  return {
    text: parts.text.join(''),
    toolCalls: parts.toolCalls,
    usage: {
      inputTokens: nonNegativeInt(parts.inputTokens) + cached + nonNegativeInt(parts.cacheWriteTokens),
      outputTokens: nonNegativeInt(parts.outputTokens),
      cachedTokens: cached,
    },
    stopReason:
      stop === 'max_tokens' || stop === 'model_context_window_exceeded'
        ? 'max_tokens'
        : stop === 'tool_use' || parts.toolCalls.length > 0
          ? 'tool_use'
          : 'end_turn',
    model: parts.model,
  };
};
