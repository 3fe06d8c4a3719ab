import { z } from 'zod';
import type { TranscriptEvent } from '../domain/transcript.ts';
import { modelResponse, toolSpec, type ChatMessage, type ModelResponse, type ToolSpec } from '../model/port.ts';

/** The plan event's payload: what every model request starts from. */
export const planPayload = z.object({
  system: z.string(),
  brief: z.string(),
  checklist: z.array(z.string()),
  tools: z.array(toolSpec),
});
export type PlanPayload = z.infer<typeof planPayload>;

/** The tool.result event's payload, exactly as the model reads it. */
export const toolResultPayload = z.object({
  toolCallId: z.string(),
  name: z.string(),
  ref: z.string(),
  summary: z.string(),
  data: z.unknown().optional(),
  error: z.string().optional(),
});
export type ToolResultPayload = z.infer<typeof toolResultPayload>;

export const planOf = (events: readonly TranscriptEvent[]): PlanPayload => {
  const plan = events.find((event) => event.type === 'plan');
  if (!plan) throw new Error('the transcript has no plan event');
  return planPayload.parse(plan.payload);
};

export const openingMessage = (plan: PlanPayload): string =>
  `${plan.brief}\n\nPlan:\n${plan.checklist.map((item, index) => `${index + 1}. ${item}`).join('\n')}`;

export const toolResultContent = (result: ToolResultPayload): string =>
  JSON.stringify(result.error === undefined
    ? { ref: result.ref, summary: result.summary, data: result.data }
    : { ref: result.ref, error: result.error });

/** Rebuilds the conversation from the transcript, so every step sees the same history. */
export const conversationOf = (events: readonly TranscriptEvent[]): { plan: PlanPayload; tools: ToolSpec[]; messages: ChatMessage[] } => {
  const plan = planOf(events);
  const messages: ChatMessage[] = [{ role: 'user', content: openingMessage(plan) }];
  for (const event of events) {
    if (event.type === 'model.response') {
      const response = modelResponse.parse(event.payload);
      messages.push({ role: 'assistant', content: response.text, toolCalls: response.toolCalls });
    } else if (event.type === 'tool.result') {
      const result = toolResultPayload.parse(event.payload);
      messages.push({ role: 'tool', toolCallId: result.toolCallId, name: result.name, content: toolResultContent(result) });
    }
  }
  return { plan, tools: plan.tools, messages };
};

export const lastModelResponse = (events: readonly TranscriptEvent[]): ModelResponse | undefined => {
  const last = [...events].reverse().find((event) => event.type === 'model.response');
  return last ? modelResponse.parse(last.payload) : undefined;
};

export const toolResults = (events: readonly TranscriptEvent[]): ToolResultPayload[] =>
  events.filter((event) => event.type === 'tool.result').map((event) => toolResultPayload.parse(event.payload));
