import { DescribeTableCommand, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from './dynamodb.ts';

type Table = Awaited<ReturnType<typeof freshStore>>;

const exists = async ({ client, tableName }: Pick<Table, 'client' | 'tableName'>): Promise<boolean> => {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return true;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  }
};

describe('test tables on the shared DynamoDB Local', () => {
  let shared: Table;
  beforeAll(async () => {
    shared = await freshStore();
  });

  let ownedByFirstTest: Table;
  it('a table made in a test is there while the test runs', async () => {
    ownedByFirstTest = await freshStore();
    expect(await exists(ownedByFirstTest)).toBe(true);
    expect(await exists(shared)).toBe(true);
  });

  it('is dropped when that test finishes, while a table made for the whole file stays', async () => {
    expect(await exists(ownedByFirstTest)).toBe(false);
    expect(await exists(shared)).toBe(true);
  });
});
