import { completeThroughGateway } from '../model/gateway.ts';
import { costOf } from '../model/pricing.ts';
import type { ModelRequest } from '../model/port.ts';
import { budgetStop } from './budget.ts';
import { controlState, type ControlState } from './control.ts';
import { conversationOf } from './conversation.ts';
import { now, type WorkflowDependencies } from './dependencies.ts';
import { loadMasker, maskMapDocument } from './privacy.ts';
import { finalAnswerNudge } from './prompts.ts';
import { runStep } from './run-step.ts';

/** One model turn: rebuild the conversation from the transcript, ask through the gateway, record both sides. */
export const callModel = async (dependencies: WorkflowDependencies, input: unknown): Promise<ControlState> => {
  const state = controlState.parse(input);
  const iteration = state.iteration + 1;
  return runStep(dependencies, state.investigationId, `call-model#${iteration}`, async (head) => {
    const stop = dependencies.budget ? budgetStop(head, dependencies.budget, now(dependencies)) : undefined;
    if (stop) {
      return {
        events: [{ type: 'error', payload: { error: 'BudgetExhausted', message: stop } }],
        head,
        outcome: { ...state, iteration, next: 'final', stopReason: stop },
      };
    }
    const events = await dependencies.store.events(head.id);
    const { plan, tools, messages } = conversationOf(events);
    const request: ModelRequest = state.finalOnly
      ? { system: plan.system, messages: [...messages, { role: 'user', content: finalAnswerNudge }], tools: [], toolChoice: 'none' }
      : { system: plan.system, messages, tools, toolChoice: 'auto' };
    const masker = await loadMasker(dependencies.store, head.id, dependencies.masking);
    const { request: seen, response } = await completeThroughGateway(dependencies.model, masker, request);
    const wantsTools = response.toolCalls.length > 0 && !state.finalOnly;
    return {
      events: [
        { type: 'model.request', payload: seen },
        { type: 'model.response', payload: response, usage: response.usage },
      ],
      head: {
        ...head,
        iterations: iteration,
        usage: {
          ...head.usage,
          modelCalls: head.usage.modelCalls + 1,
          inputTokens: head.usage.inputTokens + response.usage.inputTokens,
          outputTokens: head.usage.outputTokens + response.usage.outputTokens,
          cachedTokens: head.usage.cachedTokens + response.usage.cachedTokens,
          costUsd: head.usage.costUsd + costOf(response.model, response.usage),
        },
      },
      documents: maskMapDocument(masker),
      outcome: { ...state, iteration, next: wantsTools ? 'tools' : 'final' },
    };
  });
};
