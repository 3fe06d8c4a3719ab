import type { TranscriptEvent } from '../domain/transcript.ts';
import { messageOf, planPayload, toolResultPayload, type PlanPayload, type ToolResultPayload } from '../domain/transcript-messages.ts';
import { modelResponse, type ChatMessage, type ModelResponse, type ToolSpec } from '../model/port.ts';

export { openingMessage, planPayload, toolResultContent, toolResultPayload, type PlanPayload, type ToolResultPayload } from '../domain/transcript-messages.ts';

export const planOf = (events: readonly TranscriptEvent[]): PlanPayload => {
  const plan = events.find((event) => event.type === 'plan');
  if (!plan) throw new Error('the transcript has no plan event');
  return planPayload.parse(plan.payload);
};

/** Rebuilds the conversation from the transcript, so every step sees the same history. */
export const conversationOf = (events: readonly TranscriptEvent[]): { plan: PlanPayload; tools: ToolSpec[]; messages: ChatMessage[] } => {
  const plan = planOf(events);
  const messages = events.flatMap((event) => messageOf(event) ?? []);
  return { plan, tools: plan.tools, messages };
};

export const lastModelResponse = (events: readonly TranscriptEvent[]): ModelResponse | undefined => {
  const last = [...events].reverse().find((event) => event.type === 'model.response');
  return last ? modelResponse.parse(last.payload) : undefined;
};

export const toolResults = (events: readonly TranscriptEvent[]): ToolResultPayload[] =>
  events.filter((event) => event.type === 'tool.result').map((event) => toolResultPayload.parse(event.payload));
