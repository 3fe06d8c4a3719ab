import Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { ModelRequest, ModelResponse, ToolCall } from '../port.ts';
import {
  argumentsOf,
  enforceToolChoice,
  inputSchemaOf,
  responseFromParts,
  pairToolMessages,
  safeToolId,
  toolsToDeclare,
  type AbortableModelPort,
  type CallOptions,
} from './conversation.ts';
import { classifyAnthropicError } from './errors.ts';

export interface AnthropicMessagesModelOptions {
  /** The model id, e.g. `claude-sonnet-4-20250514`. */
  model: string;
  /** An injected client (tests). When absent one is built from the options below. */
  client?: Anthropic;
  /** The API key, or an async function that returns it before each request (secret rotation). */
  apiKey?: string | (() => Promise<string>);
  /** An Anthropic-compatible endpoint (e.g. a LiteLLM proxy); default the SDK's. */
  baseURL?: string;
  /** `max_tokens` on every call; default 4096. */
  maxOutputTokens?: number;
  /**
   * The SDK's own per-request timeout (default 10 minutes). Passing it also skips the SDK's refusal of
   * non-streaming calls with a large `max_tokens`; the resilience layer's timeout is normally the shorter one.
   */
  requestTimeoutMs?: number;
  /** The setting named when the credentials are rejected. */
  credentialSetting?: string;
  fetch?: typeof fetch;
  /** The name this port reports; default `anthropic:<model>`. */
  name?: string;
}

/** The port over the Anthropic Messages API with client tools. The SDK never retries: resilience is ours. */
export class AnthropicMessagesModel implements AbortableModelPort {
  readonly name: string;
  readonly model: string;
  private readonly client: Anthropic;
  private readonly maxOutputTokens: number;
  private readonly credentialSetting: string;
  private readonly requestTimeoutMs: number;

  constructor(options: AnthropicMessagesModelOptions) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? 10 * 60_000;
    this.model = options.model;
    this.name = options.name ?? `anthropic:${options.model}`;
    this.maxOutputTokens = options.maxOutputTokens ?? 4096;
    this.credentialSetting = options.credentialSetting ?? 'ANTHROPIC_API_KEY';
    this.client =
      options.client ??
      new Anthropic({
        ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
        ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        maxRetries: 0,
      });
  }

  /** The wire body for a request; exposed for tests and debugging. */
  toWire(request: ModelRequest): MessageCreateParamsNonStreaming {
    const messages: MessageParam[] = [];
    /** Appends blocks to the conversation, merging into the previous message when the role repeats. */
    const append = (role: 'user' | 'assistant', blocks: ContentBlockParam[]): void => {
      if (blocks.length === 0) return;
      const last = messages.at(-1);
      if (last && last.role === role && Array.isArray(last.content)) last.content.push(...blocks);
      else messages.push({ role, content: blocks });
    };
    for (const message of pairToolMessages(request.messages)) {
      if (message.role === 'user') {
        append('user', message.content.trim() === '' ? [] : [{ type: 'text', text: message.content }]);
      } else if (message.role === 'tool') {
        append('user', [{ type: 'tool_result', tool_use_id: safeToolId(message.toolCallId), content: message.content }]);
      } else {
        append('assistant', [
          ...(message.content.trim() === '' ? [] : [{ type: 'text' as const, text: message.content }]),
          ...message.toolCalls.map((call) => ({ type: 'tool_use' as const, id: safeToolId(call.id), name: call.name, input: call.arguments })),
        ]);
      }
    }
    const tools: Tool[] = toolsToDeclare(request).map((spec) => ({
      name: spec.name,
      description: spec.description,
      input_schema: inputSchemaOf(spec) as Tool['input_schema'],
    }));
    return {
      model: this.model,
      max_tokens: this.maxOutputTokens,
      system: request.system,
      messages,
      ...(tools.length > 0 ? { tools, tool_choice: { type: request.toolChoice } } : {}),
    };
  }

  /** The port's response for a wire message; exposed for tests. */
  fromWire(message: Message): ModelResponse {
    const text: string[] = [];
    const toolCalls: ToolCall[] = [];
    for (const block of message.content ?? []) {
      if (block.type === 'text') text.push(block.text);
      else if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: block.name, arguments: argumentsOf(block.input) });
    }
    return responseFromParts({
      text,
      toolCalls,
      inputTokens: message.usage?.input_tokens,
      outputTokens: message.usage?.output_tokens,
      cacheReadTokens: message.usage?.cache_read_input_tokens,
      cacheWriteTokens: message.usage?.cache_creation_input_tokens,
      stopReason: message.stop_reason,
      model: message.model || this.model,
    });
  }

  async complete(request: ModelRequest, options: CallOptions = {}): Promise<ModelResponse> {
    let message: Message;
    try {
      message = await this.client.messages.create(this.toWire(request), { signal: options.signal ?? null, maxRetries: 0, timeout: this.requestTimeoutMs });
    } catch (error) {
      throw classifyAnthropicError(error, this.name, this.credentialSetting);
    }
    return enforceToolChoice(request, this.fromWire(message));
  }
}
