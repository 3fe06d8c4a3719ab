import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { ensureTable, localClient } from '../../local/dynamodb-local.ts';
import { DynamoDbStore, type DynamoDbStoreOptions } from '../../lib/store/dynamodb-store.ts';

/** A fresh table on the shared DynamoDB Local, so test files never see each other's data. */
export const freshStore = async (options: Partial<DynamoDbStoreOptions> = {}) => {
  const client = localClient(inject('dynamoEndpoint'));
  const tableName = `test-${randomUUID()}`;
  await ensureTable(client, tableName);
  return { client, tableName, store: new DynamoDbStore({ client, tableName, ...options }) };
};
