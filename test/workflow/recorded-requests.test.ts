import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioReplaySource } from '../../integrations/scenario/replay-source.ts';
import { recordRequest, rebuildRequests } from '../../lib/domain/recorded-request.ts';
import type { TranscriptEvent } from '../../lib/domain/transcript.ts';
import { messageOf } from '../../lib/domain/transcript-messages.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import { runWorkflowLocally } from '../../local/run-workflow.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { freshStore } from '../support/dynamodb.ts';
import { ScriptedModel, finalAnswer } from '../support/scripted-model.ts';
import { expectCompleteTranscript } from '../support/transcript-shape.ts';

const scenario = parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, 'bad-deploy-cascade.json'), 'utf8'), 'bad-deploy-cascade.json');

const bytesOf = (events: readonly TranscriptEvent[]) => events.reduce((total, event) => total + JSON.stringify(event.payload).length, 0);

describe('model requests stored by reference', () => {
  it('rebuilds exactly the requests the model received, a revision included, from a transcript that holds each message once', async () => {
    const { store } = await freshStore();
    await store.putSnapshot('env', { now: scenario.now, environment: scenario.environment });
    // Five tool turns, then a draft citing evidence that does not exist (revised once), then a good answer.
    const model = new ScriptedModel((_, turn) =>
      turn <= 5
        ? { toolCalls: [{ id: `call_${turn}`, name: 'query_logs', arguments: { sinceMinutes: 10 * turn, limit: 20 } }] }
        : turn === 6
          ? { text: finalAnswer('inventory-api').replace('"E1"', '"E99"') }
          : { text: finalAnswer('inventory-api') },
    );
    const dependencies = { store, model, tools: new ScenarioReplaySource(store), notifier: new RecordingNotifier() };
    const run = await runWorkflowLocally({
      dependencies,
      input: { trigger: scenario.trigger, investigationId: 'by-reference', toolSource: { kind: 'scenario-replay', snapshot: 'env' } },
    });
    expect(run.status).toBe('SUCCEEDED');
    expect(model.requests).toHaveLength(7);

    const events = await store.events('by-reference');
    expectCompleteTranscript(events);
    expect(events.filter((event) => event.type === 'model.request').map((event) => event.payload)).toEqual(model.requests);

    const stored = await store.storedEvents('by-reference');
    const storedRequests = stored.filter((event) => event.type === 'model.request').map((event) => event.payload as { system: unknown; messages: unknown[] });
    expect(storedRequests.slice(1).every((request) => typeof request.system === 'object')).toBe(true);
    // Stored whole only once, and only when no event holds it (results the context budget evicted, the revision request).
    const derived = new Set(stored.flatMap((event) => JSON.stringify(messageOf(event)) ?? []));
    const inline = storedRequests.flatMap((request) => request.messages).filter((message) => !('sameAs' in (message as object))).map((message) => JSON.stringify(message));
    expect(inline.length).toBeGreaterThan(0);
    expect(new Set(inline).size).toBe(inline.length);
    expect(inline.filter((message) => derived.has(message))).toEqual([]);
    expect(bytesOf(stored)).toBeLessThan(bytesOf(events) / 2);
  });

  it('names the event whose reference points at nothing recorded before it', () => {
    const request = { system: 'be brief', messages: [{ role: 'user' as const, content: 'hello' }], tools: [], toolChoice: 'auto' as const };
    const first = { seq: 1, at: '2026-04-06T00:00:00Z', step: 'call-model#1', type: 'model.request' as const, payload: recordRequest(request, []) };
    const second = { ...first, seq: 2, step: 'call-model#2', payload: recordRequest(request, [{ type: 'model.request', payload: request }]) };
    expect(rebuildRequests([first, second]).map((event) => event.payload)).toEqual([request, request]);
    expect(() => rebuildRequests([second])).toThrow(/event 2 \(model.request\) refers to [0-9a-f]+, which no earlier event holds/);
  });
});
