import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const lines = linesFrom(START);

describe('a client that only waits longer on a slow resource reacts to it', () => {
  it('slow queries at a client whose database saturated first do not make the client the culprit', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "events-db-cpu" is in ALARM',
        services: [{ name: 'writer', kind: 'ecs', dependsOn: ['events-db'] }, { name: 'reader', kind: 'ecs', dependsOn: ['events-db'] }, { name: 'events-db', kind: 'rds' }],
        alarms: [{ name: 'events-db-cpu', service: 'events-db', state: 'ALARM', since: at(START, 90) }],
        metrics: [{ service: 'events-db', name: 'CPUUtilization', points: series(START, 120, step(86, 30, 99)) }],
        logs: sorted([...lines('writer', 0, 5, 24, 'INFO', (index) => `batch ${index} stored`), ...lines('writer', 87, 3, 10, 'WARN', () => 'INSERT into event_log took 9400 ms (slow)')]),
      }),
    );
    expect(diagnosis.root).toBe('events-db');
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
