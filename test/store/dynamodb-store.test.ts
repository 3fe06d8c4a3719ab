import { randomBytes } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { StepConflictError } from '../../lib/store/port.ts';
import { freshStore } from '../support/dynamodb.ts';
import { checkoutQuestion, runningInvestigation } from '../support/investigation-heads.ts';

// Recent timestamps: DynamoDB Local really deletes items whose TTL (createdAt + retention) has passed.
const recently = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
const createdAt = recently(0);

const head = (id: string, eventCount = 0) => runningInvestigation(id, createdAt, eventCount);
const trigger = checkoutQuestion;

describe('DynamoDbStore on DynamoDB Local', () => {
  it('creates an investigation once and reads it back', async () => {
    const { store } = await freshStore();
    expect(await store.create({ investigation: head('a'), trigger, documents: { environment: { logs: [] } } })).toBe(true);
    expect(await store.create({ investigation: { ...head('a'), triggerSummary: 'other' }, trigger })).toBe(false);
    expect((await store.get('a'))?.triggerSummary).toBe('why is checkout slow?');
    expect(await store.getTrigger('a')).toEqual(trigger);
    expect(await store.document('a', 'environment')).toEqual({ logs: [] });
    expect(await store.get('missing')).toBeUndefined();
  });

  it('appends events in order and records the step outcome', async () => {
    const { store } = await freshStore();
    await store.create({ investigation: head('b'), trigger });
    await store.commitStep('b', {
      step: 'plan',
      expectedEventCount: 0,
      events: [{ type: 'plan', payload: { steps: ['look'] } }],
      head: head('b', 1),
      outcome: { investigationId: 'b', iteration: 0 },
    });
    await store.commitStep('b', {
      step: 'call-model#1',
      expectedEventCount: 1,
      events: [
        { type: 'model.request', payload: { messages: [] } },
        { type: 'model.response', payload: { text: 'hi' }, usage: { inputTokens: 10, outputTokens: 2, cachedTokens: 0 } },
      ],
      head: head('b', 3),
      outcome: { next: 'final' },
    });
    const events = await store.events('b');
    expect(events.map((event) => [event.seq, event.type, event.step])).toEqual([
      [1, 'plan', 'plan'],
      [2, 'model.request', 'call-model#1'],
      [3, 'model.response', 'call-model#1'],
    ]);
    expect(events[2]?.usage).toEqual({ inputTokens: 10, outputTokens: 2, cachedTokens: 0 });
    expect(await store.stepOutcome('b', 'call-model#1')).toEqual({ next: 'final' });
    expect((await store.get('b'))?.eventCount).toBe(3);
  });

  it('round-trips payloads over the item limit, compressed and chunked', async () => {
    const { store } = await freshStore();
    await store.create({ investigation: head('c'), trigger });
    const compressible = { lines: Array.from({ length: 40_000 }, (_, index) => `GET /orders/${index} 200 12ms`) };
    const incompressible = { blob: randomBytes(900_000).toString('base64') };
    await store.commitStep('c', {
      step: 'run-tools#1',
      expectedEventCount: 0,
      events: [
        { type: 'tool.result', payload: compressible },
        { type: 'tool.result', payload: incompressible },
      ],
      head: head('c', 2),
      outcome: {},
      documents: { big: incompressible },
    });
    const events = await store.events('c');
    expect(events).toHaveLength(2);
    expect(events[0]?.payload).toEqual(compressible);
    expect(events[1]?.payload).toEqual(incompressible);
    expect(await store.document('c', 'big')).toEqual(incompressible);
  });

  it('rejects a replayed step and writes nothing twice', async () => {
    const { store } = await freshStore();
    await store.create({ investigation: head('d'), trigger });
    const commit = {
      step: 'plan',
      expectedEventCount: 0,
      events: [{ type: 'plan' as const, payload: { steps: [] } }],
      head: head('d', 1),
      outcome: { ok: true },
    };
    await store.commitStep('d', commit);
    await expect(store.commitStep('d', commit)).rejects.toBeInstanceOf(StepConflictError);
    await expect(store.commitStep('d', { ...commit, step: 'plan-again' })).rejects.toBeInstanceOf(StepConflictError);
    expect(await store.events('d')).toHaveLength(1);
  });

  it('keeps snapshots outside investigations, large ones included', async () => {
    const { store } = await freshStore({ maxInlineBytes: 1_000 });
    const environment = { logs: Array.from({ length: 500 }, (_, index) => ({ message: `line ${index} ${randomBytes(8).toString('hex')}` })) };
    await store.putSnapshot('env-1', environment);
    expect(await store.snapshot('env-1')).toEqual(environment);
    expect(await store.snapshot('env-2')).toBeUndefined();
  });

  it('sets every item to expire after the retention period', async () => {
    const { store, client, tableName } = await freshStore({ retentionDays: 7 });
    await store.create({ investigation: head('ttl'), trigger });
    const { Item } = await client.send(new GetItemCommand({ TableName: tableName, Key: { pk: { S: 'INV#ttl' }, sk: { S: 'HEAD' } } }));
    expect(Number(Item?.expiresAt?.N)).toBe(Math.floor(Date.parse(createdAt) / 1000) + 7 * 86_400);
  });

  it('lists investigations newest first', async () => {
    const { store } = await freshStore();
    await store.create({ investigation: { ...head('old'), createdAt: recently(2) }, trigger });
    await store.create({ investigation: { ...head('new'), createdAt: recently(1) }, trigger });
    expect((await store.list()).map((investigation) => investigation.id).slice(0, 2)).toEqual(['new', 'old']);
  });
});
