import { ConditionalCheckFailedException, TransactionCanceledException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { executionInput } from '../workflow/control.ts';
import type { Admission, AdmissionState, InvestigationPage, JoinedTrigger, SlotClaim, TriggerLedger } from '../triggers/ledger.ts';
import { DynamoDbJoinedTriggers, investigationPartition, JOINED_TRIGGER_PREFIX } from './dynamodb-joined-triggers.ts';
import { tableLayout } from './table-layout.ts';

export interface DynamoDbTriggerLedgerOptions {
  client: DynamoDBClient;
  tableName: string;
  /** Claims and groups expire this many days after they are written (DynamoDB TTL). */
  retentionDays?: number;
  clock?: () => Date;
}

type Item = Record<string, unknown>;

// Keys beside the store's own: the investigation's partition gets ADMISSION and JOINED# items;
// claims, groups, the queue and the running slots have partitions of their own.
const claimKey = (key: string) => `CLAIM#${key}`;
const groupKey = (key: string) => `GROUP#${key}`;
const QUEUE = 'QUEUE';
const SLOTS = 'SLOTS';
const LIST_PARTITION = 'INVESTIGATION';
const MAX_GROUP_ATTEMPTS = 8;

const admissionItem = z.object({
  investigationId: z.string(),
  state: z.enum(['queued', 'started', 'cancelled']),
  receivedAt: z.string(),
  triggerCount: z.number().int().positive(),
  holdsSlot: z.boolean().default(false),
  input: z.string(),
  service: z.string().optional(),
  groupKey: z.string().optional(),
});

const queueItem = (receivedAt: string, investigationId: string): Item => ({ pk: QUEUE, sk: `${receivedAt}#${investigationId}`, investigationId });

const isConditionFailure = (error: unknown): boolean =>
  error instanceof ConditionalCheckFailedException ||
  (error instanceof TransactionCanceledException &&
    (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed'));

const isTransactionConflict = (error: unknown): boolean =>
  error instanceof TransactionCanceledException && (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict');

const MAX_CONFLICT_RETRIES = 10;
/** A joiner may arrive between the group's opening and its first trigger's admission; it waits this many rounds. */
const MAX_ATTACH_ATTEMPTS = 30;

const encodeCursor = (key: Record<string, unknown>): string => Buffer.from(JSON.stringify(key)).toString('base64url');
const decodeCursor = (cursor: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

export class InvalidCursorError extends Error {
  override readonly name = 'InvalidCursorError';
}

/** The DynamoDB adapter of the trigger ledger, on the investigations table; every race is settled by a condition. */
export class DynamoDbTriggerLedger implements TriggerLedger {
  private readonly documents: DynamoDBDocumentClient;
  private readonly tableName: string;
  private readonly retentionSeconds: number;
  private readonly clock: () => Date;
  private readonly joined: DynamoDbJoinedTriggers;

  constructor(options: DynamoDbTriggerLedgerOptions) {
    this.documents = DynamoDBDocumentClient.from(options.client, { marshallOptions: { removeUndefinedValues: true } });
    this.joined = new DynamoDbJoinedTriggers({ client: options.client, tableName: options.tableName });
    this.tableName = options.tableName;
    this.retentionSeconds = (options.retentionDays ?? 90) * 86_400;
    this.clock = options.clock ?? (() => new Date());
  }

  async claim(key: string, investigationId: string): Promise<{ claimed: boolean; investigationId: string }> {
    try {
      await this.documents.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: claimKey(key), sk: 'CLAIM', investigationId, expiresAt: this.expiry() },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return { claimed: true, investigationId };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const existing = await this.get(claimKey(key), 'CLAIM');
      return { claimed: false, investigationId: String(existing?.investigationId ?? investigationId) };
    }
  }

  async reassign(key: string, investigationId: string): Promise<void> {
    await this.documents.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: claimKey(key), sk: 'CLAIM' },
        UpdateExpression: 'SET investigationId = :id',
        ExpressionAttributeValues: { ':id': investigationId },
      }),
    );
  }

  async joinGroup(key: string, candidateId: string, at: Date, windowMs: number): Promise<{ investigationId: string; joined: boolean }> {
    const now = at.toISOString();
    const cutoff = new Date(at.getTime() - windowMs).toISOString();
    for (let attempt = 0; attempt < MAX_GROUP_ATTEMPTS; attempt++) {
      try {
        const joined = await this.documents.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk: groupKey(key), sk: 'GROUP' },
            UpdateExpression: 'SET lastTriggerAt = :now',
            ConditionExpression: 'attribute_exists(pk) AND lastTriggerAt >= :cutoff',
            ExpressionAttributeValues: { ':now': now, ':cutoff': cutoff },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return { investigationId: String(joined.Attributes?.investigationId), joined: true };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      try {
        await this.documents.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { pk: groupKey(key), sk: 'GROUP', investigationId: candidateId, lastTriggerAt: now, expiresAt: this.expiry() },
            ConditionExpression: 'attribute_not_exists(pk) OR lastTriggerAt < :cutoff',
            ExpressionAttributeValues: { ':cutoff': cutoff },
          }),
        );
        return { investigationId: candidateId, joined: false };
      } catch (error) {
        // Another delivery opened or refreshed the group in between: join it on the next round.
        if (!isConditionFailure(error)) throw error;
      }
    }
    throw new Error(`group ${key} kept changing under ${MAX_GROUP_ATTEMPTS} attempts to join it`);
  }

  async admit(admission: Omit<Admission, 'state' | 'triggerCount' | 'holdsSlot'>): Promise<boolean> {
    const { investigationId, receivedAt } = admission;
    try {
      await this.transact({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: {
                  pk: investigationPartition(investigationId),
                  sk: 'ADMISSION',
                  investigationId,
                  state: 'queued',
                  receivedAt,
                  triggerCount: 1,
                  holdsSlot: false,
                  input: JSON.stringify(admission.input),
                  service: admission.service,
                  groupKey: admission.groupKey,
                  expiresAt: this.expiry(),
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Put: { TableName: this.tableName, Item: queueItem(receivedAt, investigationId) } },
          ],
      });
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async enqueue(investigationId: string): Promise<void> {
    const admission = await this.admission(investigationId);
    if (!admission) throw new Error(`investigation ${investigationId} was never admitted, so it cannot be queued`);
    await this.documents.send(new PutCommand({ TableName: this.tableName, Item: queueItem(admission.receivedAt, investigationId) }));
  }

  async admission(investigationId: string): Promise<Admission | undefined> {
    const item = await this.get(investigationPartition(investigationId), 'ADMISSION');
    if (!item) return undefined;
    const parsed = admissionItem.parse(item);
    return { ...parsed, input: executionInput.parse(JSON.parse(parsed.input)) };
  }

  async setState(investigationId: string, state: AdmissionState): Promise<void> {
    await this.documents.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: investigationPartition(investigationId), sk: 'ADMISSION' },
        UpdateExpression: 'SET #state = :state',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':state': state },
      }),
    );
  }

  async attach(investigationId: string, trigger: JoinedTrigger): Promise<void> {
    const identity = createHash('sha256').update(trigger.occurrenceKey ?? randomUUID()).digest('hex').slice(0, 16);
    for (let attempt = 0; attempt < MAX_ATTACH_ATTEMPTS; attempt++) {
      try {
        await this.transact({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: { pk: investigationPartition(investigationId), sk: `${JOINED_TRIGGER_PREFIX}${trigger.receivedAt}#${identity}`, ...trigger, expiresAt: this.expiry() },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Update: {
                TableName: this.tableName,
                Key: { pk: investigationPartition(investigationId), sk: 'ADMISSION' },
                UpdateExpression: 'ADD triggerCount :one',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
          ],
        });
        return;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const [joined, admission] = (error as TransactionCanceledException).CancellationReasons ?? [];
        // The same occurrence attached twice counts once.
        if (joined?.Code === 'ConditionalCheckFailed') return;
        // The group's first trigger opened the group but is not admitted yet: wait for it, never drop this one.
        if (admission?.Code !== 'ConditionalCheckFailed') throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** Math.min(attempt, 6)));
      }
    }
    throw new Error(`investigation ${investigationId} was not admitted after ${MAX_ATTACH_ATTEMPTS} attempts to attach a trigger to it`);
  }

  async joinedTriggers(investigationId: string): Promise<JoinedTrigger[]> {
    return this.joined.joinedTriggers(investigationId);
  }

  async acquireSlot(investigationId: string, cap: number): Promise<SlotClaim> {
    try {
      await this.transact({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: { pk: investigationPartition(investigationId), sk: 'ADMISSION' },
                UpdateExpression: 'SET holdsSlot = :true',
                ConditionExpression: 'attribute_exists(pk) AND holdsSlot = :false',
                ExpressionAttributeValues: { ':true': true, ':false': false },
              },
            },
            {
              Update: {
                TableName: this.tableName,
                Key: { pk: SLOTS, sk: SLOTS },
                UpdateExpression: 'ADD running :one',
                ConditionExpression: 'attribute_not_exists(running) OR running < :cap',
                ExpressionAttributeValues: { ':one': 1, ':cap': cap },
              },
            },
          ],
      });
      return 'acquired';
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Reasons come in item order: the admission first, then the slot counter.
      const [admission] = (error as TransactionCanceledException).CancellationReasons ?? [];
      return admission?.Code === 'ConditionalCheckFailed' ? 'held' : 'full';
    }
  }

  async releaseSlot(investigationId: string): Promise<boolean> {
    try {
      await this.transact({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: { pk: investigationPartition(investigationId), sk: 'ADMISSION' },
                UpdateExpression: 'SET holdsSlot = :false',
                ConditionExpression: 'holdsSlot = :true',
                ExpressionAttributeValues: { ':true': true, ':false': false },
              },
            },
            {
              Update: {
                TableName: this.tableName,
                Key: { pk: SLOTS, sk: SLOTS },
                UpdateExpression: 'ADD running :minusOne',
                ConditionExpression: 'running > :zero',
                ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
              },
            },
          ],
      });
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async queued(limit: number): Promise<string[]> {
    const page = await this.documents.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': QUEUE },
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return (page.Items ?? []).map((item) => String(item.investigationId));
  }

  async dequeue(investigationId: string): Promise<boolean> {
    const admission = await this.admission(investigationId);
    if (!admission) return false;
    try {
      await this.documents.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: QUEUE, sk: `${admission.receivedAt}#${investigationId}` },
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async investigations(limit: number, cursor?: string): Promise<InvestigationPage> {
    const startKey = cursor === undefined ? undefined : decodeCursor(cursor);
    if (cursor !== undefined && startKey === undefined) throw new InvalidCursorError('cursor is not one this API returned');
    const page = await this.documents.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: tableLayout.listIndex.name,
        KeyConditionExpression: `${tableLayout.listIndex.partitionKey} = :pk`,
        ExpressionAttributeValues: { ':pk': LIST_PARTITION },
        ScanIndexForward: false,
        Limit: limit,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    return {
      ids: (page.Items ?? []).map((item) => String(item.pk).slice('INV#'.length)),
      ...(page.LastEvaluatedKey ? { cursor: encodeCursor(page.LastEvaluatedKey) } : {}),
    };
  }

  /** Transactions on the shared slot counter collide under load; DynamoDB asks the loser to retry. */
  private async transact(input: TransactWriteCommandInput): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.documents.send(new TransactWriteCommand(input));
        return;
      } catch (error) {
        if (!isTransactionConflict(error) || attempt >= MAX_CONFLICT_RETRIES) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** Math.min(attempt, 5)));
      }
    }
  }

  private expiry(): number {
    return Math.floor(this.clock().getTime() / 1000) + this.retentionSeconds;
  }

  private async get(pk: string, sk: string): Promise<Item | undefined> {
    const result = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk }, ConsistentRead: true }));
    return result.Item;
  }
}
