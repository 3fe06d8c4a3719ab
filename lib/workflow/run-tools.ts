import type { NewTranscriptEvent } from '../domain/transcript.ts';
import { controlState, type ControlState } from './control.ts';
import { lastModelResponse, toolResults, type ToolResultPayload } from './conversation.ts';
import type { WorkflowDependencies } from './dependencies.ts';
import { loadMasker, maskMapDocument } from './privacy.ts';
import { runStep } from './run-step.ts';

/**
 * Runs the tool calls of the last model turn. Arguments get their real values back only here,
 * and results are masked before they enter the transcript. Each result gets an evidence ref.
 */
export const runTools = async (dependencies: WorkflowDependencies, input: unknown): Promise<ControlState> => {
  const state = controlState.parse(input);
  return runStep(dependencies, state.investigationId, `run-tools#${state.iteration}`, async (head) => {
    const events = await dependencies.store.events(head.id);
    const calls = lastModelResponse(events)?.toolCalls ?? [];
    const { toolbox, now } = await dependencies.tools.load(head);
    const masker = await loadMasker(dependencies.store, head.id, dependencies.masking);
    const firstRef = toolResults(events).length + 1;
    const outcomes = await Promise.all(
      calls.map((call) => toolbox.execute({ ...call, arguments: masker.unmaskJson(call.arguments) }, { now })),
    );
    const recorded: NewTranscriptEvent[] = calls.flatMap((call, index) => {
      const outcome = outcomes[index]!;
      const ref = `E${firstRef + index}`;
      const result: ToolResultPayload = outcome.ok
        ? { toolCallId: call.id, name: call.name, ref, summary: outcome.summary, data: outcome.data }
        : { toolCallId: call.id, name: call.name, ref, summary: 'the tool call failed', error: outcome.error };
      return [
        { type: 'tool.call', payload: { ...call, sideEffect: toolbox.sideEffectOf(call.name) ?? 'unknown' } },
        { type: 'tool.result', payload: masker.maskJson(result) },
      ];
    });
    return {
      events: recorded,
      head: { ...head, usage: { ...head.usage, toolCalls: head.usage.toolCalls + calls.length } },
      documents: maskMapDocument(masker),
      outcome: { ...state, next: undefined },
    };
  });
};
