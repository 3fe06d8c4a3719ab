import { z } from 'zod';
import { modelResponse, toolSpec, type ChatMessage } from '../model/port.ts';
import type { TranscriptEvent } from './transcript.ts';

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

export const openingMessage = (plan: PlanPayload): string =>
  `${plan.brief}\n\nPlan:\n${plan.checklist.map((item, index) => `${index + 1}. ${item}`).join('\n')}`;

export const toolResultContent = (result: ToolResultPayload): string =>
  JSON.stringify(result.error === undefined
    ? { ref: result.ref, summary: result.summary, data: result.data }
    : { ref: result.ref, error: result.error });

/**
 * The chat message a transcript event adds to the conversation: the plan opens it, each model
 * response is the assistant's turn, each tool result answers a call. Other events add none.
 */
export const messageOf = (event: Pick<TranscriptEvent, 'type' | 'payload'>): ChatMessage | undefined => {
  switch (event.type) {
    case 'plan':
      return { role: 'user', content: openingMessage(planPayload.parse(event.payload)) };
    case 'model.response': {
      const response = modelResponse.parse(event.payload);
      return { role: 'assistant', content: response.text, toolCalls: response.toolCalls };
    }
    case 'tool.result': {
      const result = toolResultPayload.parse(event.payload);
      return { role: 'tool', toolCallId: result.toolCallId, name: result.name, content: toolResultContent(result) };
    }
    default:
      return undefined;
  }
};
