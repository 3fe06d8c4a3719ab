import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../local/dynamodb-local.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

let database: DynamoDbLocal | undefined;

/** One DynamoDB Local for the whole run; each test file makes its own tables. */
export async function setup(project: TestProject): Promise<void> {
  database = await startDynamoDbLocal();
  project.provide('dynamoEndpoint', database.endpoint);
}

export async function teardown(): Promise<void> {
  await database?.stop();
}
