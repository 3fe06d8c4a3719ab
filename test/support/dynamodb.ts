import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, ResourceNotFoundException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, inject, onTestFinished, TestRunner } from 'vitest';
import { ensureTable, localClient } from '../../local/dynamodb-local.ts';
import { DynamoDbStore, type DynamoDbStoreOptions } from '../../lib/store/dynamodb-store.ts';

interface Table {
  client: DynamoDBClient;
  tableName: string;
}

/**
 * Every table left behind slows the DynamoDB Local that all test files share (a fresh-clone CI run
 * timed out two unrelated tests that way), so each table is dropped once nothing can use it.
 */
const drop = async ({ client, tableName }: Table): Promise<void> => {
  try {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
};

/**
 * Tables made outside a test (in beforeAll, shared by a file's tests), dropped when the file ends.
 * Registered as this module loads, which is while the importing test file is collected: vitest
 * isolates test files, so each file that uses freshStore gets its own registration.
 */
const fileTables: Table[] = [];
afterAll(async () => {
  await Promise.all(fileTables.splice(0).map(drop));
});

/**
 * A fresh table on the shared DynamoDB Local, so test files never see each other's data. Made inside
 * a test (or its beforeEach), it is dropped when that test finishes; made outside one, when the file ends.
 */
export const freshStore = async (options: Partial<DynamoDbStoreOptions> = {}) => {
  const client = localClient(inject('dynamoEndpoint'));
  const tableName = `test-${randomUUID()}`;
  await ensureTable(client, tableName);
  const table = { client, tableName };
  if (TestRunner.getCurrentTest()) onTestFinished(() => drop(table));
  else fileTables.push(table);
  return { client, tableName, store: new DynamoDbStore({ client, tableName, ...options }) };
};
