import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { capacityBehind } from '../../lib/analyst/load-source.ts';
import { causesIn } from '../../lib/analyst/cause-signals.ts';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const lines = linesFrom(START);

/**
 * A database behind a connection proxy that two services share: its connections climb from minute
 * 30, when the proxy begins pinning sessions, two minutes after one of the services released.
 */
const pinnedBehindProxy = ({ releasedAt, databaseMemoryFalls = false }: { releasedAt: number; databaseMemoryFalls?: boolean }) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "tracking-api-5xx" is in ALARM',
      services: [
        { name: 'tracking-api', kind: 'ecs', dependsOn: ['tms-proxy'] },
        { name: 'shipments-api', kind: 'ecs', dependsOn: ['tms-proxy'] },
        { name: 'tms-proxy', kind: 'rds', dependsOn: ['tms-db'] },
        { name: 'tms-db', kind: 'rds' },
      ],
      alarms: [{ name: 'tracking-api-5xx', service: 'tracking-api', state: 'ALARM', since: at(START, 70) }],
      changes: [{ service: 'shipments-api', timestamp: at(START, releasedAt), kind: 'deploy', summary: 'shipments-api v4.7.0 rolled out' }],
      metrics: [
        { service: 'tms-db', name: 'DatabaseConnections', points: series(START, 120, step(30, 60, 360)) },
        ...(databaseMemoryFalls ? [{ service: 'tms-db', name: 'FreeableMemory', points: series(START, 120, (minute) => 10_400_000_000 - minute * 7_000_000) }] : []),
        { service: 'tms-proxy', name: 'DatabaseConnectionsCurrentlySessionPinned', points: series(START, 120, step(30, 1, 300)) },
        { service: 'tms-proxy', name: 'DatabaseConnections', points: series(START, 120, step(30, 60, 360)) },
        { service: 'tracking-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, step(68, 0, 25)) },
      ],
      logs: sorted([
        ...lines('tracking-api', 0, 4, 30, 'INFO', (index) => `GET /v1/track/${index} status=200`),
        ...lines('tracking-api', 68, 2, 20, 'ERROR', () => 'request failed status=504 error="shipment lookup: timeout acquiring connection"'),
        ...lines('tms-proxy', 30, 2, 40, 'WARN', (index) => `[clientConnection=${4100 + index}] The client session was pinned to the database connection for the remainder of the session. Reason: SQL changed session settings that the proxy doesn't track.`),
        ...lines('shipments-api', 66, 3, 15, 'ERROR', () => 'HikariPool-1 - Connection is not available, request timed out after 30000ms'),
      ]),
    }),
  );

describe('a client found loading a database that is itself a proxy shared by clients passes on their load', () => {
  it('follows the pinned connections through the proxy to the client that released just before', () => {
    const diagnosis = pinnedBehindProxy({ releasedAt: 28 });
    expect(diagnosis.root).toBe('shipments-api');
    expect(diagnosis.draft.rootCause.category).toBe('deploy');
  });

  it('stops at the proxy when no client of it changed before the connections climbed', () => {
    const diagnosis = pinnedBehindProxy({ releasedAt: 100 });
    expect(diagnosis.root).not.toBe('shipments-api');
    expect(diagnosis.root).toBe('tms-proxy');
    expect(diagnosis.draft.rootCause.summary).toContain('tms-proxy pins client sessions to its database connections');
  });
});

describe('a proxy that reports its clients’ sessions pinned', () => {
  it('holds its connections for them: the database behind it, slowly using more memory, is not where the search goes', () => {
    const diagnosis = pinnedBehindProxy({ releasedAt: 28, databaseMemoryFalls: true });
    expect(diagnosis.root).toBe('shipments-api');
    expect(diagnosis.draft.rootCause.summary).toContain('sessions are pinned to tms-proxy');
    expect(diagnosis.draft.rootCause.summary).not.toContain('connection leak');
  });
});

const borrowTimeouts = (pinning: boolean) => {
  const board = boardFrom({
    brief: 'CloudWatch alarm "ledger-api-errors" is in ALARM',
    services: [
      { name: 'ledger-api', kind: 'lambda', dependsOn: ['ledger-proxy'] },
      { name: 'audit-api', kind: 'ecs', dependsOn: ['ledger-proxy'] },
      { name: 'ledger-proxy', kind: 'rds', dependsOn: ['ledger-db'] },
      { name: 'ledger-db', kind: 'rds' },
    ],
    metrics: [
      { service: 'ledger-db', name: 'DatabaseConnections', points: series(START, 120, step(30, 100, 600)) },
      ...(pinning ? [{ service: 'ledger-proxy', name: 'DatabaseConnectionsCurrentlySessionPinned', points: series(START, 120, step(30, 2, 590)) }] : []),
    ],
    logs: sorted([
      ...lines('ledger-api', 0, 4, 30, 'INFO', (index) => `POST /entries/${index} 200`),
      ...lines('ledger-api', 60, 2, 20, 'ERROR', () => 'POST /entries failed: OperationalError: Timed-out waiting to acquire database connection.'),
      ...lines('audit-api', 62, 3, 12, 'ERROR', () => 'GET /audit 500: Timed-out waiting to acquire database connection.'),
    ]),
  });
  return capacityBehind(board, 'ledger-proxy', collectSignals(board));
};

describe('a proxy whose borrows time out', () => {
  it('is short of the database behind it when it pins nothing', () => {
    expect(borrowTimeouts(false)).toBe('ledger-db');
  });

  it('is short of its own connections when its clients’ sessions pin them', () => {
    expect(borrowTimeouts(true)).toBeUndefined();
  });
});

describe('a proxy’s report of a pinned session', () => {
  const report =
    '[WARN] [clientConnection=1539438759] The client session was pinned to the database connection [dbConnection=1113220588] for the remainder of the session. To avoid pinning, move the session configuration to the proxy’s initialization query.';

  it('names pinning, and its advice names no wrong configuration', () => {
    const labels = causesIn(report).map((hit) => hit.label);
    expect(labels).toContain('pinning');
    expect(labels).not.toContain('configuration');
    const advisedOtherwise = 'The client session was pinned to the database connection. Consider moving session configuration to the proxy’s initialization query.';
    expect(causesIn(advisedOtherwise).map((hit) => hit.label)).not.toContain('configuration');
  });

  it('is no failure of the database behind the proxy', () => {
    const board = boardFrom({
      brief: 'CloudWatch alarm "ledger-proxy-borrow" is in ALARM',
      services: [
        { name: 'ledger-proxy', kind: 'rds', dependsOn: ['ledger-db'] },
        { name: 'ledger-db', kind: 'rds' },
      ],
      logs: sorted([...lines('ledger-proxy', 0, 4, 10, 'INFO', () => 'A new client connected.'), ...lines('ledger-proxy', 40, 2, 20, 'ERROR', () => report)]),
    });
    expect(collectSignals(board).filter((signal) => signal.service === 'ledger-db' && signal.kind === 'mentioned')).toEqual([]);
  });
});
