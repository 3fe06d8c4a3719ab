import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-07-02T06:00:00.000Z';
const lines = linesFrom(START);

/**
 * A PostgreSQL database slowing from minute 240: its CPU and its callers' latency climb. A parameter
 * change at the database came at minute 200. Performance Insights' age of the oldest idle transaction
 * climbs from minute 30, so that transaction opened then; `openerAt` is when the export service began
 * a download. The API serves requests all along, logging only the statements that time out.
 */
const idleTransactionAged = ({ openerAt }: { openerAt: number }) =>
  boardFrom({
    brief: 'CloudWatch alarm "ledger-api-latency" is in ALARM',
    services: [
      { name: 'ledger-api', kind: 'ecs', dependsOn: ['ledger-db'] },
      { name: 'finance-export', kind: 'ecs', dependsOn: ['ledger-db'] },
      { name: 'ledger-db', kind: 'rds' },
    ],
    alarms: [{ name: 'ledger-api-latency', service: 'ledger-api', state: 'ALARM', since: at(START, 290) }],
    changes: [{ service: 'ledger-db', timestamp: at(START, 200), kind: 'config', summary: 'ModifyDBParameterGroup ledger-pg16: work_mem 8MB -> 16MB (apply immediately)' }],
    metrics: [
      { service: 'ledger-db', name: 'CPUUtilization', points: series(START, 300, step(240, 30, 85)) },
      { service: 'ledger-db', name: 'db.state.idle_in_transaction_max_time.avg', unit: 'Seconds', points: series(START, 300, (minute) => (minute < 30 ? 0 : (minute - 30) * 60)) },
      { service: 'ledger-api', name: 'TargetResponseTime', points: series(START, 300, step(245, 0.12, 1.4)) },
      { service: 'ledger-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 300, step(246, 0, 40)) },
      { service: 'ledger-api', name: 'RequestCount', points: series(START, 300, () => 9_000) },
    ],
    logs: sorted([
      { service: 'finance-export', timestamp: at(START, openerAt), level: 'INFO', message: 'download started: report 77 "Ledger lines, month to date" format=csv' },
      { service: 'ledger-db', timestamp: at(START, 250), level: 'INFO', message: 'LOG:  automatic vacuum of table "ledger.public.lines": tuples: 0 removed, 41000000 remain, 6100000 are dead but not yet removable' },
      ...lines('ledger-api', 246, 4, 12, 'ERROR', (index) => `GET /v1/lines/${index} 500: canceling statement due to statement timeout`),
    ]),
  });

describe('a transaction kept open on a database, dated by its measure of the oldest idle transaction', () => {
  it('is held by the client that began its work the minute it opened: its hold, not the later parameter change, slows the database', () => {
    const diagnosis = diagnose(idleTransactionAged({ openerAt: 30 }));
    expect(diagnosis.root).toBe('finance-export');
    expect(diagnosis.principles).toContain('mechanism-open-transaction');
    expect(diagnosis.draft.rootCause.category).toBe('resource-exhaustion');
    expect(diagnosis.draft.rootCause.summary).toContain('keeps a transaction open on ledger-db since 2026-07-02T06:30:00Z (its session sits idle in transaction)');
    expect(diagnosis.draft.rootCause.summary).toContain('"6100000 are dead but not yet removable"');
    expect(diagnosis.draft.remediation.map((step) => `${step.action} ${step.target}`)).toEqual(['restart finance-export', 'apply-fix finance-export', 'apply-fix ledger-db']);
  });

  it('names no holder when no client began anything that minute', () => {
    const diagnosis = diagnose(idleTransactionAged({ openerAt: 34 }));
    expect(diagnosis.root).not.toBe('finance-export');
    expect(diagnosis.principles).not.toContain('mechanism-open-transaction');
  });
});

/** The same slowdown, told by a monitor's hourly report of the database's longest transaction and whose session it is; `held`: that transaction is hours old, not seconds. */
const idleTransactionReported = ({ held }: { held: boolean }) =>
  boardFrom({
    brief: 'CloudWatch alarm "ledger-api-latency" is in ALARM',
    services: [
      { name: 'ledger-api', kind: 'ecs', dependsOn: ['ledger-db'] },
      { name: 'finance-export', kind: 'ecs', dependsOn: ['ledger-db'] },
      { name: 'db-watch', kind: 'lambda', dependsOn: ['ledger-db'] },
      { name: 'ledger-db', kind: 'rds' },
    ],
    alarms: [{ name: 'ledger-api-latency', service: 'ledger-api', state: 'ALARM', since: at(START, 290) }],
    changes: [{ service: 'ledger-db', timestamp: at(START, 200), kind: 'config', summary: 'ModifyDBParameterGroup ledger-pg16: work_mem 8MB -> 16MB (apply immediately)' }],
    metrics: [
      { service: 'ledger-db', name: 'CPUUtilization', points: series(START, 300, step(240, 30, 85)) },
      { service: 'ledger-api', name: 'TargetResponseTime', points: series(START, 300, step(245, 0.12, 1.4)) },
      { service: 'ledger-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 300, step(246, 0, 40)) },
    ],
    logs: sorted([
      ...lines('db-watch', 60, 60, 4, 'INFO', (index) => `longest_xact: pid=4412 usename=finance_export_ro state="idle in transaction" xact_age_s=${held ? 1_800 + index * 3_600 : 4}`),
      ...lines('ledger-api', 246, 4, 12, 'ERROR', (index) => `GET /v1/lines/${index} 500: canceling statement due to statement timeout`),
    ]),
  });

describe('a transaction kept open on a database, as a report of its sessions tells it', () => {
  it('is held by the client the idle session’s user names', () => {
    const diagnosis = diagnose(idleTransactionReported({ held: true }));
    expect(diagnosis.root).toBe('finance-export');
    expect(diagnosis.principles).toContain('mechanism-open-transaction');
  });

  it('is not a hold while the transaction is only seconds old', () => {
    const diagnosis = diagnose(idleTransactionReported({ held: false }));
    expect(diagnosis.principles).not.toContain('mechanism-open-transaction');
  });
});
