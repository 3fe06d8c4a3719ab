import { z } from 'zod';
import { tokenUsage } from '../domain/usage.ts';

/** A tool as a model sees it: name, description and a JSON Schema for its arguments. */
export const toolSpec = z.object({
  name: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
});
export type ToolSpec = z.infer<typeof toolSpec>;

export const toolCall = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});
export type ToolCall = z.infer<typeof toolCall>;

/** Provider-neutral chat messages; they map one to one onto OpenAI Chat Completions and Anthropic Messages. */
export const chatMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string().default(''), toolCalls: z.array(toolCall).default([]) }),
  z.object({ role: z.literal('tool'), toolCallId: z.string(), name: z.string(), content: z.string() }),
]);
export type ChatMessage = z.infer<typeof chatMessage>;

export const modelRequest = z.object({
  system: z.string(),
  messages: z.array(chatMessage),
  tools: z.array(toolSpec),
  /** `none` asks for the final answer: the model may not call tools. */
  toolChoice: z.enum(['auto', 'none']),
});
export type ModelRequest = z.infer<typeof modelRequest>;

export const modelResponse = z.object({
  text: z.string().default(''),
  toolCalls: z.array(toolCall).default([]),
  usage: tokenUsage,
  stopReason: z.enum(['tool_use', 'end_turn', 'max_tokens']),
  model: z.string(),
});
export type ModelResponse = z.infer<typeof modelResponse>;

/** The model port: one request in, one response out. Adapters speak a provider's wire format. */
export interface ModelPort {
  readonly name: string;
  /** How many tokens the model can read at once, when the adapter knows better than the model-family table. */
  readonly contextWindowTokens?: number;
  complete(request: ModelRequest): Promise<ModelResponse>;
}
