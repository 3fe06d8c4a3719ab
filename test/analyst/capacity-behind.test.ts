import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const lines = linesFrom(START);

describe('a service refused for want of a capacity it shares shows the symptom; who took the capacity is the cause', () => {
  it('a managed API\'s request rate taken by a load-test fleet throttles a function that just deployed: the fleet is blamed, not the deploy', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "dispatch-errors" is in ALARM',
        services: [
          { name: 'dispatch', kind: 'lambda', dependsOn: ['parameters'] },
          { name: 'parameters', kind: 'other' },
          { name: 'sim-fleet', kind: 'ecs', dependsOn: ['parameters'] },
        ],
        alarms: [{ name: 'dispatch-errors', service: 'dispatch', state: 'ALARM', since: at(START, 95) }],
        changes: [
          { service: 'dispatch', timestamp: at(START, 68), kind: 'deploy', summary: 'dispatch version 218 published' },
          { service: 'sim-fleet', timestamp: at(START, 89), kind: 'scaling', summary: 'UpdateService sim-fleet desiredCount 0 -> 400 (load test surge-x4)' },
        ],
        metrics: [
          { service: 'parameters', name: 'CallCount', points: series(START, 120, step(90, 200, 2300)) },
          { service: 'dispatch', name: 'Invocations', points: series(START, 120, () => 2300) },
        ],
        logs: sorted([
          ...lines('dispatch', 0, 5, 24, 'INFO', (index) => `assigned order ${index}`),
          ...lines('dispatch', 92, 3, 9, 'ERROR', () => 'config load failed: ThrottlingException: Rate exceeded (GetParametersByPath)'),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('sim-fleet');
    expect(diagnosis.category).toBe('traffic');
  });

  const portsTaken = (launch: { kind: string; summary: string }) =>
    diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "payouts-failures" is in ALARM',
        services: [
          { name: 'payouts', kind: 'ecs', dependsOn: ['egress-nat', 'bank'] },
          { name: 'reconciler', kind: 'ecs', dependsOn: ['egress-nat', 'bank'] },
          { name: 'egress-nat', kind: 'other' },
          { name: 'bank', kind: 'external' },
        ],
        alarms: [{ name: 'payouts-failures', service: 'payouts', state: 'ALARM', since: at(START, 100) }],
        changes: [{ service: 'reconciler', timestamp: at(START, 86), ...launch }],
        metrics: [
          { service: 'egress-nat', name: 'ErrorPortAllocation', points: series(START, 120, step(88, 0, 4000)) },
          { service: 'egress-nat', name: 'ActiveConnectionCount', points: series(START, 120, step(87, 5000, 55000)) },
          { service: 'payouts', name: 'TransfersFailed', points: series(START, 120, step(95, 1, 50)) },
        ],
        logs: sorted([
          ...lines('payouts', 0, 5, 24, 'INFO', (index) => `transfer ${index} sent`),
          ...lines('payouts', 95, 3, 8, 'ERROR', (index) => `transfer ${index} failed: connect ETIMEDOUT 52.20.114.37:443 after 10000ms`),
        ]),
      }),
    );

  it('a NAT gateway\'s ports taken by a backfill time out another client\'s calls: the backfill is blamed', () => {
    const diagnosis = portsTaken({ kind: 'other', summary: 'ECS RunTask x12 reconciler (backfill 2025-h2)' });
    expect(diagnosis.root).toBe('reconciler');
    // What the starved resource shows is said where its load is: the ports it ran out of.
    expect(diagnosis.draft.rootCause.summary).toMatch(/other clients of egress-nat are starved: ErrorPortAllocation went up/);
  });

  it('ports a client ran out at the gateway are resource exhaustion, whatever launched the client: it is throttled and its work changed, not restarted', () => {
    const { draft } = portsTaken({ kind: 'other', summary: 'ECS RunTask x12 reconciler (backfill 2025-h2)' });
    expect(draft.rootCause.category).toBe('resource-exhaustion');
    expect(draft.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['limit-traffic reconciler', 'apply-fix reconciler']);
  });

  it('a throttled function whose own demand surged is not pushed back by what it uses', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "redeem-errors" is in ALARM',
        services: [{ name: 'redeem', kind: 'lambda', dependsOn: ['codes'] }, { name: 'codes', kind: 'dynamodb' }, { name: 'report', kind: 'ecs', dependsOn: ['codes'] }],
        alarms: [{ name: 'redeem-errors', service: 'redeem', state: 'ALARM', since: at(START, 95) }],
        metrics: [
          { service: 'redeem', name: 'Invocations', points: series(START, 120, step(90, 600, 10000)) },
          { service: 'redeem', name: 'Throttles', points: series(START, 120, step(90, 0, 9000)) },
        ],
        logs: sorted([...lines('redeem', 0, 5, 24, 'INFO', (index) => `code ${index} redeemed`), ...lines('redeem', 92, 3, 9, 'ERROR', () => 'Rate exceeded: concurrency limit reached')]),
      }),
    );
    expect(diagnosis.root).toBe('redeem');
  });
});

describe('a pool the map connects to nothing is held by whoever reports the same measure of it, and loaded by whoever launched their work', () => {
  it('an account concurrency pool taken by a backfill that drives another function: the backfill is blamed, not the function it drives', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'Question: why do enrolments fail?',
        services: [
          { name: 'api', kind: 'apigateway', dependsOn: ['enrol'] },
          { name: 'enrol', kind: 'lambda' },
          { name: 'backfill', kind: 'other', dependsOn: ['captions'] },
          { name: 'captions', kind: 'lambda' },
          { name: 'account-pool', kind: 'other' },
        ],
        changes: [
          { service: 'enrol', timestamp: at(START, 70), kind: 'deploy', summary: 'enrol version 88 published' },
          { service: 'backfill', timestamp: at(START, 88), kind: 'other', summary: 'StartExecution backfill (41,822 items, MaxConcurrency 2000)' },
        ],
        metrics: [
          { service: 'account-pool', name: 'ConcurrentExecutions', points: series(START, 120, step(90, 150, 1000)) },
          { service: 'captions', name: 'ConcurrentExecutions', points: series(START, 120, step(92, 1, 840)) },
          { service: 'enrol', name: 'Throttles', points: series(START, 120, step(92, 0, 150)) },
          { service: 'api', name: '5XXError', points: series(START, 120, step(93, 1, 150)) },
        ],
      }),
    );
    expect(diagnosis.root).toBe('backfill');
  });

  it('a release is not work launched: a deploy near the load does not take the blame for it', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "parameters-throttled" is in ALARM',
        services: [
          { name: 'dispatch', kind: 'lambda', dependsOn: ['parameters'] },
          { name: 'parameters', kind: 'other' },
          { name: 'exporter', kind: 'ecs', dependsOn: ['parameters'] },
        ],
        alarms: [{ name: 'parameters-throttled', service: 'dispatch', state: 'ALARM', since: at(START, 95) }],
        changes: [{ service: 'exporter', timestamp: at(START, 85), kind: 'deploy', summary: 'exporter 3.9 (CSV export of payouts)' }],
        metrics: [{ service: 'parameters', name: 'CallCount', points: series(START, 120, step(90, 200, 2300)) }, { service: 'dispatch', name: 'Invocations', points: series(START, 120, step(89, 200, 2300)) }],
        logs: sorted([...lines('dispatch', 0, 5, 24, 'INFO', (index) => `assigned order ${index}`), ...lines('dispatch', 92, 3, 9, 'ERROR', () => 'ThrottlingException: Rate exceeded')]),
      }),
    );
    expect(diagnosis.root).not.toBe('exporter');
  });
});

describe('a fault of the resource\'s own is not its clients\' doing', () => {
  it('a database on an impaired volume stays the root though one of its clients released just before', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "cart-api-5xx" is in ALARM',
        services: [{ name: 'cart-api', kind: 'ecs', dependsOn: ['cart-db'] }, { name: 'promo', kind: 'ecs', dependsOn: ['cart-db'] }, { name: 'cart-db', kind: 'rds' }],
        alarms: [{ name: 'cart-api-5xx', service: 'cart-api', state: 'ALARM', since: at(START, 95) }],
        changes: [{ service: 'promo', timestamp: at(START, 82), kind: 'deploy', summary: 'promo v3 rolled out' }],
        metrics: [{ service: 'cart-db', name: 'ReadLatency', points: series(START, 120, step(90, 0.002, 0.9)) }],
        logs: sorted([
          ...lines('cart-api', 0, 5, 24, 'INFO', (index) => `cart ${index} saved`),
          ...lines('cart-api', 92, 3, 9, 'ERROR', () => 'cart-db query timed out after 5000ms'),
          ...lines('promo', 93, 4, 6, 'ERROR', () => 'cart-db query timed out after 5000ms'),
          ...lines('cart-db', 90, 5, 5, 'WARN', () => 'I/O stall on EBS volume in availability zone use1-az2'),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('cart-db');
  });
});
