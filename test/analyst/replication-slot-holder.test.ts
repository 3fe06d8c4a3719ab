import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-06-14T06:00:00.000Z';
const HOUR = 60;

/**
 * A database whose write-ahead log kept for replication grows from minute 240, filling its storage;
 * a CDC task reads its changes, an API and an import write to it.
 */
const retainedLog = ({ stop, cdcSilentFrom, full }: { stop?: string; cdcSilentFrom?: number; full?: boolean }) =>
  diagnose(
    boardFrom({
      brief: 'Scheduled health sweep',
      services: [
        { name: 'listings-api', kind: 'ecs', dependsOn: ['listings-db'] },
        { name: 'dealer-import', kind: 'ecs', dependsOn: ['listings-db'] },
        { name: 'listings-cdc', kind: 'other', dependsOn: ['listings-db', 'lake-bucket'] },
        { name: 'lake-bucket', kind: 's3' },
        { name: 'listings-db', kind: 'rds' },
      ],
      alarms: [{ name: 'listings-db-free-storage-low', service: 'listings-db', state: 'ALARM', since: at(START, 10 * HOUR) }],
      changes: [
        ...(stop ? [{ service: 'listings-cdc', timestamp: at(START, 235), kind: 'other', summary: stop }] : []),
        { service: 'dealer-import', timestamp: at(START, 200), kind: 'config', summary: 'dealer-import BATCH_SIZE 1000 -> 2000' },
      ],
      logs: full ? Array.from({ length: 6 }, (_, index) => ({ service: 'listings-db', timestamp: at(START, 11 * HOUR + index), level: 'PANIC', message: 'could not write to file "pg_wal/xlogtemp.21877": No space left on device' })) : [],
      metrics: [
        { service: 'listings-db', name: 'TransactionLogsDiskUsage', points: series(START, 12 * HOUR, (minute) => 1.4e9 + Math.max(0, minute - 240) * 2e8) },
        { service: 'listings-db', name: 'FreeStorageSpace', points: series(START, 12 * HOUR, (minute) => 200e9 - Math.max(0, minute - 240) * 2e8) },
        ...(cdcSilentFrom !== undefined ? [{ service: 'listings-cdc', name: 'CDCLatencySource', points: series(START, cdcSilentFrom, () => 5) }] : []),
      ],
    }),
  ).draft;

describe('a database filled by the log it keeps for a replication slot', () => {
  it('is held by the client whose stop came as the log began to grow: resume it', () => {
    const draft = retainedLog({ stop: 'StopReplicationTask listings-lake-cdc (DMS)' });
    expect(draft.rootCause).toMatchObject({ service: 'listings-cdc', category: 'resource-exhaustion' });
    expect(draft.rootCause.summary).toMatch(/replication slot/);
    expect(draft.remediation.map((step) => [step.action, step.target])).toEqual([['restart', 'listings-cdc']]);
  });
  it('is held by the client scaled to nothing as the log began to grow; scaled down to fewer copies, it still reads', () => {
    expect(retainedLog({ stop: 'UpdateService data/listings-cdc: desiredCount 1 -> 0' }).rootCause.service).toBe('listings-cdc');
    expect(retainedLog({ stop: 'UpdateService data/listings-cdc: desiredCount 3 -> 2' }).rootCause.service).not.toBe('listings-cdc');
  });
  it('is held by the client whose own measures went silent then, when its stop is not on record', () => {
    expect(retainedLog({ cdcSilentFrom: 236 }).rootCause.service).toBe('listings-cdc');
  });
  it('gets more room first when its storage has already run out', () => {
    expect(retainedLog({ stop: 'Debezium connector paused', full: true }).remediation.map((step) => [step.action, step.target])).toEqual([
      ['scale', 'listings-db'],
      ['restart', 'listings-cdc'],
    ]);
  });
  it('is not put on a client nothing shows stopped', () => {
    expect(retainedLog({}).rootCause.service).not.toBe('listings-cdc');
  });
});
