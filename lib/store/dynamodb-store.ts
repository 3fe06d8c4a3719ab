import { ConditionalCheckFailedException, TransactionCanceledException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { investigation as investigationSchema, type Investigation } from '../domain/investigation.ts';
import { transcriptEvent, type TranscriptEvent } from '../domain/transcript.ts';
import { trigger as triggerSchema, type Trigger } from '../domain/trigger.ts';
import { decodePayload, encodePayload, type EncodedPayload } from './payload-codec.ts';
import { tableLayout } from './table-layout.ts';
import { StepConflictError, type InvestigationStore, type NewInvestigation, type StepCommit } from './port.ts';

export interface DynamoDbStoreOptions {
  client: DynamoDBClient;
  tableName: string;
  /** Items expire this many days after the investigation starts (DynamoDB TTL). */
  retentionDays?: number;
  /** Overridable so tests can exercise compression and chunking with small payloads. */
  maxInlineBytes?: number;
  clock?: () => Date;
}

type Item = Record<string, unknown>;

const LIST_PARTITION = 'INVESTIGATION';
const partitionKey = (id: string) => `INV#${id}`;
const eventKey = (seq: number) => `EV#${String(seq).padStart(10, '0')}`;
const partKey = (ownerKey: string, part: number) => `${ownerKey}#PART#${String(part).padStart(4, '0')}`;

/**
 * The single-table DynamoDB adapter of the store port. One partition per investigation holds
 * its head, trigger, documents, step outcomes and transcript events; payloads over the item
 * limit are compressed, then chunked into part items that sort right after their owner.
 */
export class DynamoDbStore implements InvestigationStore {
  private readonly documents: DynamoDBDocumentClient;
  private readonly tableName: string;
  private readonly retentionSeconds: number;
  private readonly maxInlineBytes: number | undefined;
  private readonly clock: () => Date;

  constructor(options: DynamoDbStoreOptions) {
    this.documents = DynamoDBDocumentClient.from(options.client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
    this.tableName = options.tableName;
    this.retentionSeconds = (options.retentionDays ?? 90) * 86_400;
    this.maxInlineBytes = options.maxInlineBytes;
    this.clock = options.clock ?? (() => new Date());
  }

  async create({ investigation, trigger, documents = {} }: NewInvestigation): Promise<boolean> {
    const pk = partitionKey(investigation.id);
    const expiresAt = this.expiry(investigation.createdAt);
    const items: Item[] = [
      ...this.payloadItems(pk, 'HEAD', investigation, {
        gsi1pk: LIST_PARTITION,
        gsi1sk: `${investigation.createdAt}#${investigation.id}`,
        eventCount: investigation.eventCount,
      }),
      ...this.payloadItems(pk, 'TRIGGER', trigger),
      ...Object.entries(documents).flatMap(([name, value]) => this.payloadItems(pk, `DOC#${name}`, value)),
    ].map((item) => ({ ...item, expiresAt }));
    try {
      await this.documents.send(
        new TransactWriteCommand({
          TransactItems: items.map((item) => ({
            Put: { TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
          })),
        }),
      );
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

  async events(id: string): Promise<TranscriptEvent[]> {
    const items = await this.queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': partitionKey(id), ':prefix': 'EV#' },
      ConsistentRead: true,
    });
    return assemble(items).map(({ item, payload }) =>
      transcriptEvent.parse({
        seq: item.seq,
        type: item.type,
        at: item.at,
        step: item.step,
        payload,
        ...(item.usage === undefined ? {} : { usage: item.usage }),
      }),
    );
  }

  async document(id: string, name: string): Promise<unknown> {
    return this.readPayload(partitionKey(id), `DOC#${name}`);
  }

  async stepOutcome(id: string, step: string): Promise<unknown> {
    return this.readPayload(partitionKey(id), `STEP#${step}`);
  }

  async commitStep(id: string, commit: StepCommit): Promise<void> {
    const pk = partitionKey(id);
    const at = this.clock().toISOString();
    const expiresAt = this.expiry(commit.head.createdAt);
    const eventItems = commit.events.flatMap((event, index) => {
      const seq = commit.expectedEventCount + index + 1;
      const { payload, usage, type } = event;
      return this.payloadItems(pk, eventKey(seq), payload, { seq, type, at, step: commit.step, usage });
    });
    const puts: Item[] = [
      ...eventItems,
      ...this.payloadItems(pk, `STEP#${commit.step}`, commit.outcome),
      ...Object.entries(commit.documents ?? {}).flatMap(([name, value]) => this.payloadItems(pk, `DOC#${name}`, value)),
    ];
    const head = this.payloadItems(pk, 'HEAD', commit.head, {
      gsi1pk: LIST_PARTITION,
      gsi1sk: `${commit.head.createdAt}#${commit.head.id}`,
      eventCount: commit.head.eventCount,
    });
    const isAppendOnly = (item: Item) => String(item.sk).startsWith('EV#') || String(item.sk).startsWith('STEP#');
    try {
      await this.documents.send(
        new TransactWriteCommand({
          TransactItems: [
            ...head.map((item, index) => ({
              Put: {
                TableName: this.tableName,
                Item: { ...item, expiresAt },
                ...(index === 0
                  ? { ConditionExpression: 'eventCount = :expected', ExpressionAttributeValues: { ':expected': commit.expectedEventCount } }
                  : {}),
              },
            })),
            ...puts.map((item) => ({
              Put: {
                TableName: this.tableName,
                Item: { ...item, expiresAt },
                ...(isAppendOnly(item) ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}),
              },
            })),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) {
        throw new StepConflictError(`step ${commit.step} of investigation ${id} conflicts with a write that came first`);
      }
      throw error;
    }
  }

  async putSnapshot(key: string, value: unknown): Promise<void> {
    const pk = `SNAPSHOT#${key}`;
    const expiresAt = Math.floor(this.clock().getTime() / 1000) + this.retentionSeconds;
    const items = this.payloadItems(pk, 'BODY', value).map((item) => ({ ...item, expiresAt }));
    await this.documents.send(
      new TransactWriteCommand({ TransactItems: items.map((item) => ({ Put: { TableName: this.tableName, Item: item } })) }),
    );
  }

  async snapshot(key: string): Promise<unknown> {
    return this.readPayload(`SNAPSHOT#${key}`, 'BODY');
  }

  private expiry(createdAt: string): number {
    return Math.floor(Date.parse(createdAt) / 1000) + this.retentionSeconds;
  }

  /** The item for a payload, plus its part items when it had to be chunked. */
  private payloadItems(pk: string, sk: string, value: unknown, attributes: Item = {}): Item[] {
    const encoded = encodePayload(value, this.maxInlineBytes);
    if (encoded.encoding !== 'gzip-chunked') {
      return [{ pk, sk, ...attributes, encoding: encoded.encoding, body: encoded.body }];
    }
    return [
      { pk, sk, ...attributes, encoding: encoded.encoding, parts: encoded.parts.length },
      ...encoded.parts.map((part, index) => ({ pk, sk: partKey(sk, index + 1), encoding: 'part', body: part })),
    ];
  }

  private async readPayload(pk: string, sk: string): Promise<unknown> {
    const result = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk }, ConsistentRead: true }));
    if (!result.Item) return undefined;
    if (result.Item.encoding !== 'gzip-chunked') return decodePayload(toEncoded(result.Item, []));
    const parts = await this.queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': `${sk}#PART#` },
      ConsistentRead: true,
    });
    return decodePayload(toEncoded(result.Item, parts));
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

const toEncoded = (item: Item, parts: Item[]): EncodedPayload => {
  switch (item.encoding) {
    case 'json':
      return { encoding: 'json', body: String(item.body) };
    case 'gzip':
      return { encoding: 'gzip', body: item.body as Uint8Array };
    case 'gzip-chunked': {
      // A payload rewritten with fewer parts leaves stale ones behind; its owner says how many count.
      const ordered = [...parts].sort((a, b) => String(a.sk).localeCompare(String(b.sk))).slice(0, Number(item.parts));
      if (ordered.length !== item.parts) {
        throw new Error(`payload ${String(item.sk)} has ${ordered.length} of its ${String(item.parts)} parts`);
      }
      return { encoding: 'gzip-chunked', parts: ordered.map((part) => part.body as Uint8Array) };
    }
    default:
      throw new Error(`payload ${String(item.sk)} has an unknown encoding ${String(item.encoding)}`);
  }
};

/** Joins part items (which sort right after their owner) back onto the owner's payload. */
const assemble = (items: Item[]): { item: Item; payload: unknown }[] => {
  const owners = items.filter((item) => item.encoding !== 'part');
  return owners.map((item) => {
    const prefix = `${String(item.sk)}#PART#`;
    const parts = items.filter((candidate) => candidate.encoding === 'part' && String(candidate.sk).startsWith(prefix));
    return { item, payload: decodePayload(toEncoded(item, parts)) };
  });
};
