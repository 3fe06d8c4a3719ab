import { completeThroughGateway, LeakBlockedError } from '../model/gateway.ts';
import { contextWindowOf, costOf } from '../model/pricing.ts';
import { fitConversation } from '../context/index.ts';
import { tokenCounterFor } from '../context/token-estimate.ts';
import { recordRequest } from '../domain/recorded-request.ts';
import type { NewTranscriptEvent } from '../domain/transcript.ts';
import { parseFinalAnswer } from '../model/final-answer.ts';
import type { ModelRequest, ModelResponse } from '../model/port.ts';
import { budgetStop } from './budget.ts';
import { controlState, type ControlState } from './control.ts';
import { conversationOf } from './conversation.ts';
import { now, type StepDependencies } from './dependencies.ts';
import { modelCalledOnce } from './once.ts';
import { loadMasker, maskMapDocument } from './privacy.ts';
import { finalAnswerNudge, joinedTriggersNote } from './prompts.ts';
import { reviewDraft, revisionRequest } from './reflection.ts';
import { runStep } from './run-step.ts';

/** Model port names carry the provider (`openai:gpt-4o`, a chain joined by `>`); the window is the primary model's. */
const modelIdOf = (name: string): string => {
  const primary = name.split('>')[0]!;
  return primary.slice(primary.indexOf(':') + 1);
};

/**
 * One model turn: rebuild the conversation from the transcript, ask through the gateway, record both
 * sides. A final answer is reviewed against the evidence first, and revised once if it fails.
 */
export const callModel = async (dependencies: StepDependencies['call-model'], input: unknown): Promise<ControlState> => {
  const state = controlState.parse(input);
  const iteration = state.iteration + 1;
  return runStep(dependencies, state.investigationId, `call-model#${iteration}`, async (head) => {
    const stop = dependencies.budget ? budgetStop(head, dependencies.budget, now(dependencies)) : undefined;
    if (stop) {
      return {
        events: [{ type: 'error', payload: { error: 'BudgetExhausted', message: stop } }],
        head,
        outcome: { ...state, iteration, next: 'final', stopReason: `the investigation budget ran out: ${stop}` },
      };
    }
    const events = await dependencies.store.events(head.id);
    const { plan, tools, messages: history } = conversationOf(events);
    // Last, so a trigger that joined since the previous turn leaves the cached prefix of the conversation intact.
    const joined = (await dependencies.joinedTriggers?.joinedTriggers(head.id)) ?? [];
    const messages = joined.length > 0 ? [...history, { role: 'user' as const, content: joinedTriggersNote(joined) }] : history;
    const request: ModelRequest = state.finalOnly
      ? { system: plan.system, messages: [...messages, { role: 'user', content: finalAnswerNudge }], tools: [], toolChoice: 'none' }
      : { system: plan.system, messages, tools, toolChoice: 'auto' };
    const masker = await loadMasker(dependencies.store, head.id, dependencies.masking);
    const model = modelCalledOnce(dependencies.model, dependencies.store, head.id, `call-model#${iteration}`);
    const modelId = modelIdOf(dependencies.model.name);
    const { request: fitted } = fitConversation(request, dependencies.model.contextWindowTokens ?? contextWindowOf(modelId), { countTokens: await tokenCounterFor(modelId) });
    const first = await completeThroughGateway(model, masker, fitted).catch((error: unknown) => {
      if (error instanceof LeakBlockedError) return error;
      throw error;
    });
    // Masking could not make the request safe: the turn ends like a budget stop, with a finding that says why.
    if (first instanceof LeakBlockedError) {
      const reason = `masking blocked the model request (${first.message.replace(/^model request blocked: /, '')})`;
      return {
        events: [{ type: 'error', payload: { error: first.name, message: first.message } }],
        head,
        outcome: { ...state, iteration, next: 'final', stopReason: reason },
      };
    }
    const wantsTools = first.response.toolCalls.length > 0 && !state.finalOnly;
    const exchanges = [first];
    const recorded: NewTranscriptEvent[] = [
      { type: 'model.request', payload: recordRequest(first.request, events) },
      { type: 'model.response', payload: first.response, usage: first.response.usage },
    ];
    if (!wantsTools) {
      // A final answer is checked against the evidence; a failing draft gets one revision.
      const answer = parseFinalAnswer(first.response.text);
      const review = answer.ok ? reviewDraft(answer.draft, events) : { passed: false, problems: [answer.error] };
      recorded.push({ type: 'reflection', payload: { ...review, revisionRequested: !review.passed } });
      if (!review.passed) {
        const revision = await completeThroughGateway(model, masker, {
          system: plan.system,
          messages: [...fitted.messages, { role: 'assistant', content: first.response.text, toolCalls: [] }, { role: 'user', content: revisionRequest(review) }],
          tools: [],
          toolChoice: 'none',
        });
        exchanges.push(revision);
        const earlier = [...events, { type: 'model.request' as const, payload: first.request }, ...recorded.slice(1)];
        recorded.push(
          { type: 'model.request', payload: recordRequest(revision.request, earlier) },
          { type: 'model.response', payload: revision.response, usage: revision.response.usage },
        );
      }
    }
    const sum = (pick: (usage: ModelResponse['usage']) => number) => exchanges.reduce((total, exchange) => total + pick(exchange.response.usage), 0);
    return {
      events: recorded,
      head: {
        ...head,
        iterations: iteration,
        usage: {
          ...head.usage,
          modelCalls: head.usage.modelCalls + exchanges.length,
          inputTokens: head.usage.inputTokens + sum((usage) => usage.inputTokens),
          outputTokens: head.usage.outputTokens + sum((usage) => usage.outputTokens),
          cachedTokens: head.usage.cachedTokens + sum((usage) => usage.cachedTokens),
          costUsd: head.usage.costUsd + exchanges.reduce((total, exchange) => total + costOf(exchange.response.model, exchange.response.usage), 0),
        },
      },
      documents: maskMapDocument(masker),
      outcome: { ...state, iteration, next: wantsTools ? 'tools' : 'final' },
    };
  });
};
