import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series, sorted } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

const services = [
  { name: 'web', kind: 'ecs', dependsOn: ['bookings'] },
  { name: 'bookings', kind: 'ecs', dependsOn: ['db'] },
  { name: 'sync', kind: 'ecs', dependsOn: ['db'] },
  { name: 'printer', kind: 'ecs', dependsOn: ['db'] },
  { name: 'db', kind: 'rds' },
];

/** Connections run out at minute 110; the clients that fail with the database only report it. */
const exhaustedConnections = {
  brief: 'CloudWatch alarm "web-5xx" is in ALARM',
  services,
  alarms: [{ name: 'web-5xx', service: 'web', state: 'ALARM' as const, since: at(START, 111) }],
  changes: [
    { service: 'sync', timestamp: at(START, 20), kind: 'deploy', summary: 'sync 2.4.0 rolled out' },
    // A release just before the failure, at a client that holds nothing more than before: the distractor.
    { service: 'printer', timestamp: at(START, 100), kind: 'deploy', summary: 'printer 1.19.0 rolled out' },
  ],
  logs: sorted([
    ...Array.from({ length: 8 }, (_, index) => ({ service: 'db', timestamp: at(START, 110 + index), level: 'FATAL', message: 'FATAL: remaining connection slots are reserved for non-replication superuser connections' })),
    ...Array.from({ length: 8 }, (_, index) => ({ service: 'bookings', timestamp: at(START, 110 + index), level: 'ERROR', message: 'pg pool: failed to open new client: sorry, too many clients already' })),
  ]),
};

describe('a resource names the client that loads or holds it', () => {
  it('a measure broken down by client names the client whose share grew, and its release when the share began to grow', () => {
    const diagnosis = diagnose(
      boardFrom({
        ...exhaustedConnections,
        metrics: [
          { service: 'db', name: 'DatabaseConnections', points: series(START, 120, (minute) => (minute < 25 ? 180 : Math.min(1000, 180 + (minute - 25) * 10))) },
          { service: 'db', name: 'pg_stat_activity_count', dimensions: { application_name: 'sync', state: 'idle in transaction' }, points: series(START, 120, (minute) => (minute < 25 ? 2 : 2 + (minute - 25) * 9)) },
          { service: 'db', name: 'pg_stat_activity_count', dimensions: { application_name: 'bookings', state: 'active' }, points: series(START, 120, (minute) => 30 + (minute % 3)) },
        ],
      }),
    );
    expect(diagnosis.root).toBe('sync');
    expect(diagnosis.suspectChange?.summary).toBe('sync 2.4.0 rolled out');
  });

  it("a database's heaviest statement names the one client whose own logs issue it", () => {
    const diagnosis = diagnose(
      boardFrom({
        ...exhaustedConnections,
        metrics: [{ service: 'db', name: 'CPUUtilization', points: series(START, 120, (minute) => (minute < 40 ? 20 : 97)) }],
        logs: sorted([
          ...exhaustedConnections.logs,
          ...Array.from({ length: 4 }, (_, index) => ({ service: 'db', timestamp: at(START, 60 + index * 10), level: 'INFO', message: `# Query_time: 4.2 Rows_examined: 2858546 SELECT id, status FROM listings WHERE agent_id = ${100 + index} AND status = 'active'` })),
          ...Array.from({ length: 3 }, (_, index) => ({ service: 'sync', timestamp: at(START, 112 + index), level: 'ERROR', message: 'GET /agents/7/listings 504: query exceeded 10000ms (SELECT id, status FROM listings WHERE agent_id = ? AND status = ?)' })),
          ...Array.from({ length: 3 }, (_, index) => ({ service: 'printer', timestamp: at(START, 112 + index), level: 'ERROR', message: 'manifest query failed: maximum statement execution time exceeded' })),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('sync');
  });

  it('a statement that two clients issue names neither', () => {
    const diagnosis = diagnose(
      boardFrom({
        ...exhaustedConnections,
        changes: [],
        metrics: [{ service: 'db', name: 'CPUUtilization', points: series(START, 120, (minute) => (minute < 40 ? 20 : 97)) }],
        logs: sorted([
          ...exhaustedConnections.logs,
          { service: 'db', timestamp: at(START, 60), level: 'INFO', message: 'top SQL by load: UPDATE seats SET held = ? WHERE sailing = ?' },
          { service: 'sync', timestamp: at(START, 50), level: 'INFO', message: 'UPDATE seats SET held = true WHERE sailing = 7' },
          { service: 'printer', timestamp: at(START, 50), level: 'INFO', message: 'UPDATE seats SET printed = true WHERE sailing = 7' },
        ]),
      }),
    );
    expect(diagnosis.root).not.toBe('sync');
    expect(diagnosis.root).not.toBe('printer');
  });
});

describe('a database that names its client by the statement it runs says how that work loads it', () => {
  /** The database's slow-query log, at INFO as databases write it: each query examines the whole table to send 40 rows. */
  const slowQueries = () =>
    Array.from({ length: 5 }, (_, index) => ({
      service: 'db',
      timestamp: at(START, 60 + index * 10),
      level: 'INFO',
      message: `# Query_time: ${3 + index}.1 Rows_sent: 40 Rows_examined: 2800000 SELECT id, status FROM listings WHERE agent_id = ${100 + index} AND status = 'active'`,
    }));
  const scanning = () =>
    boardFrom({
      brief: 'CloudWatch alarm "web-5xx" is in ALARM',
      services,
      alarms: [{ name: 'web-5xx', service: 'web', state: 'ALARM', since: at(START, 111) }],
      changes: [{ service: 'sync', timestamp: at(START, 30), kind: 'deploy', summary: 'sync 3.1.0 rolled out (drops unused indexes)' }],
      metrics: [{ service: 'db', name: 'CPUUtilization', points: series(START, 120, (minute) => (minute < 40 ? 20 : 97)) }],
      logs: sorted([
        ...slowQueries(),
        ...Array.from({ length: 4 }, (_, index) => ({ service: 'sync', timestamp: at(START, 100 + index * 4), level: 'ERROR', message: 'Timeout acquiring a connection. The pool is probably full.' })),
        ...Array.from({ length: 3 }, (_, index) => ({ service: 'sync', timestamp: at(START, 112 + index), level: 'ERROR', message: 'GET /agents/7/listings 504: query exceeded 10000ms (SELECT id, status FROM listings WHERE agent_id = ? AND status = ?)' })),
      ]),
    });

  it('its queries scan: the mechanism is a missing index, fixed at the database, not the client’s full pool', () => {
    const diagnosis = diagnose(scanning());
    expect(diagnosis.root).toBe('sync');
    expect(diagnosis.draft.rootCause.summary).toMatch(/scans far more rows than it returns \(a missing index\)/);
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'apply-fix', target: 'db' });
    expect(diagnosis.principles).toContain('remedy-index-the-scan');
  });

  it('a database whose account names no mechanism leaves it to the client’s own evidence', () => {
    const board = scanning();
    board.logs = board.logs.map((line) => (line.service === 'db' ? { ...line, message: line.message.replace(/Rows_sent: \d+ Rows_examined: \d+ /, '') } : line));
    const diagnosis = diagnose(board);
    expect(diagnosis.root).toBe('sync');
    expect(diagnosis.draft.rootCause.summary).not.toMatch(/scans far more rows/);
    expect(diagnosis.draft.remediation.some((planned) => planned.target === 'db')).toBe(false);
  });
});
