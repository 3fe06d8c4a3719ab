import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { nextCalls } from '../../lib/analyst/next-tools.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-04-14T09:00:00.000Z';
const lines = linesFrom(START);

/**
 * A ledger database whose free space falls from minute 40, when one session begins spilling
 * temporary files, until inserts fail at minute 95. The database logs each temporary file with the
 * session's prefix; who runs that session is told by its connection line (`sessionLine`), when given.
 */
const filling = ({ sessionUser = '<USER_2>', sessionLine = true, spill = true }: { sessionUser?: string; sessionLine?: boolean; spill?: boolean } = {}) =>
  boardFrom({
    brief: 'PagerDuty event incident.triggered at 2026-04-14T10:40:00Z.\nIncident: ledger-api 5xx rate above 5%\nStatus: triggered',
    services: [
      { name: 'ledger-api', kind: 'ecs', dependsOn: ['ledger-db'] },
      { name: 'report-runner', kind: 'ecs', dependsOn: ['ledger-db'] },
      { name: 'ledger-db', kind: 'rds' },
    ],
    metrics: [{ service: 'ledger-db', name: 'FreeStorageSpace', points: series(START, 110, (minute) => (minute < 40 ? 170e9 : Math.max(0, 170e9 - (minute - 40) * 3e9))) }],
    logs: sorted([
      ...lines('ledger-api', 0, 5, 18, 'INFO', (index) => `POST /v1/postings 201 posting=p_${4000 + index}`),
      ...lines('ledger-api', 95, 1, 12, 'ERROR', (index) => `POST /v1/postings 500 posting=p_${5000 + index}: could not extend file "base/16384/40112${index}": No space left on device`),
      ...lines('report-runner', 0, 20, 5, 'INFO', (index) => `query ${880 + index} finished rows=88 runtime=1.1s`),
      ...(sessionLine ? lines('ledger-db', 38, 1, 1, 'LOG', () => `10.0.7.21(41822):${sessionUser}@ledger:[20553]:LOG:  connection authorized: user=${sessionUser} database=ledger application_name=report-runner`) : []),
      ...(spill ? lines('ledger-db', 40, 5, 10, 'LOG', (index) => `10.0.7.21(41822):${sessionUser}@ledger:[20553]:LOG:  temporary file: path "base/pgsql_tmp/pgsql_tmp20553.${index}", size 1073741824`) : []),
      ...lines('ledger-db', 95, 1, 10, 'ERROR', (index) => `10.0.3.9(39120):ledger_app@ledger:[322${index}]:ERROR:  could not extend file "base/16384/40112${index}": No space left on device`),
    ]),
  });

describe('the client whose queries spill temporary files onto a database’s storage', () => {
  it('is the one whose sessions the database logs writing them, named by the application they connect as, even with the user masked', () => {
    const diagnosis = diagnose(filling());
    expect(diagnosis.root).toBe('report-runner');
    expect(diagnosis.principles).toContain('resource-names-its-client');
    // The volume it fills is the database's own.
    expect(diagnosis.draft.rootCause.summary).toContain('A storage volume at ledger-db is filling');
    expect(diagnosis.draft.rootCause.summary).not.toContain('A storage volume at report-runner');
  });

  it('is not named when nothing says whose the session is, nor when no session spilled anything', () => {
    expect(diagnose(filling({ sessionLine: false })).principles).not.toContain('resource-names-its-client');
    expect(diagnose(filling({ spill: false })).root).not.toBe('report-runner');
  });

  it('has its session looked up by its process id when the database names it as writing temporary files', () => {
    const board = filling({ sessionLine: false });
    const diagnosis = diagnose(board);
    board.asked.add('survey');
    const lookups = nextCalls(board, diagnosis, [{ name: 'query_logs' } as never]).filter((call) => call.arguments['contains'] === '20553');
    expect(lookups).toHaveLength(1);
  });
});
