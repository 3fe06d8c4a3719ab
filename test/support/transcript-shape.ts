import { expect } from 'vitest';
import type { TranscriptEvent } from '../../lib/domain/transcript.ts';

/**
 * The transcript holds every model and tool exchange in order: a plan, then model turns, each
 * request followed by its response and then, for each tool call the response asked for, the
 * call and its result; then the review of the final answer (and its revision), then the finding.
 */
export const expectCompleteTranscript = (events: readonly TranscriptEvent[]): void => {
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
  expect(events[0]?.type).toBe('plan');
  let index = 1;
  let turns = 0;
  let previousMessages = 0;
  while (events[index]?.type === 'model.request') {
    const request = events[index]!.payload as { messages: unknown[] };
    expect(request.messages.length).toBeGreaterThan(previousMessages);
    previousMessages = request.messages.length;
    const response = events[index + 1];
    expect(response?.type).toBe('model.response');
    expect(response?.usage).toBeDefined();
    const calls = (response!.payload as { toolCalls: { id: string; name: string }[] }).toolCalls;
    index += 2;
    for (const call of calls) {
      const callEvent = events[index];
      const resultEvent = events[index + 1];
      if (callEvent?.type !== 'tool.call') break;
      expect((callEvent.payload as { id: string }).id).toBe(call.id);
      expect(resultEvent?.type).toBe('tool.result');
      expect((resultEvent!.payload as { toolCallId: string }).toolCallId).toBe(call.id);
      index += 2;
    }
    turns += 1;
  }
  expect(turns).toBeGreaterThan(0);
  // A final answer is reviewed; a failing draft is followed by one revision exchange.
  if (events[index]?.type === 'reflection') {
    const revisionRequested = (events[index]!.payload as { revisionRequested: boolean }).revisionRequested;
    index += 1;
    if (revisionRequested) {
      expect(events.slice(index, index + 2).map((event) => event.type)).toEqual(['model.request', 'model.response']);
      index += 2;
    }
  }
  expect(events[index]?.type).toBe('finding');
};
