import type { NewTranscriptEvent } from '../domain/transcript.ts';
import { capToolResult } from '../context/index.ts';
import type { TranscriptEvent } from '../domain/transcript.ts';
import { toolCall, type ToolCall } from '../model/port.ts';
import { callFingerprint } from '../tools/call-fingerprint.ts';
import { controlState, type ControlState } from './control.ts';
import { lastModelResponse, toolResultPayload, toolResults, type ToolResultPayload } from './conversation.ts';
import type { StepDependencies } from './dependencies.ts';
import { loadMasker, maskMapDocument } from './privacy.ts';
import { runStep } from './run-step.ts';

/** Per-result cap: the head, the tail and the salient middle of a large result fit in this many tokens. */
const DEFAULT_TOOL_RESULT_TOKENS = 10_000;

const capped = (result: ToolResultPayload, capTokens: number): ToolResultPayload => {
  const { data, capped: wasCapped, originalTokens } = capToolResult(result.data, capTokens);
  return wasCapped ? { ...result, data, summary: `${result.summary} (capped from about ${originalTokens} tokens)` } : result;
};

/** Calls run per turn unless SRE_AGENT_MAX_TOOL_CALLS_PER_TURN says otherwise: a turn's results commit as one step. */
export const DEFAULT_MAX_TOOL_CALLS_PER_TURN = 16;

/** After this many turns in a row of nothing but repeated calls, the model is asked for its answer. */
const STAGNANT_TURNS_LIMIT = 2;

const fingerprintOf = (call: ToolCall): string => callFingerprint(call.name, call.arguments);

/** Every call made so far, by fingerprint, with the evidence ref of its result (each call is followed by its result). */
const earlierCalls = (events: readonly TranscriptEvent[]): Map<string, string> => {
  const calls = new Map<string, string>();
  events.forEach((event, index) => {
    const next = events[index + 1];
    if (event.type !== 'tool.call' || next?.type !== 'tool.result') return;
    const fingerprint = fingerprintOf(toolCall.parse(event.payload));
    if (!calls.has(fingerprint)) calls.set(fingerprint, toolResultPayload.parse(next.payload).ref);
  });
  return calls;
};

const stagnation = (state: ControlState, allRepeats: boolean): ControlState => {
  const stagnantTurns = allRepeats ? state.stagnantTurns + 1 : 0;
  return { ...state, next: undefined, stagnantTurns, finalOnly: state.finalOnly || stagnantTurns >= STAGNANT_TURNS_LIMIT };
};

/**
 * Runs the tool calls of the last model turn. A call identical to an earlier one is not run again:
 * its result points at the earlier evidence. Arguments get their real values back only here,
 * and results are masked before they enter the transcript. Each result gets an evidence ref. Calls
 * beyond the per-turn cap are answered without running, so the model can ask for them again.
 * Read-only calls run in parallel; calls that need a human approval are left to the approval loop,
 * which runs them one at a time, each only after its own approval.
 */
export const runTools = async (dependencies: StepDependencies['run-tools'], input: unknown): Promise<ControlState> => {
  const state = controlState.parse(input);
  return runStep(dependencies, state.investigationId, `run-tools#${state.iteration}`, async (head) => {
    const events = await dependencies.store.events(head.id);
    const calls = lastModelResponse(events)?.toolCalls ?? [];
    const { toolbox, now } = await dependencies.tools.load(head);
    const masker = await loadMasker(dependencies.store, head.id, dependencies.masking);
    const earlier = earlierCalls(events);
    const firstRef = toolResults(events).length + 1;
    const cap = dependencies.maxToolCallsPerTurn ?? DEFAULT_MAX_TOOL_CALLS_PER_TURN;
    const allowed = calls.slice(0, cap);
    const unmasked = (call: ToolCall): ToolCall => ({ ...call, arguments: masker.unmaskJson(call.arguments) });
    // A call that changes something waits for a human: it is not run here, and its result comes after the decision.
    const awaitingApproval = new Set(
      allowed.filter((call) => !earlier.has(fingerprintOf(call)) && toolbox.needsApproval(unmasked(call))).map((call) => call.id),
    );
    const outcomes = await Promise.all(
      allowed.map((call) =>
        earlier.has(fingerprintOf(call)) || awaitingApproval.has(call.id) ? undefined : toolbox.execute(unmasked(call), { now }),
      ),
    );
    const answered = calls.filter((call) => !awaitingApproval.has(call.id));
    const recorded: NewTranscriptEvent[] = answered.flatMap((call, position) => {
      const index = calls.indexOf(call);
      const outcome = outcomes[index];
      const ref = `E${firstRef + position}`;
      const repeatOf = earlier.get(fingerprintOf(call));
      const result: ToolResultPayload =
        index >= cap
          ? { toolCallId: call.id, name: call.name, ref, summary: 'not run', error: `not run: over the per-turn cap of ${cap} tool calls; ask again in a later turn` }
          : outcome === undefined
          ? { toolCallId: call.id, name: call.name, ref, summary: `repeats an earlier call; see ${repeatOf}`, data: { repeatOf, note: `This exact call was already made; its result is ${repeatOf}.` } }
          : outcome.ok
            ? capped({ toolCallId: call.id, name: call.name, ref, summary: outcome.summary, data: outcome.data }, dependencies.toolResultTokens ?? DEFAULT_TOOL_RESULT_TOKENS)
            : { toolCallId: call.id, name: call.name, ref, summary: 'the tool call failed', error: outcome.error };
      return [
        { type: 'tool.call', payload: { ...call, sideEffect: toolbox.sideEffectOf(call.name) ?? 'unknown' } },
        { type: 'tool.result', payload: masker.maskJson(result) },
      ];
    });
    const ran = allowed.filter((call, index) => outcomes[index] !== undefined).length;
    return {
      events: recorded,
      head: { ...head, usage: { ...head.usage, toolCalls: head.usage.toolCalls + ran } },
      documents: maskMapDocument(masker),
      outcome: {
        ...stagnation(state, allowed.length > 0 && awaitingApproval.size === 0 && ran === 0),
        pendingApprovals: [...awaitingApproval],
      },
    };
  });
};
