/**
 * Transcript size: does a long investigation store each message once?
 *
 * Runs a scripted 30-turn investigation of a bundled scenario through the local workflow on an
 * in-memory DynamoDB Local: turns 1-29 each ask for one new tool call, turn 30 answers. Reported:
 *   storedBytes  the JSON bytes of every event payload as the store keeps it (model requests by reference);
 *   uniqueBytes  the JSON bytes of the distinct messages of the investigation: each system prompt, tool
 *                list and chat message the model received, and each response it gave, counted once;
 *   ratio        storedBytes / uniqueBytes (target <= 1.5; a transcript that stores every request whole grows
 *                with the square of the turns).
 *
 * `npx tsx bench/transcript.ts` prints the JSON.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TranscriptEvent } from '../lib/domain/transcript.ts';
import { modelRequest, modelResponse, type ModelPort, type ModelRequest, type ModelResponse } from '../lib/model/port.ts';
import { RecordingNotifier } from '../lib/notify/recording-notifier.ts';
import { DynamoDbStore } from '../lib/store/dynamodb-store.ts';
import { ensureTable, startDynamoDbLocal } from '../local/dynamodb-local.ts';
import { loadScenario } from '../local/scenario-files.ts';
import { investigateScenario } from '../local/session.ts';

export interface TranscriptBench {
  turns: number;
  storedBytes: number;
  uniqueBytes: number;
  ratio: number;
}

const TURNS = 30;

const finalAnswer = JSON.stringify({
  incident: true,
  rootCause: { service: 'inventory-api', category: 'deploy', summary: 'inventory-api broke after a deploy' },
  confidence: 0.8,
  evidence: [{ ref: 'E1', summary: 'logs' }],
  remediation: [{ action: 'rollback', target: 'inventory-api', detail: 'previous version' }],
});

/** One new log query a turn (a repeated call would end the loop early), then the answer. */
class ThirtyTurnModel implements ModelPort {
  readonly name = 'scripted';
  readonly contextWindowTokens = 1_000_000;
  turns = 0;

  async complete(request: ModelRequest): Promise<ModelResponse> {
    this.turns += 1;
    const asksForTools = request.toolChoice === 'auto' && this.turns < TURNS;
    return {
      text: asksForTools ? '' : finalAnswer,
      toolCalls: asksForTools ? [{ id: `call_${this.turns}`, name: 'query_logs', arguments: { sinceMinutes: 10 * this.turns, limit: 20 } }] : [],
      stopReason: asksForTools ? 'tool_use' : 'end_turn',
      usage: { inputTokens: 100, outputTokens: 10, cachedTokens: 0 },
      model: this.name,
    };
  }
}

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** Each system prompt, tool list, message and response of the investigation, once. */
export const uniqueMessageBytes = (events: readonly TranscriptEvent[]): number => {
  const distinct = new Set<string>();
  for (const event of events) {
    if (event.type === 'model.request') {
      const request = modelRequest.parse(event.payload);
      for (const piece of [request.system, request.tools, ...request.messages]) distinct.add(JSON.stringify(piece));
    } else if (event.type === 'model.response') {
      const response = modelResponse.parse(event.payload);
      distinct.add(JSON.stringify({ role: 'assistant', content: response.text, toolCalls: response.toolCalls }));
    }
  }
  return [...distinct].reduce((total, text) => total + Buffer.byteLength(text), 0);
};

export async function runTranscriptBench(): Promise<TranscriptBench> {
  const database = await startDynamoDbLocal();
  try {
    const tableName = 'bench-transcript';
    await ensureTable(database.client, tableName);
    const store = new DynamoDbStore({ client: database.client, tableName });
    const model = new ThirtyTurnModel();
    const run = await investigateScenario({ store, notifier: new RecordingNotifier() }, loadScenario('bad-deploy-cascade'), model, {
      maxIterations: TURNS,
    });
    if (run.investigation.status !== 'succeeded') throw new Error(`the scripted investigation ${run.investigation.status}: ${run.execution.error ?? ''}`);
    const stored = await store.storedEvents(run.investigationId);
    const storedBytes = stored.reduce((total, event) => total + bytesOf(event.payload), 0);
    const uniqueBytes = uniqueMessageBytes(await store.events(run.investigationId));
    return { turns: run.investigation.iterations, storedBytes, uniqueBytes, ratio: storedBytes / uniqueBytes };
  } finally {
    await database.stop();
  }
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  process.stdout.write(`${JSON.stringify(await runTranscriptBench(), null, 2)}\n`);
}
