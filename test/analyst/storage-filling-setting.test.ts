import { describe, expect, it } from 'vitest';
import { failureKindsOfChange } from '../../lib/analyst/change-effects.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import type { Change } from '../../lib/analyst/evidence-board.ts';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom, pointsBetween, step } from './board-builder.ts';

const START = '2026-05-12T06:00:00.000Z';
const HOUR = 60;
/** Where the volume starts filling: twenty hours of a level, then ten of a fall that slows at night. */
const FILL_FROM = 20 * HOUR;
const END = 30 * HOUR;

const freeSpace = (minute: number): number => {
  const filling = Math.max(0, minute - FILL_FROM);
  return 80e9 - filling * 60e6 - 4e9 * Math.sin((filling / (10 * HOUR)) * Math.PI) + (minute % 15) * 2e6;
};

/**
 * A sweep over a database whose free space held, then fell since just after a parameter change; its
 * connections rose well before that with the morning's work, which dates its first trouble earlier.
 */
const sweep = (parameters: { parameterName: string; parameterValue: string }[], errors = false) =>
  diagnose(
    boardFrom({
      services: [{ name: 'shop-api', kind: 'ecs', dependsOn: ['shop-db'] }, { name: 'shop-db', kind: 'rds' }],
      changes: [
        {
          service: 'shop-db',
          timestamp: at(START, FILL_FROM - 15),
          kind: 'config',
          summary: `ModifyDBParameterGroup shop-mysql80 (${parameters.length} parameters, ApplyMethod immediate)`,
          details: { eventName: 'ModifyDBParameterGroup', requestParameters: { dBParameterGroupName: 'shop-mysql80', parameters } },
        },
      ],
      logs: errors ? Array.from({ length: 6 }, (_, index) => ({ service: 'shop-api', timestamp: at(START, END - 30 + index * 4), level: 'ERROR', message: "OperationalError (1114, \"The table 'orders' is full\")" })) : [],
      metrics: [
        { service: 'shop-db', name: 'FreeStorageSpace', periodSeconds: 300, points: pointsBetween(START, 0, END, 5, freeSpace) },
        { service: 'shop-db', name: 'DatabaseConnections', periodSeconds: 300, points: pointsBetween(START, 0, END, 5, step(FILL_FROM - 100, 40, 90)) },
      ],
    }),
  ).draft;

const loggingEverything = [
  { parameterName: 'general_log', parameterValue: '1' },
  { parameterName: 'log_output', parameterValue: 'TABLE' },
];

describe('a volume that holds its level, then fills from the moment a setting made the server write more', () => {
  it('is filling toward its limit, dated from the run, not from the window: a run the whole window does not follow as a line', () => {
    const draft = sweep(loggingEverything);
    expect(draft.incident).toBe(true);
    expect(draft.rootCause.service).toBe('shop-db');
    expect(draft.evidence.map((item) => item.summary).join('\n')).toMatch(/FreeStorageSpace at shop-db is falling steadily .* exhausted in about/);
  });

  it('was filled by the logging setting changed just before the fill, though its other trouble began earlier; the parameters it set are named', () => {
    const draft = sweep(loggingEverything);
    expect(draft.rootCause.category).toBe('config');
    expect(draft.rootCause.summary).toContain('general_log: 1');
    expect(draft.rootCause.summary).toContain('log_output: TABLE');
  });

  it('still filling, it is stopped first and given room after; already full, the room comes first', () => {
    expect(sweep(loggingEverything).remediation.map((item) => `${item.action} ${item.target}`)).toEqual(['revert-config shop-db', 'scale shop-db']);
    expect(sweep(loggingEverything, true).remediation.map((item) => `${item.action} ${item.target}`).slice(0, 2)).toEqual(['scale shop-db', 'revert-config shop-db']);
  });

  it('a setting that writes nothing more to the volume, changed after the trouble began, did not fill it', () => {
    expect(sweep([{ parameterName: 'max_allowed_packet', parameterValue: '67108864' }]).rootCause.category).not.toBe('config');
  });
});

describe('a level, then a run partway through the window', () => {
  const exhaustionIn = (name: string, valueAt: (minute: number) => number): string[] =>
    collectSignals(boardFrom({ services: [{ name: 'db', kind: 'rds' }], metrics: [{ service: 'db', name, periodSeconds: 300, points: pointsBetween(START, 0, END, 5, valueAt) }] }))
      .map((signal) => signal.description ?? '')
      .filter((description) => description.includes('exhausted'));

  it('is no run toward the limit when it took a sliver of what was free (memory settling lower)', () => {
    // The last hour and a half: 3% of it, which at that pace runs out in two days.
    const settlesFrom = END - 90;
    expect(exhaustionIn('FreeableMemory', (minute) => 5.84e9 - Math.max(0, minute - settlesFrom) * 2e6 + (minute % 15) * 1e5)).toEqual([]);
    expect(exhaustionIn('FreeableMemory', (minute) => 5.84e9 - Math.max(0, minute - settlesFrom) * 20e6 + (minute % 15) * 1e5)).toHaveLength(1);
  });
});

describe('a setting that makes a server write more to its own storage', () => {
  const fills = (summary: string): boolean => failureKindsOfChange({ service: 'db', timestamp: START, at: Date.parse(START), ref: 'E1', kind: 'config', summary } as Change).has('disk');

  it('logs every statement or query, keeps its logs longer, or logs verbosely', () => {
    expect(fills('parameter group shop-pg15: log_statement=all')).toBe(true);
    expect(fills('ModifyDBParameterGroup clinic-pg15: log_min_duration_statement = 0 (was 1000)')).toBe(true);
    expect(fills('parameter group shop-mysql80: general_log 0 -> 1')).toBe(true);
    expect(fills("CALL mysql.rds_set_configuration('binlog retention hours', 168)")).toBe(true);
    expect(fills('SSM parameter LOG_LEVEL changed info -> debug')).toBe(true);
  });

  it('is not one that logs only schema changes or lock waits', () => {
    expect(fills('parameter group care-pg15: log_lock_waits=1, log_statement=ddl, deadlock_timeout=1s')).toBe(false);
  });
});
