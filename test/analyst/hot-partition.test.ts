import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-03-09T08:00:00.000Z';
const lines = linesFrom(START);

/**
 * A provisioned table throttled from minute 60, its consumed writes up twentyfold. The storefront API
 * that reads it shipped a release at minute 57 and fails with throttling errors. A ledger import,
 * silent until minute 59, starts writing under one partition key and is throttled too, from minute 61
 * and without naming the table; a schedule created at minute 40 launched it. `keyRange` says whether the table and the import say the throttling
 * fell on one key range.
 */
const throttledTable = ({ keyRange }: { keyRange: boolean }) =>
  boardFrom({
    brief: 'CloudWatch alarm "shop-api-5xx" is in ALARM',
    services: [
      { name: 'shop-api', kind: 'ecs', dependsOn: ['rules-table'] },
      { name: 'ledger-import', kind: 'ecs', dependsOn: ['rules-table', 'import-files'] },
      { name: 'rules-table', kind: 'dynamodb' },
      { name: 'import-files', kind: 's3' },
    ],
    alarms: [{ name: 'shop-api-5xx', service: 'shop-api', state: 'ALARM', since: at(START, 63) }],
    changes: [
      { service: 'ledger-import', timestamp: at(START, 40), kind: 'config', summary: 'EventBridge Scheduler CreateSchedule ledger-import-run: at(2026-03-09T08:59:00), target ECS RunTask ledger-import:1' },
      { service: 'shop-api', timestamp: at(START, 57), kind: 'deploy', summary: 'shop-api v3.4.0 rolled out' },
    ],
    metrics: [
      { service: 'rules-table', name: 'ConsumedWriteCapacityUnits', points: series(START, 90, step(60, 3_000, 60_000)) },
      { service: 'rules-table', name: 'WriteThrottleEvents', points: series(START, 90, step(60, 0, 4_000)) },
      ...(keyRange ? [{ service: 'rules-table', name: 'WriteKeyRangeThroughputThrottleEvents', points: series(START, 90, step(60, 0, 4_000)) }] : []),
      { service: 'shop-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 90, step(61, 1, 400)) },
      { service: 'shop-api', name: 'RequestCount', points: series(START, 90, () => 20_000) },
    ],
    logs: sorted([
      ...lines('shop-api', 0, 5, 12, 'INFO', (index) => `GET /v1/rules/${index} 200`),
      ...lines('shop-api', 61, 2, 14, 'ERROR', (index) => `rule lookup failed req=${index}: ProvisionedThroughputExceededException: The level of configured provisioned throughput for the table was exceeded`),
      { service: 'ledger-import', timestamp: at(START, 59), level: 'INFO', message: 'import starting: table=rules-table pk=LEDGER#2026-03 workers=24' },
      ...lines('ledger-import', 61, 2, 14, 'WARN', (index) =>
        `worker-${index}: BatchWriteItem throttled (ProvisionedThroughputExceededException${keyRange ? ', ThrottlingReasons=[TableWriteKeyRangeThroughputExceeded]' : ''}); retry 3/10`,
      ),
    ]),
  });

describe('a table throttled for a caller that just released and for one that did not', () => {
  it('is not explained by the release: the work that started writing to it is its load', () => {
    const diagnosis = diagnose(throttledTable({ keyRange: true }));
    expect(diagnosis.root).toBe('ledger-import');
    expect(diagnosis.principles).not.toContain('caller-change');
  });
});

describe('throttles a table counts per key range', () => {
  it('say one hot partition took them, name the key its load writes, and make it traffic, whatever launched it', () => {
    const diagnosis = diagnose(throttledTable({ keyRange: true }));
    expect(diagnosis.draft.rootCause.summary).toContain('one partition of rules-table (its lines name the partition key LEDGER#2026-03)');
    expect(diagnosis.draft.rootCause.summary).toContain('a hot partition');
    expect(diagnosis.draft.rootCause.category).toBe('traffic');
  });

  it('are not claimed when the table counts its throttles for the whole table only', () => {
    const diagnosis = diagnose(throttledTable({ keyRange: false }));
    expect(diagnosis.root).toBe('ledger-import');
    expect(diagnosis.draft.rootCause.summary).not.toContain('hot partition');
  });
});

/** A table throttled from minute 60 with nothing new at its one caller: no release, its requests steady. */
const throttledWithNoLoadFound = ({ keyRange }: { keyRange: boolean }) =>
  boardFrom({
    brief: 'CloudWatch alarm "orders-read-throttles" is in ALARM',
    services: [
      { name: 'orders-api', kind: 'ecs', dependsOn: ['orders-table'] },
      { name: 'orders-table', kind: 'dynamodb' },
    ],
    alarms: [{ name: 'orders-read-throttles', service: 'orders-table', state: 'ALARM', since: at(START, 62) }],
    metrics: [
      { service: 'orders-table', name: 'ReadThrottleEvents', points: series(START, 90, step(60, 0, 2_500)) },
      ...(keyRange ? [{ service: 'orders-table', name: 'ReadKeyRangeThroughputThrottleEvents', points: series(START, 90, step(60, 0, 2_500)) }] : []),
      { service: 'orders-api', name: 'RequestCount', points: series(START, 90, () => 20_000) },
    ],
    logs: sorted([
      ...lines('orders-api', 0, 5, 12, 'INFO', (index) => `GET /v1/orders/${index} 200`),
      ...lines('orders-api', 61, 2, 14, 'ERROR', (index) => `order read failed req=${index}: ProvisionedThroughputExceededException: Throughput exceeds the current capacity of your table or index`),
    ]),
  });

describe('a table that is itself where the search ends', () => {
  it('throttling per key range: one hot partition is said to take the throttles', () => {
    const diagnosis = diagnose(throttledWithNoLoadFound({ keyRange: true }));
    expect(diagnosis.root).toBe('orders-table');
    expect(diagnosis.draft.rootCause.summary).toContain('orders-table throttles the requests on one partition');
  });

  it('throttling counted for the whole table: no partition is blamed', () => {
    const diagnosis = diagnose(throttledWithNoLoadFound({ keyRange: false }));
    expect(diagnosis.root).toBe('orders-table');
    expect(diagnosis.draft.rootCause.summary).not.toContain('partition');
  });
});
