import { ConditionalCheckFailedException, TransactionCanceledException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { investigation as investigationSchema, type Investigation } from '../domain/investigation.ts';
import { rebuildRequests } from '../domain/recorded-request.ts';
import { transcriptEvent, type TranscriptEvent } from '../domain/transcript.ts';
import { trigger as triggerSchema, type Trigger } from '../domain/trigger.ts';
import { asParts, decodePayload, encodePayload, inlineBytes, MAX_INLINE_BYTES, type EncodedPayload } from './payload-codec.ts';
import { tableLayout } from './table-layout.ts';
import {
  StepConflictError,
  TransactionLimitError,
  type InvestigationStore,
  type NewInvestigation,
  type OnceClaim,
  type StepCommit,
} from './port.ts';

export interface DynamoDbStoreOptions {
  client: DynamoDBClient;
  tableName: string;
  /** Items expire this many days after the investigation starts (DynamoDB TTL). */
  retentionDays?: number;
  /** Overridable so tests can exercise compression and parts with small payloads. */
  maxInlineBytes?: number;
  clock?: () => Date;
}

type Item = Record<string, unknown>;

/** A payload bound for an item: encoded, with the attributes that sit beside it. */
interface PendingItem {
  pk: string;
  sk: string;
  attributes: Item;
  encoded: EncodedPayload;
  condition?: { expression: string; values?: Item };
}

const LIST_PARTITION = 'INVESTIGATION';
const partitionKey = (id: string) => `INV#${id}`;
const eventKey = (seq: number) => `EV#${String(seq).padStart(10, '0')}`;
const partKey = (hash: string, part: number) => `PART#${hash}#${String(part).padStart(4, '0')}`;
const onceKey = (key: string) => `ONCE#${key}`;

/** DynamoDB's transaction limits, with room for keys, attributes and conditions. */
const MAX_TRANSACTION_ITEMS = 100;
const MAX_TRANSACTION_BYTES = 3_500_000;
/** Part writes in flight at once: enough to hide latency, few enough not to throttle a new table. */
const PART_WRITE_CONCURRENCY = 8;
/** Decoded recorded environments kept per process: an investigation reads one, and each can be large. */
const CACHED_SNAPSHOTS = 1;

const isAppendOnly = (sk: string): boolean => sk.startsWith('EV#') || sk.startsWith('STEP#');

/**
 * The single-table DynamoDB adapter of the store port. One partition per investigation holds its
 * head, trigger, documents, step outcomes, transcript (one item per step's events) and once-records.
 * A payload too large for its item, or for the step's transaction, is written first as immutable
 * content-addressed parts, and the transaction commits only a reference to them.
 */
export class DynamoDbStore implements InvestigationStore {
  private readonly documents: DynamoDBDocumentClient;
  private readonly tableName: string;
  private readonly retentionSeconds: number;
  private readonly maxInlineBytes: number;
  private readonly clock: () => Date;
  private readonly snapshots = new Map<string, Promise<unknown>>();

  constructor(options: DynamoDbStoreOptions) {
    this.documents = DynamoDBDocumentClient.from(options.client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
    this.tableName = options.tableName;
    this.retentionSeconds = (options.retentionDays ?? 90) * 86_400;
    this.maxInlineBytes = options.maxInlineBytes ?? MAX_INLINE_BYTES;
    this.clock = options.clock ?? (() => new Date());
  }

  async create({ investigation, trigger, documents = {} }: NewInvestigation): Promise<boolean> {
    const pk = partitionKey(investigation.id);
    const created = { expression: 'attribute_not_exists(pk)' };
    const items: PendingItem[] = [
      { ...this.pending(pk, 'HEAD', investigation, this.headAttributes(investigation)), condition: created },
      { ...this.pending(pk, 'TRIGGER', trigger), condition: created },
      ...Object.entries(documents).map(([name, value]) => ({ ...this.pending(pk, `DOC#${name}`, value), condition: created })),
    ];
    try {
      await this.transact(items, this.expiry(investigation.createdAt));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async get(id: string): Promise<Investigation | undefined> {
    const value = await this.readPayload(partitionKey(id), 'HEAD');
    return value === undefined ? undefined : investigationSchema.parse(value);
  }

  async getTrigger(id: string): Promise<Trigger | undefined> {
    const value = await this.readPayload(partitionKey(id), 'TRIGGER');
    return value === undefined ? undefined : triggerSchema.parse(value);
  }

  async list(limit = 50): Promise<Investigation[]> {
    const result = await this.documents.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: tableLayout.listIndex.name,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': LIST_PARTITION },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    const heads = await Promise.all((result.Items ?? []).map((item) => this.get(String(item.pk).slice('INV#'.length))));
    return heads.filter((head): head is Investigation => head !== undefined);
  }

  /** Model requests come back whole, rebuilt from the references they were stored with. */
  async events(id: string): Promise<TranscriptEvent[]> {
    return rebuildRequests(await this.storedEvents(id));
  }

  /** The transcript as stored: each model request refers to what earlier events already hold. */
  async storedEvents(id: string): Promise<TranscriptEvent[]> {
    const pk = partitionKey(id);
    const items = await this.queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': 'EV#' },
      ConsistentRead: true,
    });
    const batches = await Promise.all(
      items.map(async (item) => {
        // Transcripts written before events were stored per step hold one event per item.
        if (item.firstSeq === undefined) {
          return [transcriptEvent.parse({ seq: item.seq, type: item.type, at: item.at, step: item.step, payload: await this.decodeItem(pk, item), usage: item.usage })];
        }
        const stored = (await this.decodeItem(pk, item)) as { type: unknown; payload: unknown; usage?: unknown }[];
        return stored.map((event, index) =>
          transcriptEvent.parse({ seq: Number(item.firstSeq) + index, at: item.at, step: item.step, ...event }),
        );
      }),
    );
    return batches.flat();
  }

  async document(id: string, name: string): Promise<unknown> {
    return this.readPayload(partitionKey(id), `DOC#${name}`);
  }

  async stepOutcome(id: string, step: string): Promise<unknown> {
    return this.readPayload(partitionKey(id), `STEP#${step}`);
  }

  async commitStep(id: string, commit: StepCommit): Promise<void> {
    const pk = partitionKey(id);
    const firstSeq = commit.expectedEventCount + 1;
    const appendOnly = { expression: 'attribute_not_exists(pk)' };
    const items: PendingItem[] = [
      {
        ...this.pending(pk, 'HEAD', commit.head, this.headAttributes(commit.head)),
        condition: { expression: 'eventCount = :expected', values: { ':expected': commit.expectedEventCount } },
      },
      { ...this.pending(pk, `STEP#${commit.step}`, commit.outcome), condition: appendOnly },
      ...Object.entries(commit.documents ?? {}).map(([name, value]) => this.pending(pk, `DOC#${name}`, value)),
    ];
    if (commit.events.length > 0) {
      const events = commit.events.map(({ type, payload, usage }) => ({ type, payload, ...(usage === undefined ? {} : { usage }) }));
      const attributes = { firstSeq, count: events.length, step: commit.step, at: this.clock().toISOString() };
      items.push({ ...this.pending(pk, eventKey(firstSeq), events, attributes), condition: appendOnly });
    }
    try {
      await this.transact(items, this.expiry(commit.head.createdAt));
    } catch (error) {
      if (isConditionFailure(error)) {
        throw new StepConflictError(`step ${commit.step} of investigation ${id} conflicts with a write that came first`);
      }
      throw error;
    }
  }

  async claimOnce(id: string, key: string, leaseMs: number): Promise<OnceClaim> {
    const pk = partitionKey(id);
    const now = this.clock().getTime();
    try {
      await this.documents.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk, sk: onceKey(key), state: 'in-progress', leaseUntil: now + leaseMs, expiresAt: this.expiryFromNow() },
          ConditionExpression: 'attribute_not_exists(pk) OR (#state = :inProgress AND leaseUntil <= :now)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':inProgress': 'in-progress', ':now': now },
        }),
      );
      return { state: 'claimed' };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const { Item } = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk: onceKey(key) }, ConsistentRead: true }));
    if (Item?.state === 'done') return { state: 'done', result: await this.decodeItem(pk, Item) };
    // Released or expired between the put and the get: the caller asks again at once.
    return { state: 'in-progress', leaseUntil: new Date(Number(Item?.leaseUntil ?? 0)) };
  }

  async completeOnce(id: string, key: string, result: unknown): Promise<void> {
    const pk = partitionKey(id);
    const pending = this.pending(pk, onceKey(key), result, { state: 'done' });
    await this.writeParts(pk, pending.encoded);
    await this.documents.send(new PutCommand({ TableName: this.tableName, Item: { ...this.itemOf(pending), expiresAt: this.expiryFromNow() } }));
  }

  async releaseOnce(id: string, key: string): Promise<void> {
    try {
      await this.documents.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: partitionKey(id), sk: onceKey(key), state: 'in-progress', leaseUntil: 0, expiresAt: this.expiryFromNow() },
          ConditionExpression: '#state <> :done',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':done': 'done' },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** Parts first, the body item last: a reader that finds the body finds every part. */
  async putSnapshot(key: string, value: unknown): Promise<void> {
    const pk = `SNAPSHOT#${key}`;
    const pending = this.pending(pk, 'BODY', value);
    await this.writeParts(pk, pending.encoded);
    await this.documents.send(new PutCommand({ TableName: this.tableName, Item: { ...this.itemOf(pending), expiresAt: this.expiryFromNow() } }));
    this.remember(key, Promise.resolve(value));
  }

  /** Snapshot keys name immutable content, so each process decodes a recorded environment once. */
  async snapshot(key: string): Promise<unknown> {
    const cached = this.snapshots.get(key);
    if (cached) return cached;
    const reading = this.readPayload(`SNAPSHOT#${key}`, 'BODY');
    this.remember(key, reading);
    const value = await reading.catch((error: unknown) => {
      this.snapshots.delete(key);
      throw error;
    });
    if (value === undefined) this.snapshots.delete(key);
    return value;
  }

  private remember(key: string, value: Promise<unknown>): void {
    this.snapshots.delete(key);
    this.snapshots.set(key, value);
    for (const oldest of this.snapshots.keys()) {
      if (this.snapshots.size <= CACHED_SNAPSHOTS) break;
      this.snapshots.delete(oldest);
    }
  }

  private headAttributes(head: Investigation): Item {
    return { gsi1pk: LIST_PARTITION, gsi1sk: `${head.createdAt}#${head.id}`, eventCount: head.eventCount };
  }

  private expiry(createdAt: string): number {
    return Math.floor(Date.parse(createdAt) / 1000) + this.retentionSeconds;
  }

  private expiryFromNow(): number {
    return Math.floor(this.clock().getTime() / 1000) + this.retentionSeconds;
  }

  private pending(pk: string, sk: string, value: unknown, attributes: Item = {}): PendingItem {
    return { pk, sk, attributes, encoded: encodePayload(value, this.maxInlineBytes) };
  }

  private itemOf({ pk, sk, attributes, encoded }: PendingItem): Item {
    const body =
      encoded.encoding === 'parts' ? { hash: encoded.hash, parts: encoded.parts.length } : { body: encoded.body };
    return { pk, sk, ...attributes, encoding: encoded.encoding, ...body };
  }

  /**
   * Commits the items in one transaction, within DynamoDB's limits whatever their size: the
   * largest payloads move out into parts, written (idempotently) before the transaction.
   */
  private async transact(items: PendingItem[], expiresAt: number): Promise<void> {
    if (items.length > MAX_TRANSACTION_ITEMS) {
      throw new TransactionLimitError(`a step may write at most ${MAX_TRANSACTION_ITEMS} items at once; this one writes ${items.length}`);
    }
    const bySize = [...items].sort((a, b) => inlineBytes(b.encoded) - inlineBytes(a.encoded));
    let total = items.reduce((sum, item) => sum + inlineBytes(item.encoded), 0);
    for (const item of bySize) {
      if (total <= MAX_TRANSACTION_BYTES) break;
      total -= inlineBytes(item.encoded);
      item.encoded = asParts(item.encoded, this.maxInlineBytes);
      total += inlineBytes(item.encoded);
    }
    for (const item of items) await this.writeParts(item.pk, item.encoded);
    await this.documents.send(
      new TransactWriteCommand({
        TransactItems: items.map((item) => ({
          Put: {
            TableName: this.tableName,
            Item: { ...this.itemOf(item), expiresAt },
            ...(item.condition
              ? { ConditionExpression: item.condition.expression, ...(item.condition.values ? { ExpressionAttributeValues: item.condition.values } : {}) }
              : {}),
          },
        })),
      }),
    );
  }

  /** Content-addressed: a retry, or another step with the same payload, writes the same items again. */
  private async writeParts(pk: string, encoded: EncodedPayload): Promise<void> {
    if (encoded.encoding !== 'parts') return;
    const expiresAt = this.expiryFromNow();
    const queue = encoded.parts.map((body, index) => ({ pk, sk: partKey(encoded.hash, index + 1), encoding: 'part', body, expiresAt }));
    const writer = async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        await this.documents.send(new PutCommand({ TableName: this.tableName, Item: item }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(PART_WRITE_CONCURRENCY, queue.length) }, writer));
  }

  private async readPayload(pk: string, sk: string): Promise<unknown> {
    const result = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk }, ConsistentRead: true }));
    return result.Item ? this.decodeItem(pk, result.Item) : undefined;
  }

  private async decodeItem(pk: string, item: Item): Promise<unknown> {
    switch (item.encoding) {
      case 'json':
        return decodePayload({ encoding: 'json', body: String(item.body) });
      case 'gzip':
        return decodePayload({ encoding: 'gzip', body: item.body as Uint8Array });
      case 'parts': {
        const hash = String(item.hash);
        const parts = await this.queryAll({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': `PART#${hash}#` },
          ConsistentRead: true,
        });
        if (parts.length !== Number(item.parts)) {
          throw new Error(`payload ${String(item.sk)} of ${pk} has ${parts.length} of its ${String(item.parts)} parts`);
        }
        const ordered = parts.sort((a, b) => String(a.sk).localeCompare(String(b.sk))).map((part) => part.body as Uint8Array);
        return decodePayload({ encoding: 'parts', hash, parts: ordered });
      }
      default:
        throw new Error(`payload ${String(item.sk)} of ${pk} has an encoding this version cannot read: ${String(item.encoding)}`);
    }
  }

  private async queryAll(input: QueryCommandInput): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.documents.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }
}

const isConditionFailure = (error: unknown): boolean =>
  error instanceof ConditionalCheckFailedException ||
  (error instanceof TransactionCanceledException &&
    (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed'));
