import { describe, expect, it } from 'vitest';
import { severityOf } from '../../lib/analysis/log-templates.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { severityOfLine } from '../../lib/analyst/signals.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-05-18T01:00:00.000Z';

describe('a line that reports a failure and says it was got past', () => {
  it('keeps the level its author gave it', () => {
    expect(severityOfLine({ level: 'WARN', message: 'presigned PUT rejected: 403 Request has expired (client retried with new URL)' })).toBe(severityOf('WARN'));
    expect(severityOfLine({ level: 'WARN', message: 'upsert attempt 2/5: connect ETIMEDOUT 10.2.3.4:5432, unable to reach catalog-db; retried ok' })).toBe(severityOf('WARN'));
  });
  it('is an error when it says no such thing', () => {
    expect(severityOfLine({ level: 'WARN', message: 'presigned PUT rejected: 403 Request has expired' })).toBe(severityOf('ERROR'));
    expect(severityOfLine({ level: 'WARN', message: 'upsert attempt 2/5: connect ETIMEDOUT 10.2.3.4:5432, unable to reach catalog-db' })).toBe(severityOf('ERROR'));
  });
});

/**
 * A weekly import announced into a queue at minute 28; the queue's consumer scales out and opens more
 * connections to the database it writes to; the backlog keeps growing to `now` (not yet draining).
 */
const announcedImport = (writer: 'worker' | 'web') =>
  boardFrom({
    services: [
      { name: 'importer', kind: 'lambda', dependsOn: ['ingest-queue'] },
      { name: 'ingest-queue', kind: 'sqs' },
      { name: 'worker', kind: 'ecs', dependsOn: writer === 'worker' ? ['ingest-queue', 'catalog-db'] : ['ingest-queue'] },
      { name: 'web', kind: 'ecs', dependsOn: writer === 'web' ? ['catalog-db'] : [] },
      { name: 'catalog-db', kind: 'rds' },
    ],
    alarms: [{ name: 'ingest-queue-depth-high', service: 'ingest-queue', state: 'ALARM', since: at(START, 40) }],
    changes: [
      { service: 'importer', timestamp: at(START, 28), kind: 'other', summary: 'Standard change (recurring, every Monday): weekly feed import into ingest-queue; backlog alarms expected while the worker scales out' },
    ],
    metrics: [
      { service: 'ingest-queue', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 90, (minute) => (minute < 30 ? 0 : (minute - 29) * 800)) },
      { service: 'catalog-db', name: 'DatabaseConnections', points: series(START, 90, (minute) => (minute < 38 ? 40 : 120)) },
    ],
  });

describe('the database connections a queue consumer opens for announced work', () => {
  it('are that work, where the consumer writes to the database', () => {
    expect(diagnose(announcedImport('worker')).draft.incident).toBe(false);
    expect(diagnose(announcedImport('worker')).draft.rootCause.summary).toMatch(/DatabaseConnections at catalog-db .* rose with ingest-queue's announced work/);
  });
  it('are not explained by it where only another service uses the database', () => {
    expect(diagnose(announcedImport('web')).draft.incident).toBe(true);
  });
});
