import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-06-16T09:00:00.000Z';
const lines = linesFrom(START);

/** A MySQL writer whose temporary space fills from minute 80; its writers fail with it. `slowLog`: its slow query log names who ran the queries. */
const board = (slowLog: boolean) =>
  boardFrom({
    brief: 'CloudWatch alarm "tenders-5xx" is in ALARM',
    services: [
      { name: 'tenders', kind: 'ecs', dependsOn: ['freight-db'] },
      { name: 'lane-insights', kind: 'ecs', dependsOn: ['freight-db'] },
      { name: 'freight-db', kind: 'rds' },
    ],
    alarms: [{ name: 'tenders-5xx', service: 'tenders', state: 'ALARM', since: at(START, 82) }],
    metrics: [{ service: 'freight-db', name: 'FreeLocalStorage', points: series(START, 120, step(80, 60e9, 0.1e9)) }],
    logs: sorted([
      ...lines('tenders', 0, 5, 24, 'INFO', (index) => `tender ${index} saved`),
      ...lines('tenders', 81, 4, 9, 'ERROR', () => "save failed: ERROR 1114 (HY000): The table '/rdsdbdata/tmp/#sql41_89_1' is full"),
      ...lines('lane-insights', 30, 10, 9, 'INFO', () => "running card 612 'Carrier margin by lane (all history)' context=dashboard auto-refresh"),
      ...lines('freight-db', 80, 4, 9, 'ERROR', (index) => `[ERROR] [MY-013132] [Server] The table '/rdsdbdata/tmp/#sql58ef_89b1_${index}' is full!`),
      ...lines('freight-db', 81, 8, 4, 'ERROR', (index) => `[ERROR] [MY-000035] [Server] Disk is full writing '/rdsdbdata/tmp/#sql58ef_89b1_${index}.MAD' (OS errno 28 - No space left on device)`),
      ...(slowLog
        ? lines('freight-db', 80, 4, 9, 'INFO', (index) => `# User@Host: insights_ro[insights_ro] @ [10.61.8.44]  Id: 8820${index}\n# Query_time: 2752.58  Rows_sent: 0  Rows_examined: 183350141 Errno: 1114`)
        : []),
    ]),
  });

describe("a database's temporary space filled by the queries its slow query log names", () => {
  it('is filled by the client those entries name (insights_ro is lane-insights reading), not by the database itself', () => {
    const diagnosis = diagnose(board(true));
    expect(diagnosis.root).toBe('lane-insights');
    expect(diagnosis.principles).toContain('resource-names-its-client');
  });

  it('without the slow query log naming anyone, nothing ties the full space to that client', () => {
    expect(diagnose(board(false)).root).not.toBe('lane-insights');
  });
});
