import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

/**
 * A rides queue whose dead-letter queue fills from minute 88 over `minutes`, the consumer released at minute 70; the consumer
 * logs its failures from `failsFrom` on, and counts them from minute 71 when `counted`.
 */
const ridesBoard = ({ minutes = 120, failsFrom = 71, failures = 12, counted = true }: { minutes?: number; failsFrom?: number; failures?: number; counted?: boolean } = {}) =>
  boardFrom({
    brief: 'CloudWatch alarm "rides-dlq-depth" is in ALARM',
    services: [
      { name: 'trips', kind: 'ecs', dependsOn: ['rides-queue'] },
      { name: 'rides-queue', kind: 'sqs' },
      { name: 'rides-dlq', kind: 'sqs' },
      { name: 'receipts', kind: 'lambda', dependsOn: ['rides-queue'] },
    ],
    alarms: [{ name: 'rides-dlq-depth', service: 'rides-dlq', state: 'ALARM', since: at(START, 95) }],
    changes: [{ service: 'receipts', timestamp: at(START, 70), kind: 'deploy', summary: 'receipts version 42' }],
    metrics: [
      { service: 'rides-dlq', name: 'ApproximateNumberOfMessagesVisible', points: series(START, minutes, (minute) => (minute < 88 ? 0 : (minute - 88) * 4)) },
      ...(counted ? [{ service: 'receipts', name: 'Errors', points: series(START, minutes, step(71, 0, 150)) }] : []),
    ],
    logs: sorted([
      ...Array.from({ length: Math.floor(minutes / 12) }, (_, index) => ({ service: 'trips', timestamp: at(START, index * 12), level: 'INFO', message: `ride R-${index} completed; published` })),
      ...Array.from({ length: failures }, (_, index) => ({ service: 'receipts', timestamp: at(START, failsFrom + index * 4), level: 'ERROR', message: "TypeError: Cannot read properties of undefined (reading 'amountMinor')" })),
    ]),
  });

describe('a resource that only passes work along shows the fault of the code that handles it', () => {
  it("a filling dead-letter queue the map leaves unconnected leads, through the queue named like it, to the consumer that fails, and to its release", () => {
    const diagnosis = diagnose(ridesBoard());
    expect(diagnosis.root).toBe('receipts');
    expect(diagnosis.suspectChange?.summary).toBe('receipts version 42');
  });

  it('a dead-letter queue its source queue redrives into leads to that queue\'s consumer, and on to the release its failures name', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "prints-dlq-depth" is in ALARM',
        services: [
          { name: 'orders', kind: 'ecs', dependsOn: ['prints'] },
          { name: 'prints', kind: 'sqs', dependsOn: ['prints-dlq'] },
          { name: 'prints-dlq', kind: 'sqs' },
          { name: 'printer', kind: 'ecs', dependsOn: ['prints'] },
        ],
        alarms: [{ name: 'prints-dlq-depth', service: 'prints-dlq', state: 'ALARM', since: at(START, 95) }],
        changes: [{ service: 'orders', timestamp: at(START, 80), kind: 'deploy', summary: 'orders 7.2.0 rolled out (order model v4)' }],
        metrics: [{ service: 'prints-dlq', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, (minute) => (minute < 88 ? 0 : (minute - 88) * 4)) }],
        logs: sorted(
          Array.from({ length: 10 }, (_, index) => ({
            service: 'printer',
            timestamp: at(START, 84 + index * 3),
            level: 'ERROR',
            message: `print job rejected producer=orders version=4 receiveCount=${2 + (index % 3)}: ValidationError: 'sheet' is a required property`,
          })),
        ),
      }),
    );
    expect(diagnosis.root).toBe('orders');
    expect(diagnosis.suspectChange?.summary).toContain('7.2.0');
  });

  it("a backlog dates the consumer's part in it: the consumer's earlier, unrelated errors do not hide the change made just before the backlog", () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "docs-queue-age" is in ALARM',
        services: [
          { name: 'portal', kind: 'ecs', dependsOn: ['docs-queue'] },
          { name: 'docs-queue', kind: 'sqs' },
          { name: 'classifier', kind: 'lambda', dependsOn: ['docs-queue'] },
        ],
        alarms: [{ name: 'docs-queue-age', service: 'docs-queue', state: 'ALARM', since: at(START, 80) }],
        changes: [{ service: 'classifier', timestamp: at(START, 62), kind: 'config', summary: 'PutFunctionConcurrency classifier ReservedConcurrentExecutions 100 -> 2' }],
        metrics: [{ service: 'docs-queue', name: 'ApproximateAgeOfOldestMessage', points: series(START, 120, (minute) => (minute < 66 ? 12 : (minute - 66) * 60)) }],
        logs: sorted(
          Array.from({ length: 4 }, (_, index) => ({ service: 'classifier', timestamp: at(START, 30 + index * 20), level: 'ERROR', message: `PDFSyntaxError: EOF marker not found (file=upload_${index}.pdf)` })),
        ),
      }),
    );
    expect(diagnosis.root).toBe('classifier');
    expect(diagnosis.suspectChange?.summary).toContain('PutFunctionConcurrency');
  });

  it("a backlog dates the fault though the handler logs of it only hours later: the release just before the backlog began is found", () => {
    const diagnosis = diagnose(ridesBoard({ minutes: 400, failsFrom: 300, failures: 6, counted: false }));
    expect(diagnosis.root).toBe('receipts');
    expect(diagnosis.suspectChange?.summary).toBe('receipts version 42');
  });

  it('a database does work of its own: its trouble is not handed to a client that merely shows it', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "db-cpu" is in ALARM',
        services: [{ name: 'sync', kind: 'lambda', dependsOn: ['db'] }, { name: 'db', kind: 'rds' }],
        alarms: [{ name: 'db-cpu', service: 'db', state: 'ALARM', since: at(START, 62) }],
        metrics: [
          { service: 'db', name: 'CPUUtilization', points: series(START, 120, step(60, 20, 99)) },
          { service: 'sync', name: 'Duration', points: series(START, 120, step(64, 1800, 9000)) },
        ],
      }),
    );
    expect(diagnosis.root).not.toBe('sync');
  });
});

describe('sparse evidence: one line in which a resource names a fault of its own counts', () => {
  it("a database's few 'No space left on device' lines make it the next link, not the queue the failing writer only names", () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "ingest-errors" is in ALARM',
        services: [
          { name: 'ingest', kind: 'ecs', dependsOn: ['points-queue', 'telemetry-db'] },
          { name: 'points-queue', kind: 'sqs' },
          { name: 'telemetry-db', kind: 'rds' },
        ],
        alarms: [{ name: 'ingest-errors', service: 'ingest', state: 'ALARM', since: at(START, 64) }],
        metrics: [{ service: 'points-queue', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, (minute) => (minute < 62 ? 20 : (minute - 62) * 60)) }],
        logs: sorted([
          { service: 'telemetry-db', timestamp: at(START, 60), level: 'ERROR', message: "[InnoDB] Error number 28 means 'No space left on device'" },
          ...Array.from({ length: 10 }, (_, index) => ({ service: 'ingest', timestamp: at(START, 61 + index * 4), level: 'ERROR', message: `batch b-${index} failed: the table 'points' is full; message returned to queue after 3 attempts` })),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('telemetry-db');
  });
});

describe('the handler of a carrier points on to the source its failures name', () => {
  it("a consumer failing on work that names the producer it came from points at that producer, not at itself", () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "order-events-age" is in ALARM',
        services: [
          { name: 'partner-import', kind: 'lambda', dependsOn: ['order-events'] },
          { name: 'storefront', kind: 'ecs', dependsOn: ['order-events'] },
          { name: 'order-events', kind: 'sqs' },
          { name: 'projector', kind: 'lambda', dependsOn: ['order-events', 'read-model'] },
          { name: 'read-model', kind: 'dynamodb' },
        ],
        alarms: [{ name: 'order-events-age', service: 'order-events', state: 'ALARM', since: at(START, 80) }],
        changes: [{ service: 'storefront', timestamp: at(START, 55), kind: 'deploy', summary: 'storefront v7.2.0 rolled out' }],
        metrics: [{ service: 'order-events', name: 'ApproximateAgeOfOldestMessage', points: series(START, 120, (minute) => (minute < 62 ? 8 : (minute - 62) * 60)) }],
        logs: sorted([
          ...Array.from({ length: 10 }, (_, index) => ({ service: 'storefront', timestamp: at(START, index * 12), level: 'INFO', message: `order ord_${index} placed; published OrderCreated` })),
          ...Array.from({ length: 12 }, (_, index) => ({ service: 'projector', timestamp: at(START, 61 + index * 4), level: 'ERROR', message: `failed to project eventType=OrderCreated orderId=ord_globex_7 source=partner-import: TypeError: Cannot read properties of null (reading 'amount')` })),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('partner-import');
  });
});
