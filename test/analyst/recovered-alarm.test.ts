import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, type SyntheticEvidence } from './board-builder.ts';

const START = '2026-06-09T09:00:00.000Z';
const lines = linesFrom(START);

/** A portal's 5xx alarm fired at minute 95 and was back to OK at minute 98; the evidence runs to minute 130. */
const evidence = (options: { errorsUntil?: number; latency?: (minute: number) => number; hostCheck?: SyntheticEvidence['metrics']; changes?: SyntheticEvidence['changes'] } = {}): SyntheticEvidence => ({
  brief: `CloudWatch alarm "portal-5xx" changed to ALARM at ${at(START, 95)}.`,
  services: [{ name: 'portal', kind: 'ec2', dependsOn: ['portal-db'] }, { name: 'portal-db', kind: 'rds' }],
  alarms: [{ name: 'portal-5xx', service: 'portal', state: 'OK', since: at(START, 98) }],
  changes: options.changes ?? [],
  metrics: [
    { service: 'portal', name: 'HTTPCode_Target_5XX_Count', points: series(START, 130, (minute) => (minute >= 92 && minute < 98 ? 40 : 1)) },
    { service: 'portal', name: 'RequestCount', points: series(START, 130, () => 900) },
    ...(options.latency ? [{ service: 'portal', name: 'TargetResponseTime', points: series(START, 130, options.latency) }] : []),
    ...(options.hostCheck ?? []),
  ],
  logs: sorted([
    ...lines('portal', 0, 5, 26, 'INFO', (index) => `GET /permits/${index} 200`),
    ...lines('portal', 92, 1, (options.errorsUntil ?? 97) - 92, 'ERROR', () => 'HikariPool-1 - Connection is not available, request timed out after 5000ms.'),
  ]),
});

describe('an alarm back to OK has had its breach end', () => {
  it('errors during the breach it recovered from do not keep it an incident', () => {
    expect(diagnose(boardFrom(evidence())).incident).toBe(false);
  });

  it('errors that go on after the recovery do', () => {
    expect(diagnose(boardFrom(evidence({ errorsUntil: 125 }))).incident).toBe(true);
  });

  it('a measure most of the way back to its baseline is not failing now; one still well up is', () => {
    // Up from 0.1 s to 2 s during the breach, back for a few minutes, then a little above its old level (other work started).
    const mostlyBack = (minute: number) => (minute < 92 || (minute >= 98 && minute < 103) ? 0.1 + (minute % 3) * 0.01 : minute < 98 ? 2 : 0.22 + (minute % 3) * 0.01);
    expect(diagnose(boardFrom(evidence({ latency: mostlyBack }))).incident).toBe(false);
    const stillUp = (minute: number) => (minute < 92 ? 0.1 : 2 + (minute % 2) * 0.05);
    expect(diagnose(boardFrom(evidence({ latency: stillUp }))).incident).toBe(true);
  });

  it('a host whose status check failed is not failing now once a change took it away: its metric just stopped', () => {
    const failedHost = [{ service: 'portal', name: 'StatusCheckFailed_System', dimensions: { InstanceId: 'i-0c41a7e29d3b56f08' }, points: series(START, 98, (minute) => (minute >= 92 ? 1 : 0)) }];
    const replaced = [{ service: 'portal', timestamp: at(START, 97), kind: 'scaling' as const, summary: 'Terminating EC2 instance: i-0c41a7e29d3b56f08' }];
    expect(diagnose(boardFrom(evidence({ hostCheck: failedHost, changes: replaced }))).incident).toBe(false);
    // Without the change that took it away, its last reading is how it stands.
    expect(diagnose(boardFrom(evidence({ hostCheck: failedHost }))).incident).toBe(true);
  });
});
