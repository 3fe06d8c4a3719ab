import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { freshStore } from '../support/dynamodb.ts';

describe('transcripts written before events were stored per step', () => {
  it('reads one event per item, whole model requests included', async () => {
    const { store, client, tableName } = await freshStore();
    const documents = DynamoDBDocumentClient.from(client);
    const request = { system: 'be brief', messages: [{ role: 'user', content: 'why is checkout slow?' }], tools: [], toolChoice: 'auto' };
    const items = [
      { sk: 'EV#0000000001', seq: 1, type: 'model.request', step: 'call-model#1', body: JSON.stringify(request) },
      { sk: 'EV#0000000002', seq: 2, type: 'model.response', step: 'call-model#1', body: JSON.stringify({ text: 'done' }), usage: { inputTokens: 3, outputTokens: 1, cachedTokens: 0 } },
    ];
    for (const item of items) {
      await documents.send(new PutCommand({ TableName: tableName, Item: { pk: 'INV#legacy', at: '2026-04-06T00:00:00Z', encoding: 'json', ...item } }));
    }
    const events = await store.events('legacy');
    expect(events.map((event) => [event.seq, event.type, event.step])).toEqual([
      [1, 'model.request', 'call-model#1'],
      [2, 'model.response', 'call-model#1'],
    ]);
    expect(events[0]?.payload).toEqual(request);
    expect(events[1]?.usage).toEqual({ inputTokens: 3, outputTokens: 1, cachedTokens: 0 });
  });
});
