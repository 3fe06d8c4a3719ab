import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { documentedRoutineAt, namesFailure } from '../../lib/analyst/documented-routine.ts';
import type { EvidenceBoard, Runbook } from '../../lib/analyst/evidence-board.ts';
import { at, boardFrom, linesFrom, series, sorted, type SyntheticEvidence } from './board-builder.ts';

const START = '2026-03-10T01:00:00.000Z';
const lines = linesFrom(START);

const runbook = (steps: string[], extra: Partial<Runbook> = {}): Runbook => ({ ref: 'E9', id: 'rb-1', title: 'ledger-import rejections', service: 'ledger-import', steps, ...extra });
const withRunbooks = (board: EvidenceBoard, runbooks: Runbook[]): EvidenceBoard => ({ ...board, runbooks });

/** A sweep that sees an importer reject a few files at 01:50-02:05 UTC, its errors alarm firing, while the store it loads keeps serving. */
const rejectionsAt = (
  minute: number,
  message = (index: number) => `SchemaRejectedError: column count 9, want 12 (file=drop/${index}.csv)`,
  minutes = minute + 30,
  more: NonNullable<SyntheticEvidence['metrics']> = [],
) =>
  boardFrom({
    services: [
      { name: 'ledger-import', kind: 'lambda', dependsOn: ['ledger-store'] },
      { name: 'ledger-store', kind: 'dynamodb' },
    ],
    alarms: [{ name: 'ledger-import-errors', service: 'ledger-import', state: 'ALARM', since: at(START, minute + 2) }],
    logs: sorted([
      ...lines('ledger-import', 0, 4, minutes / 4, 'INFO', (index) => `imported file drop/ok-${index}.csv rows=1200`),
      ...lines('ledger-import', minute, 3, 6, 'ERROR', message),
    ]),
    metrics: [
      { service: 'ledger-import', name: 'Errors', stat: 'Sum', points: series(START, minutes, (at) => (at >= minute && at < minute + 18 ? 1 : 0)) },
      { service: 'ledger-store', name: 'SuccessfulRequestLatency', points: series(START, minutes, (at) => 6 + (at % 3)) },
      ...more,
    ],
  });

const documented = [
  'Partners drop files between 01:45 and 02:30 UTC. A file with the wrong column count raises SchemaRejectedError on purpose; the partner is asked to send it again.',
  'Expected per night: a handful of Errors, and the errors alarm may fire once during the drop. Otherwise no action.',
];

describe('a routine the runbook documents', () => {
  it('explains failures it names inside its stated UTC window, and the alarm on them', () => {
    const diagnosis = diagnose(withRunbooks(rejectionsAt(50), [runbook(documented)]));
    expect(diagnosis.incident).toBe(false);
    expect(diagnosis.principles).toContain('documented-routine');
  });

  it('explains nothing outside its window', () => {
    const diagnosis = diagnose(withRunbooks(rejectionsAt(120), [runbook(documented)]));
    expect(diagnosis.incident).toBe(true);
  });

  it('does not explain an alarm still in ALARM after the window closed', () => {
    const outlasted = diagnose(withRunbooks(rejectionsAt(50, undefined, 160), [runbook(documented)]));
    expect(outlasted.incident).toBe(true);
  });

  it('explains nothing when the runbook does not call it expected', () => {
    const undocumented = ['Partners drop files between 01:45 and 02:30 UTC.', 'On SchemaRejectedError, ask the partner to send the file again.'];
    expect(diagnose(withRunbooks(rejectionsAt(50), [runbook(undocumented)])).incident).toBe(true);
  });

  it('explains nothing when the runbook is about another service', () => {
    expect(diagnose(withRunbooks(rejectionsAt(50), [runbook(documented, { service: 'ledger-export' })])).incident).toBe(true);
  });

  it('does not cover a failure the runbook does not name, inside the window', () => {
    const other = () => 'ProvisionedThroughputExceededException: rate of requests exceeds the allowed throughput';
    expect(diagnose(withRunbooks(rejectionsAt(50, other), [runbook(documented)])).incident).toBe(true);
  });

  it('does not cover a failing measure the runbook does not name, inside the window', () => {
    const failures = { service: 'ledger-import', name: 'DestinationDeliveryFailures', stat: 'Sum', points: series(START, 80, (minute) => (minute >= 52 ? 30 : 0)) };
    expect(diagnose(withRunbooks(rejectionsAt(50, undefined, 80, [failures]), [runbook(documented)])).incident).toBe(true);
  });

  it('holds a start and the hours after it, on the day of the month it names', () => {
    const monthly = withRunbooks(boardFrom({}), [runbook(['The billing run starts at 01:30 UTC on the 10th; the backlog alarm is expected to fire.'])]);
    expect(documentedRoutineAt(monthly, 'ledger-import', Date.parse(at(START, 50)), 0)?.window).toEqual({ start: Date.parse('2026-03-10T01:30:00.000Z'), end: Date.parse('2026-03-10T03:30:00.000Z') });
    expect(documentedRoutineAt(monthly, 'ledger-import', Date.parse(at(START, 50 + 24 * 60)), 0)).toBeUndefined();
    expect(documentedRoutineAt(monthly, 'ledger-import', Date.parse(at(START, 200)), 0)).toBeUndefined();
  });

  it('runs from its start to the end of a window stated later the same day, and its alarms firing every run need no action', () => {
    const steps = ['The settlement run starts at 01:00 UTC. The queue should be empty between 03:40 and 04:20 UTC.', 'Its backlog alarm fires on every run; that alone is not a reason to act.'];
    const board = withRunbooks(boardFrom({}), [runbook(steps)]);
    expect(documentedRoutineAt(board, 'ledger-import', Date.parse(at(START, 10)), 0)?.window).toEqual({ start: Date.parse('2026-03-10T01:00:00.000Z'), end: Date.parse('2026-03-10T04:20:00.000Z') });
    expect(documentedRoutineAt(board, 'ledger-import', Date.parse(at(START, 220)), 0)).toBeUndefined();
    const unexplained = withRunbooks(boardFrom({}), [runbook(['The settlement run starts at 01:00 UTC. The queue should be empty between 03:40 and 04:20 UTC.'])]);
    expect(documentedRoutineAt(unexplained, 'ledger-import', Date.parse(at(START, 10)), 0)).toBeUndefined();
  });

  it('names a failure by its exception or measure, not by its small words', () => {
    const named = runbook(documented);
    expect(namesFailure(named, 'SchemaRejectedError: column count 9, want 12')).toBe(true);
    expect(namesFailure(named, 'Errors ledger-import')).toBe(true);
    expect(namesFailure(named, 'the file was rejected by the partner')).toBe(false);
    expect(namesFailure(named, 'ThrottlingException: Rate exceeded')).toBe(false);
  });
});
