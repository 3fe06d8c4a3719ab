import { describe, expect, it } from 'vitest';
import { loadFollowsRuns } from '../../lib/analyst/client-runs.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, type SyntheticEvidence } from './board-builder.ts';

const START = '2026-05-04T01:00:00.000Z';
const lines = linesFrom(START);

/** Read capacity used a minute: steady near 900, and 5000 while a run of the export is under way. */
const readLoad = (runs: readonly (readonly [number, number])[]) => (minute: number) =>
  (runs.some(([from, to]) => minute >= from && minute < to) ? 5000 : 900) + (minute % 5) * 20;

/** A ledger table read by a statements API and a nightly export whose runs (minutes 40 to 70, and from 100) log their start and end. */
const evidence = (options: { loadRuns?: [number, number][]; exportLogs?: SyntheticEvidence['logs'] } = {}): SyntheticEvidence => ({
  brief: 'CloudWatch alarm "ledger-read-throttles" is in ALARM',
  services: [
    { name: 'statements-api', kind: 'lambda', dependsOn: ['ledger-table'] },
    { name: 'ledger-export', kind: 'ecs', dependsOn: ['ledger-table'] },
    { name: 'ledger-table', kind: 'dynamodb' },
  ],
  alarms: [{ name: 'ledger-read-throttles', service: 'ledger-table', state: 'ALARM', since: at(START, 102) }],
  metrics: [
    { service: 'ledger-table', name: 'ConsumedReadCapacityUnits', stat: 'Sum', periodSeconds: 60, points: series(START, 120, readLoad(options.loadRuns ?? [[40, 70], [100, 120]])) },
    { service: 'ledger-table', name: 'ReadThrottleEvents', stat: 'Sum', periodSeconds: 60, points: series(START, 120, (minute) => ((minute >= 41 && minute < 70) || minute >= 101 ? 300 : 0)) },
  ],
  logs: sorted([
    ...lines('statements-api', 0, 3, 40, 'INFO', (index) => `GET /statements/${index} 200`),
    ...lines('statements-api', 42, 4, 19, 'ERROR', () => 'GetItem ledger failed: ProvisionedThroughputExceededException: The level of configured provisioned throughput for the table was exceeded'),
    ...(options.exportLogs ?? [
      ...lines('ledger-export', 40, 60, 2, 'INFO', (index) => `nightly ledger export run ${index + 1} started: parallel Scan on table ledger (TotalSegments=4)`),
      ...lines('ledger-export', 70, 60, 1, 'INFO', () => 'nightly ledger export run 1 complete: 1,900,000 items written to the archive'),
      ...lines('ledger-export', 50, 10, 2, 'INFO', (index) => `segment ${index + 1}/4: 400,000 items read`),
    ]),
  ]),
});

describe('a client whose runs the load follows', () => {
  it('is found when the load steps up at each start and down at each end its log dates', () => {
    const found = loadFollowsRuns(boardFrom(evidence()), 'ledger-table', ['statements-api', 'ledger-export']);
    expect(found).toMatchObject({ client: 'ledger-export', measure: 'ConsumedReadCapacityUnits', starts: [Date.parse(at(START, 40)), Date.parse(at(START, 100))], ends: [Date.parse(at(START, 70))] });
  });

  it('is the root of the throttling its table shows, named with what its runs do, and is slowed first', () => {
    const diagnosis = diagnose(boardFrom(evidence()));
    expect(diagnosis.root).toBe('ledger-export');
    expect(diagnosis.principles).toContain('load-follows-client-runs');
    expect(diagnosis.draft.rootCause.summary).toContain("ledger-export's runs are the load on ledger-table: its load (consumed read capacity units) steps up when a run starts (01:40, 02:40 UTC) and back down when it ends (02:10 UTC)");
    expect(diagnosis.draft.rootCause.summary).toContain('parallel Scan on table ledger');
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'limit-traffic', target: 'ledger-export' });
  });

  it('is the root even when the throttled client\'s own demand surged and it had just been deployed', () => {
    // A morning rush doubles the API's calls and a release lands just before; the table still gives way only while a run is under way.
    const busy = (options: Parameters<typeof evidence>[0] = {}): SyntheticEvidence => ({
      ...evidence(options),
      alarms: [{ name: 'statements-errors', service: 'statements-api', state: 'ALARM', since: at(START, 102) }],
      brief: 'CloudWatch alarm "statements-errors" is in ALARM',
      changes: [{ service: 'statements-api', timestamp: at(START, 36), kind: 'deploy', summary: 'statements-api v4.2.0 published' }],
      metrics: [...evidence(options).metrics!, { service: 'statements-api', name: 'Invocations', stat: 'Sum', periodSeconds: 60, points: series(START, 120, (minute) => (minute < 30 ? 2000 : 2000 + (minute - 30) * 60)) }],
    });
    const diagnosis = diagnose(boardFrom(busy()));
    expect(diagnosis.root).toBe('ledger-export');
    expect(diagnosis.principles).toContain('load-follows-client-runs');
    // Without the runs' own account of their start and end, nothing ties the load to the export: the surging, just-released API stays the suspect.
    const withoutRuns = diagnose(boardFrom(busy({ exportLogs: lines('ledger-export', 50, 10, 2, 'INFO', (index) => `segment ${index + 1}/4: 400,000 items read`) })));
    expect(withoutRuns.root).toBe('statements-api');
  });

  it('is not a client whose runs the load does not follow', () => {
    // The load steps up at minute 80 and stays: the runs' start and end do not move it.
    const found = loadFollowsRuns(boardFrom(evidence({ loadRuns: [[80, 120]] })), 'ledger-table', ['statements-api', 'ledger-export']);
    expect(found).toBeUndefined();
  });

  it('is not a client whose log says "started" for every request', () => {
    const chatty = lines('ledger-export', 0, 2, 60, 'INFO', (index) => `request ${index} started`);
    expect(loadFollowsRuns(boardFrom(evidence({ exportLogs: chatty })), 'ledger-table', ['statements-api', 'ledger-export'])).toBeUndefined();
  });

  it('needs two steps: one run start alone may be chance', () => {
    const once = lines('ledger-export', 40, 60, 1, 'INFO', () => 'nightly ledger export run 1 started');
    expect(loadFollowsRuns(boardFrom(evidence({ exportLogs: once })), 'ledger-table', ['statements-api', 'ledger-export'])).toBeUndefined();
  });

  it('leaves it open when two clients’ runs both match the steps', () => {
    const board = boardFrom({
      ...evidence(),
      services: [...evidence().services!, { name: 'audit-export', kind: 'ecs', dependsOn: ['ledger-table'] }],
      logs: sorted([...evidence().logs!, ...lines('audit-export', 40, 30, 2, 'INFO', (index) => (index === 0 ? 'audit export started' : 'audit export finished'))]),
    });
    expect(loadFollowsRuns(board, 'ledger-table', ['statements-api', 'ledger-export', 'audit-export'])).toBeUndefined();
  });
});
