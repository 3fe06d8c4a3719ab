import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series, step } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

describe('who is to blame for a saturated shared resource', () => {
  it('a client that only retries and waits on a throttled table shows the table\'s trouble: the table lacks capacity', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "ingest-errors" is in ALARM',
        services: [{ name: 'ingest', kind: 'lambda', dependsOn: ['events-table'] }, { name: 'events-table', kind: 'dynamodb' }, { name: 'reader', kind: 'ecs', dependsOn: ['events-table'] }],
        alarms: [{ name: 'ingest-errors', service: 'ingest', state: 'ALARM', since: at(START, 95) }],
        metrics: [
          { service: 'events-table', name: 'WriteThrottleEvents', points: series(START, 120, step(90, 0, 900)) },
          { service: 'events-table', name: 'ConsumedWriteCapacityUnits', points: series(START, 120, step(88, 1000, 2600)) },
          { service: 'ingest', name: 'ConcurrentExecutions', points: series(START, 120, step(88, 10, 120)) },
          { service: 'ingest', name: 'Errors', points: series(START, 120, step(90, 0, 300)) },
        ],
        logs: Array.from({ length: 8 }, (_, index) => ({
          service: 'ingest',
          timestamp: at(START, 92 + index * 3),
          level: 'ERROR',
          message: `ProvisionedThroughputExceededException writing to events-table, retrying (attempt ${index + 1})`,
        })),
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('events-table');
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'scale', target: 'events-table' });
  });

  it('a client whose own hold on the resource grows before the resource fails is the culprit', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "db-connections" is in ALARM',
        services: [{ name: 'batch', kind: 'ecs', dependsOn: ['db'] }, { name: 'web', kind: 'ecs', dependsOn: ['db'] }, { name: 'db', kind: 'rds' }],
        alarms: [{ name: 'db-connections', service: 'db', state: 'ALARM', since: at(START, 100) }],
        metrics: [{ service: 'db', name: 'DatabaseConnections', points: series(START, 120, step(95, 100, 1000)) }],
        logs: [
          ...Array.from({ length: 6 }, (_, index) => ({ service: 'batch', timestamp: at(START, 70 + index * 4), level: 'ERROR', message: `connection pool exhausted: checked out ${200 + index * 100} connections, none returned` })),
          ...Array.from({ length: 5 }, (_, index) => ({ service: 'web', timestamp: at(START, 100 + index * 3), level: 'ERROR', message: 'too many connections' })),
        ],
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('batch');
    expect(diagnosis.draft.rootCause.category).toBe('resource-exhaustion');
    expect(diagnosis.draft.rootCause.summary).toMatch(/connections/);
  });
  it("a change at a client active on the resource, just before the resource's trouble, explains it when no client's own trouble came first", () => {
    const evidence = (changes: { service: string; timestamp: string; kind: string; summary: string }[]) =>
      diagnose(
        boardFrom({
          brief: 'CloudWatch alarm "db-connections" is in ALARM',
          services: [{ name: 'reports', kind: 'ecs', dependsOn: ['db'] }, { name: 'web', kind: 'ecs', dependsOn: ['db'] }, { name: 'db', kind: 'rds' }],
          alarms: [{ name: 'db-connections', service: 'db', state: 'ALARM', since: at(START, 100) }],
          changes,
          metrics: [{ service: 'db', name: 'DatabaseConnections', points: series(START, 120, step(95, 100, 1000)) }],
          logs: ['reports', 'web'].flatMap((service) => Array.from({ length: 5 }, (_, index) => ({ service, timestamp: at(START, 100 + index * 3), level: 'ERROR', message: 'too many connections' }))),
        }),
      );
    const changed = evidence([{ service: 'reports', timestamp: at(START, 80), kind: 'deploy', summary: 'reports v3.2 rolled out' }]);
    expect(changed.draft.rootCause.service).toBe('reports');
    expect(changed.principles).toContain('client-change-at-shared-resource');
    const unchanged = evidence([]);
    expect(unchanged.draft.rootCause.service).not.toBe('reports');
    expect(unchanged.principles).not.toContain('client-change-at-shared-resource');
  });
});
