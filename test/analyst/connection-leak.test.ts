import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

describe('a client pool that never releases its connections', () => {
  it('is resource exhaustion at the service that holds the pool, named as a leak, with the idle database cleared', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'Question: is the database overloaded?',
        services: [{ name: 'api', kind: 'ecs', dependsOn: ['db'] }, { name: 'db', kind: 'rds' }, { name: 'web', kind: 'ecs', dependsOn: ['api'] }],
        metrics: [
          { service: 'api', name: 'DbPoolCheckedOut', points: series(START, 120, (minute) => Math.min(20, 2 + minute * 0.2)) },
          { service: 'db', name: 'CPUUtilization', points: series(START, 120, () => 12) },
        ],
        logs: [
          ...Array.from({ length: 12 }, (_, index) => ({ service: 'api', timestamp: at(START, index * 8), level: 'INFO', message: `POST /bookings 201 ${60 + index}ms` })),
          ...Array.from({ length: 10 }, (_, index) => ({
            service: 'api',
            timestamp: at(START, 95 + index * 2),
            level: 'ERROR',
            message: `timeout exceeded when trying to connect (pool totalCount=20 idleCount=0 waitingCount=${40 + index})`,
          })),
        ],
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('api');
    expect(diagnosis.draft.rootCause.category).toBe('resource-exhaustion');
    expect(diagnosis.draft.rootCause.summary).toMatch(/connection leak/);
    expect(diagnosis.draft.remediation.map((step) => step.action)).toEqual(['restart', 'apply-fix']);
  });
});

/** Two clients of one database; `webhook` released at minute 40; both refused from minute 100. */
const sharedDatabase = (connectionsClimb: boolean) =>
  boardFrom({
    brief: 'CloudWatch alarm orders-db-connections-high is in ALARM',
    services: [
      { name: 'storefront', kind: 'ecs', dependsOn: ['orders-db'] },
      { name: 'webhook', kind: 'lambda', dependsOn: ['orders-db'] },
      { name: 'orders-db', kind: 'rds' },
    ],
    alarms: [{ name: 'orders-db-connections-high', service: 'orders-db', state: 'ALARM', since: at(START, 100) }],
    changes: [{ service: 'webhook', timestamp: at(START, 40), kind: 'deploy', summary: 'webhook v2.3.0 published as version 57' }],
    metrics: [
      { service: 'orders-db', name: 'DatabaseConnections', points: series(START, 130, (minute) => (connectionsClimb ? Math.min(600, 120 + (minute > 41 ? 8 * (minute - 41) : 0)) : 120 + (minute % 3))) },
      { service: 'orders-db', name: 'CPUUtilization', points: series(START, 130, () => 20) },
    ],
    logs: [
      ...Array.from({ length: 20 }, (_, index) => ({ service: 'storefront', timestamp: at(START, index * 5), level: 'INFO', message: `GET /basket 200 ${30 + index}ms` })),
      ...Array.from({ length: 15 }, (_, index) => ({ service: 'storefront', timestamp: at(START, 101 + index * 2), level: 'ERROR', message: 'HikariPool-1 - Connection is not available: Too many connections' })),
      ...Array.from({ length: 15 }, (_, index) => ({ service: 'webhook', timestamp: at(START, 100 + index * 2), level: 'ERROR', message: 'Invoke Error: Error: Too many connections' })),
    ],
  });

describe('a database refusing every client once one client\'s connections filled it', () => {
  it('blames the client whose release came as its connections began to climb, and names the hold as a leak', () => {
    const { draft } = diagnose(sharedDatabase(true));
    expect(draft.rootCause.service).toBe('webhook');
    expect(draft.rootCause.summary).toContain('webhook holds connections to orders-db that it does not release (a connection leak)');
  });

  it('does not call it a leak when the database\'s connections never climbed', () => {
    expect(diagnose(sharedDatabase(false)).draft.rootCause.summary).not.toContain('does not release');
  });
});

/** A storefront paged for refused connections to a database whose connections climbed since an exporter's release; the exporter logs only its own aborted work. */
const exporterHoldsConnections = (connectionsClimb: boolean, exporterSays = (index: number) => `export ${index} aborted: caller went away (ECONNRESET), stream destroyed`) =>
  boardFrom({
    brief: 'CloudWatch alarm storefront-5xx is in ALARM',
    services: [
      { name: 'storefront', kind: 'ecs', dependsOn: ['shop-db'] },
      { name: 'exporter', kind: 'ecs', dependsOn: ['shop-db'] },
      { name: 'shop-db', kind: 'rds' },
    ],
    alarms: [{ name: 'storefront-5xx', service: 'storefront', state: 'ALARM', since: at(START, 102) }],
    changes: [{ service: 'exporter', timestamp: at(START, 38), kind: 'deploy', summary: 'exporter v4.1.0 rolled out (task definition exporter:12 -> exporter:13)' }],
    metrics: [
      { service: 'shop-db', name: 'DatabaseConnections', points: series(START, 130, (minute) => (connectionsClimb ? Math.min(500, 100 + (minute > 40 ? 7 * (minute - 40) : 0)) : 100 + (minute % 3))) },
      { service: 'storefront', name: 'HTTPCode_Target_5XX_Count', points: series(START, 130, (minute) => (minute < 100 ? 1 : 140)) },
    ],
    logs: [
      ...Array.from({ length: 20 }, (_, index) => ({ service: 'storefront', timestamp: at(START, index * 5), level: 'INFO', message: `GET /basket 200 ${30 + index}ms` })),
      ...Array.from({ length: 15 }, (_, index) => ({ service: 'storefront', timestamp: at(START, 101 + index * 2), level: 'ERROR', message: 'could not connect to shop-db: FATAL: remaining connection slots are reserved for non-replication superuser connections' })),
      ...Array.from({ length: 12 }, (_, index) => ({ service: 'exporter', timestamp: at(START, 44 + index * 6), level: 'ERROR', message: exporterSays(index) })),
    ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
  });

describe("a client's release whose connections a shared database keeps", () => {
  it("is named as a leak from the database's own account, though the client logs only its release's other trouble", () => {
    const { draft } = diagnose(exporterHoldsConnections(true));
    expect(draft.rootCause.service).toBe('exporter');
    expect(draft.rootCause.summary).toContain('exporter holds connections to shop-db that it does not release (a connection leak)');
  });

  it("is not called a leak when the database's connections never climbed", () => {
    expect(diagnose(exporterHoldsConnections(false)).draft.rootCause.summary).not.toContain('does not release');
  });

  it('is not called a leak when the client names a mechanism of its own', () => {
    const { draft } = diagnose(exporterHoldsConnections(true, () => 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory'));
    expect(draft.rootCause.service).toBe('exporter');
    expect(draft.rootCause.summary).not.toContain('does not release');
  });
});
