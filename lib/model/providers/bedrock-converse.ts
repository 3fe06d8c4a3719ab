import {
  BedrockRuntimeClient,
  ConverseCommand,
  type ContentBlock,
  type ConverseCommandInput,
  type ConverseCommandOutput,
  type Message,
  type Tool,
  type ToolInputSchema,
} from '@aws-sdk/client-bedrock-runtime';
import type { ModelRequest, ModelResponse, ToolCall } from '../port.ts';
import {
  argumentsOf,
  enforceToolChoice,
  hasToolTraffic,
  inputSchemaOf,
  responseFromParts,
  pairToolMessages,
  safeToolId,
  toolsToDeclare,
  type AbortableModelPort,
  type CallOptions,
} from './conversation.ts';
import { classifyBedrockError } from './errors.ts';

/** Bedrock's JSON document type, as the SDK declares it. */
type DocumentType = ToolInputSchema.JsonMember['json'];

export interface BedrockConverseModelOptions {
  /** A Bedrock model id or inference profile, e.g. `us.anthropic.claude-sonnet-4-20250514-v1:0`, `amazon.nova-pro-v1:0`. */
  model: string;
  /** An injected client (tests, or one shared with other code). When absent one is built with `maxAttempts: 1`. */
  client?: BedrockRuntimeClient;
  /** The region for a built client; default the SDK's chain (`AWS_REGION`). */
  region?: string;
  /** An endpoint override for a built client (VPC endpoints, local stand-ins). */
  endpoint?: string;
  /** `inferenceConfig.maxTokens`; default 4096. */
  maxOutputTokens?: number;
  /** The setting named when the credentials are rejected. */
  credentialSetting?: string;
  /** The name this port reports; default `bedrock:<model>`. */
  name?: string;
}

/** The port over Bedrock's Converse API. The client's own retries are off (`maxAttempts: 1`): resilience is ours. */
export class BedrockConverseModel implements AbortableModelPort {
  readonly name: string;
  readonly model: string;
  private readonly client: BedrockRuntimeClient;
  private readonly maxOutputTokens: number;
  private readonly credentialSetting: string | undefined;

  constructor(options: BedrockConverseModelOptions) {
    this.model = options.model;
    this.name = options.name ?? `bedrock:${options.model}`;
    this.maxOutputTokens = options.maxOutputTokens ?? 4096;
    this.credentialSetting = options.credentialSetting;
    this.client =
      options.client ??
      new BedrockRuntimeClient({
        maxAttempts: 1,
        ...(options.region === undefined ? {} : { region: options.region }),
        ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      });
  }

  /**
   * The Converse input for a request; exposed for tests. Bedrock rejects a conversation holding
   * toolUse/toolResult blocks without a toolConfig, and has no "none" tool choice: with
   * `toolChoice: 'none'` the request's tools are left out, but a toolConfig declaring the tools
   * the history used stays whenever the history has tool blocks (and tool calls in the reply are dropped).
   */
  toWire(request: ModelRequest): ConverseCommandInput {
    const messages: Message[] = [];
    const append = (role: 'user' | 'assistant', blocks: ContentBlock[]): void => {
      if (blocks.length === 0) return;
      const last = messages.at(-1);
      if (last && last.role === role) last.content = [...(last.content ?? []), ...blocks];
      else messages.push({ role, content: blocks });
    };
    for (const message of pairToolMessages(request.messages)) {
      if (message.role === 'user') {
        append('user', message.content.trim() === '' ? [] : [{ text: message.content }]);
      } else if (message.role === 'tool') {
        append('user', [{ toolResult: { toolUseId: safeToolId(message.toolCallId), content: [{ text: message.content === '' ? '(empty)' : message.content }] } }]);
      } else {
        append('assistant', [
          ...(message.content.trim() === '' ? [] : [{ text: message.content }]),
          ...message.toolCalls.map((call): ContentBlock => ({
            toolUse: { toolUseId: safeToolId(call.id), name: call.name, input: call.arguments as DocumentType },
          })),
        ]);
      }
    }
    const declared =
      request.toolChoice === 'none'
        ? hasToolTraffic(request.messages)
          ? toolsToDeclare({ ...request, tools: [] })
          : []
        : toolsToDeclare(request);
    const tools: Tool[] = declared.map((spec) => ({
      toolSpec: { name: spec.name, description: spec.description, inputSchema: { json: inputSchemaOf(spec) as DocumentType } },
    }));
    return {
      modelId: this.model,
      system: request.system.trim() === '' ? [] : [{ text: request.system }],
      messages,
      inferenceConfig: { maxTokens: this.maxOutputTokens },
      ...(tools.length > 0 ? { toolConfig: { tools } } : {}),
    };
  }

  /** The port's response for a Converse output; exposed for tests. */
  fromWire(output: ConverseCommandOutput): ModelResponse {
    const text: string[] = [];
    const toolCalls: ToolCall[] = [];
    for (const block of output.output?.message?.content ?? []) {
      if (block.text !== undefined) text.push(block.text);
      else if (block.toolUse !== undefined) {
        toolCalls.push({ id: block.toolUse.toolUseId ?? `tool_${toolCalls.length + 1}`, name: block.toolUse.name ?? '', arguments: argumentsOf(block.toolUse.input) });
      }
    }
    return responseFromParts({
      text,
      toolCalls,
      inputTokens: output.usage?.inputTokens,
      outputTokens: output.usage?.outputTokens,
      cacheReadTokens: output.usage?.cacheReadInputTokens,
      cacheWriteTokens: output.usage?.cacheWriteInputTokens,
      stopReason: output.stopReason,
      model: this.model,
    });
  }

  async complete(request: ModelRequest, options: CallOptions = {}): Promise<ModelResponse> {
    let output: ConverseCommandOutput;
    try {
      output = await this.client.send(new ConverseCommand(this.toWire(request)), options.signal ? { abortSignal: options.signal } : {});
    } catch (error) {
      throw classifyBedrockError(error, this.name, this.credentialSetting);
    }
    return enforceToolChoice(request, this.fromWire(output));
  }
}
