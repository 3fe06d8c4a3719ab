import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { clientOfLoadBreakdown } from '../../lib/analyst/load-breakdown.ts';
import { at, boardFrom, linesFrom, pointsBetween, series, sorted, step } from './board-builder.ts';

const START = '2026-04-14T07:00:00.000Z';
const lines = linesFrom(START);

interface Breakdown {
  /** The storefront's own user: its load from minute 60 (1.2 before). */
  storefrontAfter: number;
  /** The new user's load from minute 60, absent before. */
  newcomer: number;
  /** What the reporting job's own log says it connects as. */
  reportsConnectAs: string;
}

/**
 * A PostgreSQL database pinned from minute 60. Performance Insights breaks its load down by
 * database user. The storefront, which deployed at minute 40, times out on it; a reporting job
 * started its morning batch at minute 60.
 */
const pinnedDatabase = ({ storefrontAfter, newcomer, reportsConnectAs }: Breakdown) =>
  boardFrom({
    brief: 'CloudWatch alarm "ledger-db-cpu-high" is in ALARM',
    services: [
      { name: 'storefront-api', kind: 'ecs', dependsOn: ['ledger-db'] },
      { name: 'morning-reports', kind: 'ecs', dependsOn: ['ledger-db'] },
      { name: 'ledger-db', kind: 'rds' },
    ],
    alarms: [{ name: 'ledger-db-cpu-high', service: 'ledger-db', state: 'ALARM', since: at(START, 64) }],
    changes: [{ service: 'storefront-api', timestamp: at(START, 40), kind: 'deploy', summary: 'storefront-api 9.4.0 rolled out (task definition storefront-api:77 -> storefront-api:78)' }],
    metrics: [
      { service: 'ledger-db', name: 'CPUUtilization', points: series(START, 100, step(60, 30, 97)) },
      { service: 'ledger-db', name: 'db.load.avg', dimensions: { group: 'db.user', 'db.user.name': 'shop_app' }, periodSeconds: 300, points: pointsBetween(START, 0, 100, 5, step(60, 1.2, storefrontAfter)) },
      { service: 'ledger-db', name: 'db.load.avg', dimensions: { group: 'db.user', 'db.user.name': 'olap_reader' }, periodSeconds: 300, points: pointsBetween(START, 60, 100, 5, () => newcomer) },
      { service: 'storefront-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 100, step(62, 0, 140)) },
    ],
    logs: sorted([
      ...lines('morning-reports', 60, 1, 1, 'INFO', () => `opening pool dsn=postgres://${reportsConnectAs}:***@ledger-db.internal/ledger size=3`),
      ...lines('morning-reports', 61, 5, 6, 'INFO', (index) => `month-end pack step ${index} done`),
      ...lines('storefront-api', 62, 2, 15, 'ERROR', (index) => `place-order ${index} failed: canceling statement due to statement timeout`),
    ]),
  });

describe("a database's breakdown of its load by user names the client whose part grew far beyond the rest", () => {
  it('a user absent before that now carries most of the load is the load, and the client that connects as it is the one to blame', () => {
    const diagnosis = diagnose(pinnedDatabase({ storefrontAfter: 4.5, newcomer: 14, reportsConnectAs: 'olap_reader' }));
    expect(diagnosis.root).toBe('morning-reports');
    expect(diagnosis.principles).toContain('resource-names-its-client');
  });

  it('names no client when no client says it connects as that user', () => {
    const board = pinnedDatabase({ storefrontAfter: 4.5, newcomer: 14, reportsConnectAs: 'etl_writer' });
    expect(clientOfLoadBreakdown(board, 'ledger-db', ['storefront-api', 'morning-reports'])).toBeUndefined();
  });

  it('names no client when two parts grew alike: neither stands out as the load', () => {
    const board = pinnedDatabase({ storefrontAfter: 14, newcomer: 14, reportsConnectAs: 'olap_reader' });
    expect(clientOfLoadBreakdown(board, 'ledger-db', ['storefront-api', 'morning-reports'])).toBeUndefined();
  });

  it('a statement whose comment carries a tag is run by the client whose changes or logs carry that tag', () => {
    const board = boardFrom({
      services: [
        { name: 'web-api', kind: 'ecs', dependsOn: ['events-db'] },
        { name: 'rollup-jobs', kind: 'ecs', dependsOn: ['events-db'] },
        { name: 'events-db', kind: 'rds' },
      ],
      changes: [{ service: 'rollup-jobs', timestamp: at(START, -600), kind: 'config', summary: 'tasks.toml: add task retention-curves hourly' }],
      metrics: [
        { service: 'events-db', name: 'db.load.avg', dimensions: { 'db.sql_tokenized.statement': 'SELECT id FROM events WHERE tenant_id = $1' }, points: pointsBetween(START, 0, 100, 5, step(60, 0.8, 1.6)) },
        { service: 'events-db', name: 'db.load.avg', dimensions: { 'db.sql_tokenized.statement': '/* task:retention-curves */ SELECT tenant_id, count(*) FROM events GROUP BY 1' }, points: pointsBetween(START, 0, 100, 5, step(60, 0.2, 9)) },
      ],
    });
    expect(clientOfLoadBreakdown(board, 'events-db', ['web-api', 'rollup-jobs'])).toEqual({ service: 'rollup-jobs', since: Date.parse(at(START, 60)) });
  });
});
