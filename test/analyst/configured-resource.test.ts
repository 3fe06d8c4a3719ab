import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { changeExplains, failureKindsOfChange } from '../../lib/analyst/change-effects.ts';
import type { Change } from '../../lib/analyst/evidence-board.ts';
import { at, boardFrom, series, step } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

/** A service that works for an hour and a half, then fails with `message` every three minutes. */
const worksThenFails = (service: string, message: string) => [
  ...Array.from({ length: 24 }, (_, index) => ({ service, timestamp: at(START, index * 5), level: 'INFO', message: `request ${index} served` })),
  ...Array.from({ length: 10 }, (_, index) => ({ service, timestamp: at(START, 90 + index * 3), level: 'ERROR', message })),
].sort((a, b) => a.timestamp.localeCompare(b.timestamp));

const change = (service: string, minute: number, kind: string, summary: string) => ({
  service,
  timestamp: at(START, minute),
  kind,
  summary,
});

const asChange = (kind: string, summary: string): Change => ({ service: 'x', timestamp: START, at: Date.parse(START), kind, summary, ref: 'E1' });

describe('what a configuration change can break, read from what it changed', () => {
  it('reads the failure kinds of common settings', () => {
    expect(failureKindsOfChange(asChange('config', 'PutSecretValue on orders-db-credentials'))).toContain('credentials');
    expect(failureKindsOfChange(asChange('config', 'DisableKey on payments-key'))).toContain('disabled key');
    expect(failureKindsOfChange(asChange('network', 'RevokeSecurityGroupIngress on db-sg: tcp 5432'))).toContain('network');
    expect(failureKindsOfChange(asChange('config', 'UpdateStage prod: throttlingRateLimit 1000 -> 100'))).toContain('throttling');
    expect(failureKindsOfChange(asChange('config', 'SetQueueAttributes jobs: VisibilityTimeout 720 -> 30'))).toContain('redelivery');
    expect(failureKindsOfChange(asChange('config', 'SetSubscriptionAttributes FilterPolicy on subscription mail'))).toContain('undelivered');
  });

  it('reads infrastructure as code that called an API to set a resource in place as a configuration, however it was filed; a platform event it is not', () => {
    const applied = asChange('infrastructure', 'terraform apply via Atlantis, PR #2291: UpdateUsagePlan usagePlanId=u7x2kq');
    expect(failureKindsOfChange(applied)).toContain('throttling');
    expect(failureKindsOfChange(asChange('infrastructure', 'Auto Scaling: throttle rebalancing in progress across us-east-1a, us-east-1b'))).toEqual(new Set());
    expect(failureKindsOfChange(asChange('infrastructure', 'terraform apply: created usage plan partner-trial'))).toEqual(new Set());
  });

  it('reads a limit on how fast callers may go, only raised, as throttling nothing; raised concurrency still sends more on', () => {
    expect(failureKindsOfChange(asChange('config', 'UpdateStage partners/live: burstLimit 200 -> 350, rateLimit 100 -> 150'))).not.toContain('throttling');
    expect(failureKindsOfChange(asChange('config', 'UpdateStage partners/live: burstLimit 350 -> 200'))).toContain('throttling');
    expect(failureKindsOfChange(asChange('config', 'PutFunctionConcurrency importer: reserved concurrency 5 -> 50'))).toContain('throttling');
  });

  it('reads scaling that only added room as breaking nothing; a scaling change that cut capacity, or took away the means to scale, can throttle', () => {
    expect(failureKindsOfChange(asChange('scaling', 'Application Auto Scaling: Setting write capacity units to 6000.'))).toEqual(new Set());
    expect(failureKindsOfChange(asChange('scaling', 'Application Auto Scaling: write capacity units 6000 -> 1000 (scheduled action night-low)'))).toContain('throttling');
    expect(failureKindsOfChange(asChange('scaling', 'DeregisterScalableTarget table/sessions: WriteCapacityUnits set to 400, no longer scaled'))).toContain('throttling');
  });

  it('a policy grants or denies access unless it says it governs something else', () => {
    for (const summary of ['PutBucketPolicy on menu-media', 'PutRolePolicy on reader-role', 'PutKeyPolicy on orders-key']) {
      expect(failureKindsOfChange(asChange('iam', summary))).toContain('access denied');
    }
    for (const summary of ['UpdateDistribution: attach response headers policy security-headers-v2', 'attach CachePolicy CachingOptimized', 'PutLifecyclePolicy on logs', 'PutScalingPolicy on api']) {
      expect(failureKindsOfChange(asChange('config', summary))).not.toContain('access denied');
    }
  });

  it('a registry that expires or deletes images breaks the tasks that still name them; an object lifecycle does not', () => {
    const missing = new Set(['missing image']);
    expect(changeExplains(asChange('other', 'ECR lifecycle policy run on repository room-api: 38 images expired'), missing)).toBe(true);
    expect(changeExplains(asChange('config', 'PutLifecyclePolicy on repository orders-api (keep last 15 images)'), missing)).toBe(true);
    expect(changeExplains(asChange('other', 'BatchDeleteImage orders-api: 12 image digests'), missing)).toBe(true);
    expect(changeExplains(asChange('config', 'S3 bucket exports: lifecycle rule expires objects after 30 days'), missing)).toBe(false);
    expect(changeExplains(asChange('config', 'UpdateService room-api desired count 4 -> 6'), missing)).toBe(false);
  });

  it('a deploy can break anything, so its kind alone names no failure', () => {
    expect(failureKindsOfChange(asChange('deploy', 'api v2 rolled out: new secret handling'))).toEqual(new Set());
  });

  it('a refused credential is the denied access a key or policy change produces, and the other way round', () => {
    expect(changeExplains(asChange('config', 'RotateSecret carrier/api-key'), new Set(['access denied']))).toBe(true);
    expect(changeExplains(asChange('config', 'RotateSecret carrier/api-key'), new Set(['network']))).toBe(false);
  });
});

describe('a change on a resource the failing path uses explains failures of its kind, even when the resource shows nothing itself', () => {
  it('a secret put just before password failures is the cause, though the service map does not show the secret', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "orders-api-5xx" is in ALARM',
        services: [{ name: 'web', kind: 'ecs', dependsOn: ['orders-api'] }, { name: 'orders-api', kind: 'ecs', dependsOn: ['orders-db'] }, { name: 'orders-db', kind: 'rds' }, { name: 'catalog-api', kind: 'ecs' }],
        alarms: [{ name: 'orders-api-5xx', service: 'orders-api', state: 'ALARM', since: at(START, 95) }],
        changes: [change('catalog-api', 85, 'deploy', 'catalog-api v2.3.1 rolled out'), change('orders-db-credentials', 88, 'config', 'PutSecretValue on orders-db-credentials by rotation-bot')],
        logs: worksThenFails('orders-api', 'FATAL: password authentication failed for user "orders_app"'),
      }),
    );
    expect(diagnosis.root).toBe('orders-db-credentials');
    expect(diagnosis.suspectChange?.summary).toMatch(/PutSecretValue/);
  });

  it('a key disabled just before KMS errors is the cause, not the worker that reports them', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "ledger-worker-errors" is in ALARM',
        services: [{ name: 'ledger-worker', kind: 'lambda', dependsOn: ['ledger-table'] }, { name: 'ledger-table', kind: 'dynamodb' }, { name: 'report-api', kind: 'ecs' }],
        alarms: [{ name: 'ledger-worker-errors', service: 'ledger-worker', state: 'ALARM', since: at(START, 95) }],
        changes: [change('report-api', 80, 'deploy', 'report-api 1.4 deployed'), change('payments-key', 89, 'config', 'DisableKey on payments-key by ops-admin')],
        logs: worksThenFails('ledger-worker', 'PutItem failed: KMSInvalidStateException: arn:aws:kms:us-east-1:123456789012:key/1234 is disabled'),
      }),
    );
    expect(diagnosis.root).toBe('payments-key');
  });

  it('a record deleted from a zone the map does not show explains the names that stop resolving, not the service they name', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "checkout-errors" is in ALARM',
        services: [{ name: 'checkout', kind: 'ecs', dependsOn: ['payments'] }, { name: 'payments', kind: 'ecs' }, { name: 'search', kind: 'ecs' }],
        alarms: [{ name: 'checkout-errors', service: 'checkout', state: 'ALARM', since: at(START, 95) }],
        changes: [change('search', 87, 'deploy', 'search v9 deployed'), change('internal-zone', 89, 'network', 'ChangeResourceRecordSets on internal-zone: DELETE payments.internal CNAME')],
        logs: worksThenFails('checkout', 'call to payments failed: getaddrinfo ENOTFOUND payments.internal'),
      }),
    );
    expect(diagnosis.root).toBe('internal-zone');
    expect(diagnosis.category).toBe('network');
  });

  it('a firewall rule that starts blocking is the cause of the edge\'s 4xx, not the edge', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "cdn-4xx" is in ALARM',
        services: [{ name: 'cdn', kind: 'cloudfront', dependsOn: ['web'] }, { name: 'web', kind: 'ecs' }, { name: 'edge-acl', kind: 'other', dependsOn: ['cdn'] }, { name: 'billing', kind: 'ecs' }],
        alarms: [{ name: 'cdn-4xx', service: 'cdn', state: 'ALARM', since: at(START, 95) }],
        changes: [change('billing', 86, 'deploy', 'billing v3 rolled out'), change('edge-acl', 89, 'config', 'UpdateWebACL edge-acl: size restriction rule Count -> Block')],
        metrics: [
          { service: 'cdn', name: '4xxErrorRate', points: series(START, 120, step(90, 0.5, 35)) },
          { service: 'cdn', name: 'Requests', points: series(START, 120, () => 50000) },
          { service: 'edge-acl', name: 'BlockedRequests', points: series(START, 120, step(90, 3, 9000)) },
        ],
      }),
    );
    expect(diagnosis.root).toBe('edge-acl');
  });

  it('a queue whose visibility timeout was cut below the work\'s duration is the cause of the redeliveries its consumer shows', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'Question: why are labels printed twice?',
        services: [{ name: 'api', kind: 'ecs', dependsOn: ['jobs'] }, { name: 'jobs', kind: 'sqs' }, { name: 'jobs-dlq', kind: 'sqs' }, { name: 'printer', kind: 'lambda', dependsOn: ['jobs'] }],
        changes: [change('api', 70, 'deploy', 'api 14.2 rolled out'), change('jobs', 88, 'config', 'SetQueueAttributes jobs: VisibilityTimeout 720 -> 30')],
        metrics: [
          { service: 'jobs', name: 'NumberOfMessagesSent', points: series(START, 120, () => 560) },
          { service: 'jobs-dlq', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, (minute) => (minute < 90 ? 0 : (minute - 90) * 4)) },
          { service: 'printer', name: 'ConcurrentExecutions', points: series(START, 120, step(90, 70, 175)) },
        ],
      }),
    );
    expect(diagnosis.root).toBe('jobs');
  });

  it('a change the errors do not complain about, off the map, is not blamed', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "orders-api-5xx" is in ALARM',
        services: [{ name: 'orders-api', kind: 'ecs', dependsOn: ['orders-db'] }, { name: 'orders-db', kind: 'rds' }],
        alarms: [{ name: 'orders-api-5xx', service: 'orders-api', state: 'ALARM', since: at(START, 95) }],
        changes: [change('reports-bucket', 88, 'config', 'PutBucketLifecycleConfiguration on reports-bucket: expire after 30 days')],
        logs: worksThenFails('orders-api', 'FATAL: password authentication failed for user "orders_app"'),
      }),
    );
    expect(diagnosis.root).not.toBe('reports-bucket');
  });

  it('a deploy of another service at the onset explains nothing the evidence does not connect to it', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "address-api-latency" is in ALARM',
        services: [{ name: 'address-api', kind: 'ecs', dependsOn: ['geo-provider', 'address-cache'] }, { name: 'geo-provider', kind: 'external' }, { name: 'address-cache', kind: 'other' }, { name: 'search-api', kind: 'ecs', dependsOn: ['address-cache'] }],
        alarms: [{ name: 'address-api-latency', service: 'address-api', state: 'ALARM', since: at(START, 95) }],
        changes: [change('search-api', 88, 'deploy', 'search-api v3.2 deployed')],
        metrics: [{ service: 'address-api', name: 'p99Latency', points: series(START, 120, step(90, 120, 4200)) }],
        logs: worksThenFails('address-api', 'request to geo-provider timed out after 4000ms'),
      }),
    );
    expect(diagnosis.root).toBe('geo-provider');
  });
});

describe('routine warnings do not date a failure', () => {
  it('a subscription filter changed before a consumer stopped receiving is the cause, though its publisher logs routine warnings earlier', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'Question: customers in one region get no confirmation emails',
        services: [{ name: 'checkout', kind: 'ecs', dependsOn: ['confirmed'] }, { name: 'confirmed', kind: 'sns' }, { name: 'mailer-eu', kind: 'lambda', dependsOn: ['confirmed'] }],
        changes: [change('checkout', 60, 'deploy', 'checkout 9.4 rolled out'), change('confirmed', 88, 'config', 'SetSubscriptionAttributes FilterPolicy on subscription confirmed:mailer-eu')],
        metrics: [
          { service: 'confirmed', name: 'NumberOfNotificationsFilteredOut', points: series(START, 120, step(90, 500, 1100)) },
          { service: 'confirmed', name: 'NumberOfNotificationsFailed', points: series(START, 120, step(90, 0, 300)) },
        ],
        logs: Array.from({ length: 6 }, (_, index) => ({ service: 'checkout', timestamp: at(START, 10 + index * 20), level: 'WARN', message: `seat hold expired before payment for order ${index}` })),
      }),
    );
    expect(diagnosis.root).toBe('confirmed');
  });
});
