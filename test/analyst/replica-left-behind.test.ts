import { describe, expect, it } from 'vitest';
import { inferCause } from '../../lib/analyst/infer-cause.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-03-03T02:00:00.000Z';

/** A backfill started at minute 60 writes to the primary; the replica its readers use falls behind from minute 62. */
const backfillBehind = (announcement: string, alarmName = 'orders-replica-lag-900s') =>
  boardFrom({
    brief: 'Question: customers see old order statuses; is the tracker broken?',
    services: [
      { name: 'tracker', kind: 'ecs', dependsOn: ['orders-replica'] },
      { name: 'orders-replica', kind: 'rds', dependsOn: ['orders-db'] },
      { name: 'orders-db', kind: 'rds' },
      { name: 'status-backfill', kind: 'ecs', dependsOn: ['orders-db'] },
    ],
    alarms: [{ name: alarmName, service: 'orders-replica', state: 'ALARM', since: at(START, 80) }],
    changes: [{ service: 'status-backfill', timestamp: at(START, 60), kind: 'other', summary: announcement }],
    metrics: [
      { service: 'orders-replica', name: 'ReplicaLag', points: series(START, 150, (minute) => (minute < 62 ? 0 : 40 * (minute - 61))) },
      { service: 'orders-db', name: 'WriteIOPS', points: series(START, 150, (minute) => (minute < 60 ? 400 : 3600)) },
      { service: 'tracker', name: 'RequestCount', points: series(START, 150, () => 480) },
    ],
    logs: Array.from({ length: 30 }, (_, index) => ({ service: 'tracker', timestamp: at(START, index * 5), level: 'INFO', message: `GET /repairs/R-${100 + index} 200 40ms` })),
  });

describe('a replica left behind by announced work', () => {
  it('is an incident: its readers get stale data, which the work\'s announcement does not excuse', () => {
    const cause = inferCause(backfillBehind('ECS RunTask status-backfill:3 (one-off backfill task)'));
    expect(cause.verdict).toBe('incident');
    expect(cause.verdict === 'incident' && cause.root).toBe('status-backfill');
  });

  it('is excused inside a window announced for it, like a failover in a maintenance window', () => {
    expect(inferCause(backfillBehind('Planned backfill of order statuses 02:55-05:00 UTC; the reporting replica will lag')).verdict).toBe('healthy');
  });
});
