import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const lines = linesFrom(START);

/**
 * A database behind a connection proxy that two services share: its connections climb from minute
 * 30, when the proxy begins pinning sessions, two minutes after one of the services released.
 */
const pinnedBehindProxy = ({ releasedAt }: { releasedAt: number }) =>
  diagnose(
    boardFrom({
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
  });
});
