import { describe, expect, it } from 'vitest';
import { causesIn } from '../../lib/analyst/cause-signals.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { meaningOf } from '../../lib/analyst/metric-semantics.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-09-01T06:00:00.000Z';
const lines = linesFrom(START);

/**
 * An orders API whose updates wait on row locks from minute 60, and a month-end billing job that
 * opened one transaction at minute 58. The database logs each wait with the session that holds the
 * lock (`holder`), and the sessions' own lines under their database users.
 */
const lockedOut = (holderUser = 'billing_close') =>
  boardFrom({
    brief: 'CloudWatch alarm "orders-api-5xx" is in ALARM',
    services: [
      { name: 'orders-api', kind: 'ecs', dependsOn: ['orders-db'] },
      { name: 'billing-close', kind: 'ecs', dependsOn: ['orders-db'] },
      { name: 'orders-db', kind: 'rds' },
    ],
    alarms: [{ name: 'orders-api-5xx', service: 'orders-api', state: 'ALARM', since: at(START, 63) }],
    metrics: [
      { service: 'orders-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 100, step(60, 0, 40)) },
      { service: 'orders-db', name: 'DBLoad', points: series(START, 100, step(61, 1.2, 30)) },
    ],
    logs: sorted([
      ...lines('orders-api', 0, 2, 30, 'INFO', (index) => `PUT /orders/${index} 200`),
      ...lines('orders-api', 60, 2, 20, 'ERROR', (index) => `PUT /orders/${900 + index} failed: request timed out after 30000 ms`),
      ...lines('billing-close', 58, 6, 7, 'INFO', (index) => `month-end close: ${(index + 1) * 300} accounts settled, transaction open`),
      ...lines('orders-db', 58, 6, 7, 'LOG', () => `10.0.4.7(50112):${holderUser}@orders:[4411]:LOG:  duration: 2210.4 ms  statement: UPDATE invoices SET state = 'closed' WHERE account_id = $1`),
      ...lines('orders-db', 61, 2, 18, 'LOG', (index) => `10.0.9.${index}(40100):orders_api@orders:[${5100 + index}]:LOG:  process ${5100 + index} still waiting for ShareLock on transaction 88120 after 1000.2 ms DETAIL:  Process holding the lock: 4411. Wait queue: ${5100 + index}.`),
    ]),
  });

describe('the client holding the locks others wait for', () => {
  it('is the one the database names as the holder, through the user its session logs in as; it holds, it does not load', () => {
    const diagnosis = diagnose(lockedOut());
    expect(diagnosis.root).toBe('billing-close');
    expect(diagnosis.draft.rootCause.category).toBe('resource-exhaustion');
    expect(diagnosis.principles).toEqual(expect.arrayContaining(['resource-names-its-client', 'mechanism-locks']));
    expect(diagnosis.draft.rootCause.summary).toContain("billing-close holds locks on orders-db and does not release them: orders-db's lock waits name billing-close's session as the holder");
    expect(diagnosis.draft.rootCause.summary).not.toMatch(/its work is that load/);
  });

  it('is not named by the database when the holding session’s user names no client (the job may still be found as load)', () => {
    const diagnosis = diagnose(lockedOut('etl_admin'));
    expect(diagnosis.principles).not.toContain('resource-names-its-client');
    expect(diagnosis.draft.rootCause.summary).not.toMatch(/lock waits name/);
  });
});

describe('lock waits and a database’s load', () => {
  it('a database’s account of sessions waiting on a lock another transaction holds is a lock cause; a client’s own lock wait timeout is only its side of it', () => {
    for (const text of ['process 5120 still waiting for ShareLock on transaction 88120 after 1000.2 ms', 'db.load.avg by wait event Lock:transactionid']) {
      expect(causesIn(text).map((hit) => hit.label), text).toContain('locks');
    }
    expect(causesIn('OperationalError (1205, "Lock wait timeout exceeded; try restarting transaction")').map((hit) => hit.label)).not.toContain('locks');
    expect(causesIn('acquired the scheduler lock for the nightly run').map((hit) => hit.label)).not.toContain('locks');
  });

  it('DBLoad counts sessions active at once: its rise is saturation, not demand', () => {
    expect(meaningOf('DBLoad')).toBe('bad-up');
    expect(meaningOf('DBLoadNonCPU')).toBe('bad-up');
  });
});
