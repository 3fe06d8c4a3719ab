import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { approval as approvalSchema, type Approval } from '../domain/approval.ts';
import type { ApprovalStore, DecideResult, Decision } from './approval-store.ts';
import { tableLayout } from './table-layout.ts';

const partitionKey = (id: string) => `APPROVAL#${id}`;
const RECORD = 'RECORD';
/** The list index's partition per status: `GET /approvals?status=pending` is one query. */
const statusPartition = (status: Approval['status']) => `APPROVALS#${status}`;
/** Days an approval record outlives its expiry when the deployment does not say (the store's own default). */
const DEFAULT_RETENTION_DAYS = 90;

/** Approval records in the investigations table, one partition each, with the task token as an attribute no read returns. */
export class DynamoDbApprovalStore implements ApprovalStore {
  private readonly documents: DynamoDBDocumentClient;

  constructor(private readonly options: { client: DynamoDBClient; tableName: string; retentionDays?: number }) {
    this.documents = DynamoDBDocumentClient.from(options.client, { marshallOptions: { removeUndefinedValues: true } });
  }

  async requestApproval(record: Approval, taskToken: string): Promise<Approval> {
    const key = { pk: partitionKey(record.id), sk: RECORD };
    try {
      await this.documents.send(
        new PutCommand({
          TableName: this.options.tableName,
          Item: { ...key, ...this.indexAttributes(record), record, taskToken, [tableLayout.ttlAttribute]: Math.floor(Date.parse(record.expiresAt) / 1000) + (this.options.retentionDays ?? DEFAULT_RETENTION_DAYS) * 86_400 },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return record;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.options.tableName,
          Key: key,
          UpdateExpression: 'SET taskToken = :token',
          ConditionExpression: '#record.#status = :pending',
          ExpressionAttributeNames: { '#record': 'record', '#status': 'status' },
          ExpressionAttributeValues: { ':token': taskToken, ':pending': 'pending' },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    const stored = await this.getApproval(record.id);
    if (!stored) throw new Error(`approval ${record.id} vanished while it was requested`);
    return stored;
  }

  async getApproval(id: string): Promise<Approval | undefined> {
    const item = await this.item(id);
    return item ? approvalSchema.parse(item.record) : undefined;
  }

  async listApprovals(status: Approval['status'], limit = 50): Promise<Approval[]> {
    const { Items = [] } = await this.documents.send(
      new QueryCommand({
        TableName: this.options.tableName,
        IndexName: tableLayout.listIndex.name,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': statusPartition(status) },
        Limit: limit,
      }),
    );
    // The list index projects keys only: each record is read from its own item.
    const records = await Promise.all(Items.map((item) => this.getApproval(String(item.pk).slice('APPROVAL#'.length))));
    return records.filter((record): record is Approval => record !== undefined && record.status === status);
  }

  async decide(id: string, decision: Decision): Promise<DecideResult> {
    const current = await this.getApproval(id);
    if (!current) return { state: 'not-found' };
    if (current.status !== 'pending') return current.status === 'expired' ? { state: 'expired', approval: current } : { state: 'already-decided', approval: current };
    if (Date.parse(current.expiresAt) <= decision.at.getTime()) return { state: 'expired', approval: current };
    const decided: Approval = {
      ...current,
      status: decision.status,
      decidedBy: decision.by,
      decidedAt: decision.at.toISOString(),
      ...(decision.comment === undefined ? {} : { comment: decision.comment }),
      callback: 'pending',
    };
    const changed = await this.replaceIfPending(decided, `#record.expiresAt > :now`, { ':now': decision.at.toISOString() });
    if (changed) return { state: 'decided', approval: decided };
    const after = (await this.getApproval(id))!;
    return after.status === 'expired' || after.status === 'pending' ? { state: 'expired', approval: after } : { state: 'already-decided', approval: after };
  }

  async expire(id: string, at: Date): Promise<Approval | undefined> {
    const current = await this.getApproval(id);
    if (!current || current.status !== 'pending') return current;
    const expired: Approval = { ...current, status: 'expired', decidedAt: at.toISOString() };
    await this.replaceIfPending(expired);
    return this.getApproval(id);
  }

  async taskToken(id: string): Promise<string | undefined> {
    const item = await this.item(id);
    return typeof item?.taskToken === 'string' ? item.taskToken : undefined;
  }

  async markCallback(id: string, callback: 'delivered' | 'task-timed-out'): Promise<void> {
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.options.tableName,
          Key: { pk: partitionKey(id), sk: RECORD },
          UpdateExpression: 'SET #record.#callback = :callback',
          // The API and the scheduled redelivery may send one decision at once: the first answer
          // Step Functions gave is the record, and a later "task timed out" must not overwrite "delivered".
          ConditionExpression: '#record.#callback = :pending',
          ExpressionAttributeNames: { '#record': 'record', '#callback': 'callback' },
          ExpressionAttributeValues: { ':callback': callback, ':pending': 'pending' },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async undeliveredDecisions(limit = 50): Promise<Approval[]> {
    const decided = await Promise.all((['approved', 'rejected'] as const).map((status) => this.listApprovals(status, limit)));
    return decided.flat().filter((record) => record.callback === 'pending');
  }

  private async item(id: string): Promise<Record<string, unknown> | undefined> {
    const { Item } = await this.documents.send(new GetCommand({ TableName: this.options.tableName, Key: { pk: partitionKey(id), sk: RECORD }, ConsistentRead: true }));
    return Item;
  }

  private indexAttributes(record: Approval) {
    return { gsi1pk: statusPartition(record.status), gsi1sk: `${record.requestedAt}#${record.id}` };
  }

  /** The single-use guard: the write happens only while the stored record is still pending. */
  private async replaceIfPending(record: Approval, extraCondition?: string, extraValues: Record<string, unknown> = {}): Promise<boolean> {
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.options.tableName,
          Key: { pk: partitionKey(record.id), sk: RECORD },
          UpdateExpression: 'SET #record = :record, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk',
          ConditionExpression: `#record.#status = :pending${extraCondition ? ` AND ${extraCondition}` : ''}`,
          ExpressionAttributeNames: { '#record': 'record', '#status': 'status' },
          ExpressionAttributeValues: { ':record': record, ':pending': 'pending', ...this.prefixed(this.indexAttributes(record)), ...extraValues },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  private prefixed(attributes: { gsi1pk: string; gsi1sk: string }) {
    return { ':gsi1pk': attributes.gsi1pk, ':gsi1sk': attributes.gsi1sk };
  }
}
