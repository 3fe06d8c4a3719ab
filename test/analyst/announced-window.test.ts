import { describe, expect, it } from 'vitest';
import { reportsSymptom } from '../../lib/analyst/alerts.ts';
import { announcedStretchOf, announcedWindowAround, announcedWindowOf } from '../../lib/analyst/announced-window.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series, step } from './board-builder.ts';

const START = '2026-05-03T01:00:00.000Z';
const services = [{ name: 'desk-api', kind: 'ecs', dependsOn: ['desk-db'] }, { name: 'desk-db', kind: 'rds' }];
const page = `PagerDuty event incident.triggered at ${at(START, 75)}.\nIncident: desk-api-5xx\nStatus: triggered`;
const failover = [60, 61, 62].map((minute) => ({ service: 'desk-api', timestamp: at(START, 73 + minute - 60), level: 'ERROR', message: 'POST /v1/checkins 500 Error: connect ECONNREFUSED 10.0.0.5:5432' }));

describe('work announced for a stated window', () => {
  it('reads a window stated in UTC, and no window without a time zone', () => {
    expect(announcedWindowOf('resize in the Sunday 02:00-02:30 UTC window')).toEqual({ from: 120, to: 150 });
    expect(announcedWindowOf('next maintenance window sun:02:00-sun:02:30 UTC')).toEqual({ from: 120, to: 150 });
    expect(announcedWindowOf('resize between 02:00 and 02:30')).toBeUndefined();
    expect(announcedWindowOf('partners upload between 02:45 and 03:30 UTC')).toEqual({ from: 165, to: 210 });
  });

  it('reads an AWS maintenance window, in UTC by definition, as holding on its own weekday only', () => {
    expect(announcedWindowOf('minor version upgrade in maintenance window sat:03:00-sat:03:30 (auto minor version upgrade)')).toEqual({ from: 180, to: 210, weekday: 6 });
    const upgrade = { service: 'desk-db', timestamp: '2026-06-06T03:00:40.000Z', at: Date.parse('2026-06-06T03:00:40.000Z'), ref: 'E3', kind: 'infrastructure', summary: 'minor version upgrade in maintenance window sat:03:00-sat:03:30' };
    // 2026-06-06 is a Saturday.
    expect(announcedWindowAround(upgrade, Date.parse('2026-06-06T03:20:00Z'), 60_000)).toBeDefined();
    expect(announcedWindowAround(upgrade, Date.parse('2026-06-06T04:05:00Z'), 60_000)).toBeUndefined();
    expect(announcedWindowAround(upgrade, Date.parse('2026-06-08T03:20:00Z'), 60_000)).toBeUndefined();
  });

  it('reads a dated start in UTC with the length it gives, else an hour, and no dated start without a time zone', () => {
    expect(announcedStretchOf('email to 412,306 members scheduled 2026-04-16 17:00 UTC. Expect 4-6x booking traffic for ~30 min')).toEqual({
      start: Date.parse('2026-04-16T17:00:00Z'),
      end: Date.parse('2026-04-16T17:30:00Z'),
    });
    expect(announcedStretchOf('reindex starts 2026-04-16T02:00Z')).toEqual({ start: Date.parse('2026-04-16T02:00:00Z'), end: Date.parse('2026-04-16T03:00:00Z') });
    expect(announcedStretchOf('reindex starts 2026-04-16 02:00, takes 2 hours')).toBeUndefined();
  });

  it('refusals an announced change says it will give, given from when it was made, are that change working; other refusals are not', () => {
    const refusals = (status: number, summary = 'client policy v12: min_supported_app_version 3.0.0 -> 4.0.0 (announced 15 Oct; legacy /v1 answers 426 with store links)') =>
      diagnose(
        boardFrom({
          brief: `CloudWatch alarm "desk-api-4xx" changed to ALARM from OK at ${at(START, 65)}.`,
          services: [{ name: 'desk-api', kind: 'apigateway', dependsOn: ['desk-fn'] }, { name: 'desk-fn', kind: 'lambda' }],
          alarms: [{ name: 'desk-api-4xx', service: 'desk-api', state: 'ALARM' as const, since: at(START, 65) }],
          changes: [{ service: 'desk-fn', timestamp: at(START, 60), kind: 'config', summary }],
          metrics: [{ service: 'desk-api', name: '4XXError', points: series(START, 100, step(60, 4, 150)) }],
          logs: [0, 1, 2, 3].map((index) => ({ service: 'desk-api', timestamp: at(START, 62 + index * 5), level: 'WARN', message: `GET /v1/rooms/${index}/tracks ${status} (User-Agent: DeskApp/3.9.2)` })),
        }),
      ).draft.incident;
    expect(refusals(426)).toBe(false);
    expect(refusals(403)).toBe(true);
    expect(refusals(426, 'client policy v12: min_supported_app_version 3.0.0 -> 4.0.0')).toBe(true);
  });

  it('a surge at a service inside a dated send announced the day before at the sender, naming the service, is that send', () => {
    const surge = (summary: string) =>
      diagnose(
        boardFrom({
          brief: `CloudWatch alarm "desk-api-latency" changed to ALARM from OK at ${at(START, 65)}.`,
          services: [...services, { name: 'mailer', kind: 'lambda' }],
          alarms: [{ name: 'desk-api-latency', service: 'desk-api', state: 'ALARM' as const, since: at(START, 65) }],
          changes: [{ service: 'mailer', timestamp: '2026-05-02T09:00:00.000Z', kind: 'other', summary }],
          metrics: [
            { service: 'desk-api', name: 'RequestCount', points: series(START, 100, step(60, 300, 1500)) },
            { service: 'desk-api', name: 'TargetResponseTime', points: series(START, 100, step(60, 0.2, 1.4)) },
          ],
        }),
      ).draft;
    const planned = surge('CHG-9 approved: check-in reminder email scheduled 2026-05-03 02:00 UTC, expect 5x desk-api traffic for 45 min');
    expect(planned.incident).toBe(false);
    expect(planned.rootCause.summary).toMatch(/announced beforehand/);
    expect(surge('CHG-9 approved: check-in reminder email scheduled 2026-05-03 05:00 UTC, expect 5x desk-api traffic for 45 min').incident).toBe(true);
    expect(surge('CHG-9 approved: check-in reminder email scheduled 2026-05-03 02:00 UTC, expect 5x traffic for 45 min').incident).toBe(true);
  });

  it('an alarm on free storage that announced work pushed past its threshold is that work while the level holds after it, not while it keeps falling', () => {
    const storage = (afterImport: (minute: number) => number, extra: { service: string; timestamp: string; level: string; message: string }[] = []) =>
      diagnose(
        boardFrom({
          brief: 'Scheduled health sweep.',
          services,
          alarms: [{ name: 'desk-db-free-storage-low', service: 'desk-db', state: 'ALARM' as const, since: at(START, 40) }],
          changes: [{ service: 'desk-db', timestamp: '2026-04-29T15:30:00.000Z', kind: 'other', summary: 'CHG-7 approved: one-off archive import into desk-db in the 01:00-02:00 UTC window, about 60 GiB' }],
          logs: extra,
          metrics: [{ service: 'desk-db', name: 'FreeStorageSpace', points: series(START, 300, (minute) => (minute < 10 ? 200e9 : minute < 50 ? 200e9 - (minute - 10) * 1.5e9 : afterImport(minute))) }],
        }),
      ).draft.incident;
    expect(storage(() => 140e9)).toBe(false);
    expect(storage((minute) => 140e9 - (minute - 50) * 0.3e9)).toBe(true);
    // One stray error line at the database does not make it fail; the same error again and again does.
    const stray = (minute: number) => ({ service: 'desk-db', timestamp: at(START, minute), level: 'ERROR', message: 'duplicate key value violates unique constraint "visits_uuid_key"' });
    expect(storage(() => 140e9, [stray(200)])).toBe(false);
    expect(storage(() => 140e9, [stray(200), stray(230)])).toBe(true);
  });

  it('a brief failure inside a maintenance window announced days before is that work, not an incident', () => {
    const announced = { service: 'desk-api', timestamp: '2026-04-29T15:30:00.000Z', kind: 'other', summary: 'CHG-1 approved: desk-db resize in the Sunday 02:00-02:30 UTC maintenance window, expect under 60 s of failed requests' };
    const diagnosis = diagnose(boardFrom({ brief: page, services, changes: [announced], logs: failover, metrics: [{ service: 'desk-api', name: 'RequestCount', points: series(START, 120, () => 300) }] }));
    expect(diagnosis.draft.incident).toBe(false);
    expect(diagnosis.draft.rootCause.summary).toMatch(/announced beforehand/);
  });

  it('the same failure outside the announced window is an incident', () => {
    const announced = { service: 'desk-api', timestamp: '2026-04-29T15:30:00.000Z', kind: 'other', summary: 'CHG-1 approved: desk-db resize in the Sunday 04:00-04:30 UTC maintenance window' };
    const diagnosis = diagnose(boardFrom({ brief: page, services, changes: [announced], logs: failover, metrics: [{ service: 'desk-api', name: 'RequestCount', points: series(START, 120, () => 300) }] }));
    expect(diagnosis.draft.incident).toBe(true);
  });

  it('requests blocked during a penetration test announced for that window are the test being refused; blocks without one are harm', () => {
    const evidence = {
      brief: `CloudWatch alarm "portal-waf-blocked" changed to ALARM from OK at ${at(START, 70)}.`,
      services: [{ name: 'portal-waf', kind: 'other' }, { name: 'portal', kind: 'ecs' }],
      alarms: [{ name: 'portal-waf-blocked', service: 'portal-waf', state: 'ALARM' as const, since: at(START, 70) }],
      metrics: [
        { service: 'portal-waf', name: 'BlockedRequests', points: series(START, 100, step(60, 6, 1200)) },
        { service: 'portal-waf', name: 'AllowedRequests', points: series(START, 100, () => 9000) },
      ],
    };
    const pentest = { service: 'portal-waf', timestamp: at(START, 50), kind: 'other', summary: 'UpdateIPSet pentest-sources (penetration test 01:55-05:00 UTC)' };
    expect(diagnose(boardFrom({ ...evidence, changes: [pentest] })).draft.incident).toBe(false);
    expect(diagnose(boardFrom(evidence)).draft.incident).toBe(true);
  });
});

describe('a person reporting a symptom', () => {
  it('"did not get" reports something that did not happen', () => {
    expect(reportsSymptom("MedSupply says they did not get last night's orders file. Did the export run?")).toBe(true);
    expect(reportsSymptom('Did the nightly export run?')).toBe(false);
  });
});
