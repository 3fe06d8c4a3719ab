import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { JoinedTrigger, JoinedTriggerReader } from '../triggers/ledger.ts';

/** An investigation's partition; the ledger keeps one `JOINED#<received at>#<identity>` item in it per trigger that joined. */
export const investigationPartition = (investigationId: string): string => `INV#${investigationId}`;
export const JOINED_TRIGGER_PREFIX = 'JOINED#';

/**
 * Reads the triggers that joined an investigation with Query alone, so a workflow step (CallModel)
 * needs no more of the table than it already has; the trigger ledger writes them.
 */
export class DynamoDbJoinedTriggers implements JoinedTriggerReader {
  private readonly documents: DynamoDBDocumentClient;

  constructor(private readonly options: { client: DynamoDBClient; tableName: string }) {
    this.documents = DynamoDBDocumentClient.from(options.client);
  }

  async joinedTriggers(investigationId: string): Promise<JoinedTrigger[]> {
    const joined: JoinedTrigger[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.documents.send(
        new QueryCommand({
          TableName: this.options.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': investigationPartition(investigationId), ':prefix': JOINED_TRIGGER_PREFIX },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        joined.push({
          receivedAt: String(item.receivedAt),
          summary: String(item.summary),
          ...(typeof item.occurredAt === 'string' ? { occurredAt: item.occurredAt } : {}),
          ...(typeof item.occurrenceKey === 'string' ? { occurrenceKey: item.occurrenceKey } : {}),
        });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return joined;
  }
}
