import { randomBytes } from 'node:crypto';
import { DynamoDBDocumentClient, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbStore } from '../../lib/store/dynamodb-store.ts';
import { StepConflictError, type StepCommit } from '../../lib/store/port.ts';
import { freshStore } from '../support/dynamodb.ts';
import { checkoutQuestion, runningInvestigation } from '../support/investigation-heads.ts';

const createdAt = new Date().toISOString();
const head = (id: string, eventCount = 0) => runningInvestigation(id, createdAt, eventCount);
const trigger = checkoutQuestion;
/** Random bytes do not compress: each of these stays ~1.3 MB after gzip. */
const incompressible = () => ({ blob: randomBytes(1_000_000).toString('base64') });

describe('payloads beyond DynamoDB limits', () => {
  it('commits a step whose payloads exceed a 4 MB transaction, and a replayed commit writes the same parts again', async () => {
    const { store, client, tableName } = await freshStore();
    await store.create({ investigation: head('big'), trigger });
    const results = Array.from({ length: 4 }, incompressible);
    const commit: StepCommit = {
      step: 'run-tools#1',
      expectedEventCount: 0,
      events: results.map((payload) => ({ type: 'tool.result' as const, payload })),
      head: head('big', 4),
      outcome: { next: 'model' },
      documents: { notes: incompressible() },
    };
    await store.commitStep('big', commit);
    await expect(store.commitStep('big', commit)).rejects.toBeInstanceOf(StepConflictError);
    expect((await store.events('big')).map((event) => event.payload)).toEqual(results);
    expect(await store.document('big', 'notes')).toEqual(commit.documents?.notes);
    let parts = 0;
    const pages = paginateQuery(
      { client: DynamoDBDocumentClient.from(client) },
      { TableName: tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :parts)', ExpressionAttributeValues: { ':pk': 'INV#big', ':parts': 'PART#' } },
    );
    for await (const page of pages) parts += (page.Items ?? []).reduce((total, item) => total + (item.body as Uint8Array).byteLength, 0);
    // Content-addressed: the replayed commit wrote the same part items again, no new ones.
    expect(parts).toBeGreaterThan(5_000_000);
    expect(parts).toBeLessThan(7_500_000);
  });

  it('stores a recorded environment beyond the 4 MB of a transaction and decodes it once per process', async () => {
    const { store, client, tableName } = await freshStore();
    const environment = { logs: Array.from({ length: 5 }, incompressible) };
    await store.putSnapshot('env-large', environment);
    const reader = new DynamoDbStore({ client, tableName });
    const first = await reader.snapshot('env-large');
    expect(first).toEqual(environment);
    expect(await reader.snapshot('env-large')).toBe(first);
    expect(await reader.snapshot('env-missing')).toBeUndefined();
  });
});
