import OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions/completions';
import type { ModelRequest, ModelResponse, ToolCall } from '../port.ts';
import {
  enforceToolChoice,
  inputSchemaOf,
  nonNegativeInt,
  pairToolMessages,
  parseArguments,
  toolsToDeclare,
  type AbortableModelPort,
  type CallOptions,
} from './conversation.ts';
import { classifyOpenAIError, ModelCallError } from './errors.ts';

export interface OpenAIChatModelOptions {
  /** The model id sent on the wire, e.g. `gpt-4o-mini`, or whatever an OpenAI-compatible server serves. */
  model: string;
  /** An injected client (tests, shared pools). When absent one is built from the options below. */
  client?: OpenAI;
  /** The API key, or an async function that returns it before each request (secret rotation). */
  apiKey?: string | (() => Promise<string>);
  /** Any OpenAI-compatible endpoint: LiteLLM, vLLM, Ollama (`http://127.0.0.1:11434/v1`), OpenRouter. */
  baseURL?: string;
  /** Output-token cap per call; not sent when absent (the server's default applies). */
  maxOutputTokens?: number;
  /**
   * The body field for `maxOutputTokens`. api.openai.com wants `max_completion_tokens` (the only one
   * reasoning models take); many compatible servers only know `max_tokens`. Default: the former without a
   * `baseURL`, the latter with one.
   */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
  /** The setting named when the credentials are rejected. */
  credentialSetting?: string;
  /** A custom fetch for the built client (tests). */
  fetch?: typeof fetch;
  /** The name this port reports; default `openai:<model>`. */
  name?: string;
}

/** The port over OpenAI Chat Completions, with function tools. The SDK never retries: resilience is ours. */
export class OpenAIChatModel implements AbortableModelPort {
  readonly name: string;
  readonly model: string;
  private readonly client: OpenAI;
  private readonly maxOutputTokens: number | undefined;
  private readonly maxTokensField: 'max_completion_tokens' | 'max_tokens';
  private readonly credentialSetting: string;

  constructor(options: OpenAIChatModelOptions) {
    this.model = options.model;
    this.name = options.name ?? `openai:${options.model}`;
    this.credentialSetting = options.credentialSetting ?? 'OPENAI_API_KEY';
    this.maxOutputTokens = options.maxOutputTokens;
    this.maxTokensField = options.maxTokensField ?? (options.baseURL === undefined ? 'max_completion_tokens' : 'max_tokens');
    this.client =
      options.client ??
      new OpenAI({
        apiKey: options.apiKey ?? (options.baseURL === undefined ? undefined : 'not-needed'),
        ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        maxRetries: 0,
      });
  }

  /** The wire body for a request; exposed for tests and debugging. */
  toWire(request: ModelRequest): ChatCompletionCreateParamsNonStreaming {
    const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: request.system }];
    for (const message of pairToolMessages(request.messages)) {
      if (message.role === 'user') messages.push({ role: 'user', content: message.content });
      else if (message.role === 'tool') messages.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
      else if (message.toolCalls.length === 0) messages.push({ role: 'assistant', content: message.content });
      else
        messages.push({
          role: 'assistant',
          content: message.content === '' ? null : message.content,
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        });
    }
    const tools: ChatCompletionTool[] = toolsToDeclare(request).map((spec) => ({
      type: 'function',
      function: { name: spec.name, description: spec.description, parameters: inputSchemaOf(spec) },
    }));
    return {
      model: this.model,
      messages,
      ...(tools.length > 0 ? { tools, tool_choice: request.toolChoice } : {}),
      ...(this.maxOutputTokens === undefined ? {} : { [this.maxTokensField]: this.maxOutputTokens }),
    };
  }

  /** The port's response for a wire completion; exposed for tests. */
  fromWire(completion: ChatCompletion): ModelResponse {
    const choice = completion.choices?.[0];
    if (!choice) {
      throw new ModelCallError({ kind: 'server', provider: this.name, message: `${this.name}: the completion has no choices` });
    }
    const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).map((call) =>
      call.type === 'custom'
        ? { id: call.id, name: call.custom.name, arguments: { _raw: call.custom.input } }
        : { id: call.id, name: call.function.name, arguments: parseArguments(call.function.arguments) },
    );
    const usage = completion.usage;
    const finish = choice.finish_reason;
    return {
      text: choice.message.content ?? choice.message.refusal ?? '',
      toolCalls,
      usage: {
        inputTokens: nonNegativeInt(usage?.prompt_tokens),
        outputTokens: nonNegativeInt(usage?.completion_tokens),
        cachedTokens: nonNegativeInt(usage?.prompt_tokens_details?.cached_tokens),
      },
      stopReason: finish === 'length' ? 'max_tokens' : toolCalls.length > 0 || finish === 'tool_calls' || finish === 'function_call' ? 'tool_use' : 'end_turn',
      model: completion.model || this.model,
    };
  }

  async complete(request: ModelRequest, options: CallOptions = {}): Promise<ModelResponse> {
    let completion: ChatCompletion;
    try {
      completion = await this.client.chat.completions.create(this.toWire(request), { signal: options.signal ?? null, maxRetries: 0 });
    } catch (error) {
      throw classifyOpenAIError(error, this.name, this.credentialSetting);
    }
    return enforceToolChoice(request, this.fromWire(completion));
  }
}
