import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const step = (from: number, before: number, after: number) => (minute: number) => (minute < from ? before : after);
const lines = (service: string, from: number, every: number, count: number, level: string, message: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => ({ service, timestamp: at(START, from + index * every), level, message: message(index) }));
const sorted = <T extends { timestamp: string }>(items: T[]) => items.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
const growing = (from: number) => (minute: number) => (minute < from ? 0 : (minute - from) * 12);

describe('a queue shows the symptom of whoever handles its work', () => {
  it('a dead-letter queue the map links to nothing fills because its queue\'s consumer fails, and the consumer is blamed', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "orders-dlq-not-empty" is in ALARM',
        services: [
          { name: 'orders-api', kind: 'ecs', dependsOn: ['orders-queue'] },
          { name: 'orders-queue', kind: 'sqs' },
          { name: 'orders-dlq', kind: 'sqs' },
          { name: 'fulfil', kind: 'lambda', dependsOn: ['orders-queue', 'stock'] },
          { name: 'stock', kind: 'dynamodb' },
          { name: 'email', kind: 'lambda' },
        ],
        alarms: [{ name: 'orders-dlq-not-empty', service: 'orders-dlq', state: 'ALARM', since: at(START, 95) }],
        changes: [{ service: 'email', timestamp: at(START, 85), kind: 'deploy', summary: 'email v12 deployed' }],
        metrics: [{ service: 'orders-dlq', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, growing(90)) }],
        logs: sorted([...lines('fulfil', 0, 5, 24, 'INFO', (index) => `order ${index} fulfilled`), ...lines('fulfil', 90, 3, 10, 'ERROR', () => 'TypeError: Cannot read properties of undefined (reading "sku")')]),
      }),
    );
    expect(diagnosis.root).toBe('fulfil');
  });

  it('a dead-letter queue linked to its queue leads to that queue\'s failing consumer', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "jobs-dlq-not-empty" is in ALARM',
        services: [
          { name: 'api', kind: 'ecs', dependsOn: ['jobs'] },
          { name: 'jobs', kind: 'sqs', dependsOn: ['parking'] },
          { name: 'parking', kind: 'sqs' },
          { name: 'worker', kind: 'lambda', dependsOn: ['jobs'] },
        ],
        alarms: [{ name: 'jobs-dlq-not-empty', service: 'parking', state: 'ALARM', since: at(START, 95) }],
        metrics: [{ service: 'parking', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, growing(90)) }],
        logs: sorted([...lines('worker', 0, 5, 24, 'INFO', (index) => `job ${index} done`), ...lines('worker', 90, 3, 10, 'ERROR', () => 'Task timed out after 30.00 seconds')]),
      }),
    );
    expect(diagnosis.root).toBe('worker');
  });

  it('a backlog whose consumer only waits on its slow database leads to the database', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "events-age" is in ALARM',
        services: [
          { name: 'ingest', kind: 'ecs', dependsOn: ['events'] },
          { name: 'events', kind: 'sqs' },
          { name: 'writer', kind: 'ecs', dependsOn: ['events', 'events-db'] },
          { name: 'events-db', kind: 'rds' },
        ],
        alarms: [{ name: 'events-age', service: 'events', state: 'ALARM', since: at(START, 95) }],
        metrics: [
          { service: 'events', name: 'ApproximateAgeOfOldestMessage', points: series(START, 120, (minute) => (minute < 88 ? 5 : (minute - 88) * 60)) },
          { service: 'events', name: 'NumberOfMessagesSent', points: series(START, 120, () => 1000) },
          { service: 'events-db', name: 'CPUUtilization', points: series(START, 120, step(86, 30, 99)) },
        ],
        logs: sorted([...lines('writer', 0, 5, 24, 'INFO', (index) => `batch ${index} stored`), ...lines('writer', 88, 3, 10, 'WARN', () => 'INSERT into event_log took 9400 ms (slow)')]),
      }),
    );
    expect(diagnosis.root).toBe('events-db');
  });
});

describe('a CDN or load balancer shows the symptom of its origin', () => {
  it('a CDN\'s 4xx after its origin bucket\'s policy changed blame the bucket, not the CDN or a deploy elsewhere', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "cdn-4xx" is in ALARM',
        services: [{ name: 'cdn', kind: 'cloudfront', dependsOn: ['assets'] }, { name: 'assets', kind: 's3' }, { name: 'shop', kind: 'ecs' }],
        alarms: [{ name: 'cdn-4xx', service: 'cdn', state: 'ALARM', since: at(START, 95) }],
        changes: [
          { service: 'shop', timestamp: at(START, 87), kind: 'deploy', summary: 'shop v4 rolled out' },
          { service: 'assets', timestamp: at(START, 89), kind: 'config', summary: 'PutBucketPolicy on assets: origin access statement removed' },
        ],
        metrics: [{ service: 'cdn', name: '4xxErrorRate', points: series(START, 120, step(90, 0.4, 40)) }, { service: 'cdn', name: 'Requests', points: series(START, 120, () => 9000) }],
      }),
    );
    expect(diagnosis.root).toBe('assets');
    expect(diagnosis.suspectChange?.summary).toMatch(/PutBucketPolicy/);
  });

  it('a load balancer\'s 5xx behind a CDN lead to the target service that just released', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "cdn-5xx" is in ALARM',
        services: [{ name: 'cdn', kind: 'cloudfront', dependsOn: ['web-lb'] }, { name: 'web-lb', kind: 'elb', dependsOn: ['web'] }, { name: 'web', kind: 'ecs' }, { name: 'search', kind: 'ecs' }],
        alarms: [{ name: 'cdn-5xx', service: 'cdn', state: 'ALARM', since: at(START, 95) }],
        changes: [
          { service: 'search', timestamp: at(START, 88), kind: 'deploy', summary: 'search v2 rolled out' },
          { service: 'web', timestamp: at(START, 86), kind: 'deploy', summary: 'web v31 rolled out' },
        ],
        metrics: [
          { service: 'cdn', name: '5xxErrorRate', points: series(START, 120, step(90, 0.1, 30)) },
          { service: 'web-lb', name: 'HTTPCode_ELB_5XX_Count', points: series(START, 120, step(90, 0, 400)) },
          { service: 'web-lb', name: 'RequestCount', points: series(START, 120, () => 9000) },
        ],
      }),
    );
    expect(diagnosis.root).toBe('web');
  });

  it('a front whose own evidence says why (an expired certificate) stays the root', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "edge-errors" is in ALARM',
        services: [{ name: 'edge', kind: 'elb', dependsOn: ['web'] }, { name: 'web', kind: 'ecs' }],
        alarms: [{ name: 'edge-errors', service: 'edge', state: 'ALARM', since: at(START, 95) }],
        logs: sorted([...lines('edge', 90, 3, 10, 'ERROR', () => 'TLS handshake failed: certificate has expired (CERT_HAS_EXPIRED)')]),
      }),
    );
    expect(diagnosis.root).toBe('edge');
  });
});

describe('a lagging replica the map does not link to its source', () => {
  it('replays the database of its kind whose writes rose first, and the job that started them is blamed', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "orders-replica-lag" is in ALARM',
        services: [
          { name: 'reports', kind: 'ecs', dependsOn: ['orders-replica'] },
          { name: 'orders-replica', kind: 'rds' },
          { name: 'orders-db', kind: 'rds' },
          { name: 'checkout', kind: 'ecs', dependsOn: ['orders-db'] },
          { name: 'nightly-import', kind: 'ecs', dependsOn: ['orders-db'] },
        ],
        alarms: [{ name: 'orders-replica-lag', service: 'orders-replica', state: 'ALARM', since: at(START, 95) }],
        metrics: [
          { service: 'orders-replica', name: 'ReplicaLag', points: series(START, 120, (minute) => (minute < 88 ? 0.2 : (minute - 88) * 30)) },
          { service: 'orders-db', name: 'WriteIOPS', points: series(START, 120, step(85, 400, 6000)) },
        ],
        logs: sorted([
          ...lines('checkout', 0, 5, 24, 'INFO', (index) => `order ${index} placed`),
          ...lines('nightly-import', 84, 4, 9, 'INFO', (index) => `imported ${(index + 1) * 10000} rows`),
          ...lines('reports', 95, 5, 5, 'WARN', () => 'report stale: data older than 15 minutes'),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('nightly-import');
  });
});
