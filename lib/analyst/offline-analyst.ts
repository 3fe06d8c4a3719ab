import type { ModelPort, ModelRequest, ModelResponse } from '../model/port.ts';
import { diagnose, type Diagnosis } from './diagnose.ts';
import type { FindingDraft } from '../domain/finding.ts';
import { readEvidence, type EvidenceBoard } from './evidence-board.ts';
import { nextCalls } from './next-tools.ts';

/** Evidence the analysis could not read is named in the finding, so a reader knows what it lacked. */
const withUnreadableNoted = (draft: FindingDraft, board: EvidenceBoard): FindingDraft =>
  board.unreadable.length === 0
    ? draft
    : { ...draft, followUps: [...draft.followUps, ...board.unreadable.map(({ ref, tool, problem }) => `Could not read ${tool} result ${ref}: ${problem}`)] };

/** The final answer: the finding draft, and the names of the principles that shaped it. */
const finalAnswer = (diagnosis: Diagnosis, board: EvidenceBoard): string => JSON.stringify({ ...withUnreadableNoted(diagnosis.draft, board), principles: diagnosis.principles });

/** A rough token count (about four characters a token), so offline runs report comparable usage. */
const estimateTokens = (value: unknown): number => Math.ceil(JSON.stringify(value).length / 4);

/**
 * The offline analyst: a deterministic investigator behind the model port. It reads the tool
 * results in the conversation (the same masked view a hosted model gets), decides which tools
 * to call next, and answers with a finding built from the evidence. It knows nothing about any
 * particular incident.
 */
export class OfflineAnalyst implements ModelPort {
  readonly name = 'offline-analyst';
  /** It reads every tool result in memory; nothing needs evicting for it. The per-result cap still applies. */
  readonly contextWindowTokens = 10_000_000;

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const board = readEvidence(request.messages);
    const diagnosis = board.asked.size === 0 ? undefined : diagnose(board);
    const calls = request.toolChoice === 'none' ? [] : nextCalls(board, diagnosis, request.tools);
    const turn = request.messages.filter((message) => message.role === 'assistant').length + 1;
    const response: Omit<ModelResponse, 'usage'> =
      calls.length > 0
        ? {
            text: '',
            toolCalls: calls.map((call, index) => ({ id: `call_${turn}_${index + 1}`, name: call.name, arguments: call.arguments })),
            stopReason: 'tool_use',
            model: this.name,
          }
        : {
            // The principles travel with the answer into the transcript; the finding's contract has no field for them.
            text: finalAnswer(diagnosis ?? diagnose(board), board),
            toolCalls: [],
            stopReason: 'end_turn',
            model: this.name,
          };
    return { ...response, usage: { inputTokens: estimateTokens(request), outputTokens: estimateTokens(response), cachedTokens: 0 } };
  }
}
