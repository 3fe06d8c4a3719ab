import { describe, expect, it } from 'vitest';
import { causesIn } from '../../lib/analyst/cause-signals.ts';
import { failureKindsIn, failureKindsOfChange } from '../../lib/analyst/change-effects.ts';
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
const lockedOut = (holderUser = 'billing_close', extraLines: { service: string; timestamp: string; level: string; message: string }[] = [], changes: { service: string; timestamp: string; kind: string; summary: string }[] = []) =>
  boardFrom({
    changes,
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
      ...extraLines,
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

  it('is named by the application its session connects as, or by its own account of the session it runs on, and the work it ran as the waits began is quoted', () => {
    const connected = lines('orders-db', 57, 1, 1, 'LOG', () => '10.0.4.7(50112):etl_admin@orders:[4411]:LOG:  connection authorized: user=etl_admin database=orders application_name=billing-close');
    const ownSession = lines('billing-close', 57, 1, 1, 'DEBUG', () => 'opened close transaction backend_pid=4411');
    for (const extra of [connected, ownSession]) {
      const diagnosis = diagnose(lockedOut('etl_admin', extra));
      expect(diagnosis.root).toBe('billing-close');
      expect(diagnosis.draft.rootCause.summary).toContain("orders-db's lock waits name billing-close's session as the holder");
      expect(diagnosis.draft.rootCause.summary).toContain(`When the waits began, billing-close was running "10.0.4.7(50112):etl_admin@orders:[4411]:LOG: duration: 2210.4 ms statement: UPDATE invoices`);
    }
  });

  it('is ended first; a setting changed at it days before to run work that takes locks is why, and is reverted', () => {
    const plan = (board: ReturnType<typeof lockedOut>) => diagnose(board).draft.remediation.map(({ action, target }) => `${action} ${target}`);
    expect(plan(lockedOut())).toEqual(['apply-fix billing-close', 'apply-fix billing-close']);
    const rewrite = { service: 'billing-close', timestamp: at(START, -3 * 24 * 60), kind: 'config', summary: 'close.yaml: invoices cleanup moved from "vacuum" to "vacuum full"' };
    const diagnosis = diagnose(lockedOut('billing_close', [], [rewrite]));
    expect(diagnosis.suspectChange?.summary).toBe(rewrite.summary);
    expect(diagnosis.principles).toContain('latent-setting');
    expect(diagnosis.draft.rootCause.summary).toContain('was made before the trouble and lay quiet until what it governs next happened');
    expect(plan(lockedOut('billing_close', [], [rewrite]))).toEqual(['apply-fix billing-close', 'revert-config billing-close']);
    // A change that takes no locks explains nothing here.
    const unrelated = { ...rewrite, summary: 'close.yaml: report e-mail recipients updated' };
    expect(diagnose(lockedOut('billing_close', [], [unrelated])).suspectChange).toBeUndefined();
  });

  it('made to take its locks by a change is that change’s doing: the category is the change’s, and the holder is still ended first', () => {
    const rewrite = { service: 'billing-close', timestamp: at(START, -3 * 24 * 60), kind: 'config', summary: 'close.yaml: invoices cleanup moved from "vacuum" to "vacuum full"' };
    expect(diagnose(lockedOut()).draft.rootCause.category).toBe('resource-exhaustion');
    const diagnosis = diagnose(lockedOut('billing_close', [], [rewrite]));
    expect(diagnosis.draft.rootCause.category).toBe('config');
    expect(diagnosis.draft.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['apply-fix billing-close', 'revert-config billing-close']);
  });

  it('running work that rewrites the whole table is said to hold its ACCESS EXCLUSIVE lock; row updates are not', () => {
    const vacuumFull = lines('billing-close', 59, 1, 1, 'INFO', () => 'maintenance: VACUUM (FULL, VERBOSE) public.invoices -- 12 GB');
    expect(diagnose(lockedOut('billing_close', vacuumFull)).draft.rootCause.summary).toContain('That work takes an ACCESS EXCLUSIVE lock on the whole table for as long as it runs');
    expect(diagnose(lockedOut()).draft.rootCause.summary).not.toContain('ACCESS EXCLUSIVE');
  });

  it('was started by a schedule moved days before to run just before the waits began: that move is reverted', () => {
    const plan = (board: ReturnType<typeof lockedOut>) => diagnose(board).draft.remediation.map(({ action, target }) => `${action} ${target}`);
    // 2026-09-01 is a Tuesday; the waits begin at 07:01.
    const moved = (expression: string) => ({ service: 'billing-close', timestamp: at(START, -3 * 24 * 60), kind: 'config', summary: `EventBridge Scheduler schedule month-end-close: expression changed cron(0 2 ? * SUN *) -> ${expression}` });
    const toTuesdayMorning = moved('cron(58 6 ? * TUE *)');
    const diagnosis = diagnose(lockedOut('billing_close', [], [toTuesdayMorning]));
    expect(diagnosis.suspectChange?.summary).toBe(toTuesdayMorning.summary);
    expect(diagnosis.principles).toContain('change-shows-when-work-resumes');
    expect(plan(lockedOut('billing_close', [], [toTuesdayMorning]))).toEqual(['apply-fix billing-close', 'revert-config billing-close']);
    // A schedule that fires on another day, or hours before the waits, did not start this run.
    for (const expression of ['cron(58 6 ? * WED *)', 'cron(0 2 ? * TUE *)']) expect(diagnose(lockedOut('billing_close', [], [moved(expression)])).suspectChange).toBeUndefined();
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

  it('a change that rewrites or restructures a table can produce lock waits, and a statement cancelled on a lock timeout complains of them', () => {
    const change = (summary: string) => ({ service: 'db', kind: 'config' as const, summary, ref: 'C1', timestamp: START, at: Date.parse(START) });
    for (const summary of ['maintenance: VACUUM (FULL, ANALYZE) public.events', 'migration 87: ALTER TABLE notes ADD COLUMN id uuid DEFAULT gen_random_uuid()', 'REINDEX TABLE orders']) {
      expect(failureKindsOfChange(change(summary)), summary).toContain('locks');
    }
    expect(failureKindsOfChange(change('REINDEX INDEX CONCURRENTLY orders_idx'))).not.toContain('locks');
    const cancelled = { service: 'api', kind: 'errors' as const, at: 0, strength: 1, ongoing: true, substantial: true, ref: 'E1', description: '', text: 'ERROR: canceling statement due to lock timeout' };
    expect(failureKindsIn([cancelled])).toContain('locks');
  });

  it('DBLoad counts sessions active at once: its rise is saturation, not demand', () => {
    expect(meaningOf('DBLoad')).toBe('bad-up');
    expect(meaningOf('DBLoadNonCPU')).toBe('bad-up');
  });
});
