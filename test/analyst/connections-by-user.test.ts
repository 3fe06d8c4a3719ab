import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-06-03T21:00:00.000Z';
const lines = linesFrom(START);

/**
 * A MySQL database at its connection limit from minute 62. Every half hour it logs how many
 * connections each database user holds. `dispatchHeld`: what the dispatch service's user holds in
 * each of those counts. The dispatch service shipped a release at minute 58; the menu service
 * flipped a flag at minute 20 and is the first to log the refusals.
 */
const connectionsExhausted = (dispatchHeld: readonly number[]) =>
  boardFrom({
    brief: 'CloudWatch alarm "orders-db-connections-high" is in ALARM',
    services: [
      { name: 'order-api', kind: 'ecs', dependsOn: ['orders-db'] },
      { name: 'courier-dispatch', kind: 'ecs', dependsOn: ['orders-db'] },
      { name: 'menu-service', kind: 'ecs', dependsOn: ['orders-db'] },
      { name: 'orders-db', kind: 'rds' },
    ],
    alarms: [{ name: 'orders-db-connections-high', service: 'orders-db', state: 'ALARM', since: at(START, 64) }],
    changes: [
      { service: 'menu-service', timestamp: at(START, 20), kind: 'feature-flag', summary: 'AppConfig menu-service/prod: dinner-promo-banner false -> true' },
      { service: 'courier-dispatch', timestamp: at(START, 58), kind: 'deploy', summary: 'courier-dispatch v4.12.0 rolled out (task definition courier-dispatch:88 -> courier-dispatch:89)' },
    ],
    metrics: [
      { service: 'orders-db', name: 'DatabaseConnections', points: series(START, 100, (minute) => (minute < 60 ? 610 : Math.min(1000, 610 + (minute - 59) * 200))) },
      { service: 'menu-service', name: 'HTTPCode_Target_5XX_Count', points: series(START, 100, (minute) => (minute < 62 ? 0 : 30)) },
      { service: 'order-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 100, (minute) => (minute < 63 ? 0 : 200)) },
    ],
    logs: sorted([
      ...lines('orders-db', 0, 30, dispatchHeld.length, 'INFO', (index) => `processlist by user: order_api=300 courier_dispatch=${dispatchHeld[index]} menu_svc=${70 + index * 3} total=${370 + dispatchHeld[index]! + index * 3} (max_connections=1000)`),
      ...lines('menu-service', 62, 2, 15, 'ERROR', (index) => `db query failed: Error: Too many connections code=ER_CON_COUNT_ERROR errno=1040 query=getMenu${index}`),
      ...lines('order-api', 63, 2, 15, 'ERROR', () => 'HikariPool-1 - Connection add failed: Data source rejected establishment of connection, message from server: "Too many connections"'),
      ...lines('courier-dispatch', 0, 5, 20, 'INFO', (index) => `assigned order ord_${index} to courier zone=CMH-02`),
    ]),
  });

describe("a database's own count of the connections each user holds", () => {
  it('names the client whose count grew as the one that took the connections, and its release just before as the change', () => {
    const diagnosis = diagnose(connectionsExhausted([200, 200, 600, 600]));
    expect(diagnosis.root).toBe('courier-dispatch');
    expect(diagnosis.principles).toContain('resource-names-its-client');
    expect(diagnosis.suspectChange?.summary).toContain('courier-dispatch v4.12.0');
  });

  it('names no one when every user holds what it held before: the first client to fail is not singled out by it', () => {
    expect(diagnose(connectionsExhausted([200, 200, 200, 200])).principles).not.toContain('resource-names-its-client');
  });
});
