import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alertsOf, reportsSymptom } from '../../lib/analyst/alerts.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { boardFrom, series } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const services = [{ name: 'web', kind: 'ecs', dependsOn: ['api'] }, { name: 'api', kind: 'ecs', dependsOn: ['db'] }, { name: 'db', kind: 'rds' }];
const quiet = [
  { service: 'api', name: 'CPUUtilization', points: series(START, 120, (minute) => 25 + (minute % 3)) },
  { service: 'api', name: 'RequestCount', points: series(START, 120, (minute) => 900 + (minute % 7) * 10) },
];

describe('what must be explained before "no incident"', () => {
  it('a person reporting a failure, a missing outcome, a wrong value or slowness reports a symptom', () => {
    expect(reportsSymptom('Guests cannot complete bookings since 09:50. Is the database overloaded?')).toBe(true);
    expect(reportsSymptom("Users aren't getting their verification codes this morning.")).toBe(true);
    expect(reportsSymptom('Customers never got a confirmation email. What is going on?')).toBe(true);
    expect(reportsSymptom("Yesterday's revenue is 18% higher than the payout report.")).toBe(true);
    expect(reportsSymptom('Why are the exports so slow?')).toBe(true);
    expect(reportsSymptom('Why was reporting-db CPU so high around 02:00 UTC last night?')).toBe(true);
    expect(reportsSymptom('The report says March 3 revenue was €812k. March 4 is about €19k below the bank statement.')).toBe(true);
    expect(reportsSymptom('Both used to agree. Could you find out why the weekly counts are off?')).toBe(true);
    expect(reportsSymptom('Why is free storage on catalog-db dropping since Tuesday?')).toBe(true);
    expect(reportsSymptom('The disk on the build host keeps filling up. What is writing to it?')).toBe(true);
  });

  it('a question that only asks whether something is fine reports nothing', () => {
    expect(reportsSymptom('Traffic is 4x normal since 14:00 and latency is up a bit. Are we under attack or is something wrong?')).toBe(false);
    expect(reportsSymptom('We shipped 7.3.0 and p99 went from 410 ms to 470 ms. Is the release making search slower? Do we need to roll back?')).toBe(false);
    expect(reportsSymptom('Is anything broken on checkout right now?')).toBe(false);
    expect(reportsSymptom('Is CPU too high on the reporting database?')).toBe(false);
    expect(reportsSymptom('Latency stayed below 200 ms all day. Can you check whether the nightly job ran?')).toBe(false);
    expect(reportsSymptom('Is free storage on catalog-db dropping?')).toBe(false);
  });

  it('the alarm that fired, an open page and a reported symptom are alerts; a sweep is not', () => {
    const alarm = alertsOf(boardFrom({ brief: 'CloudWatch alarm "api-5xx" changed to ALARM from OK at 2026-05-01T11:40:00Z in account 1, region r.' }), 'api');
    expect(alarm).toEqual([{ source: 'alarm', name: 'alarm api-5xx', service: 'api', since: Date.parse('2026-05-01T11:40:00Z') }]);
    const page = alertsOf(boardFrom({ brief: 'PagerDuty event incident.triggered at 2026-05-01T11:40:00Z.\nIncident: api p99 above 2s\nStatus: triggered' }), 'api');
    expect(page.map((alert) => [alert.source, alert.name])).toEqual([['page', 'PagerDuty incident "api p99 above 2s"']]);
    const resolved = alertsOf(boardFrom({ brief: 'PagerDuty event incident.resolved at 2026-05-01T11:40:00Z.\nStatus: resolved' }), 'api');
    expect(resolved).toEqual([]);
    expect(alertsOf(boardFrom({ brief: 'Scheduled health sweep: no alert fired.' }), undefined)).toEqual([]);
  });

  it('the alarm that fired carries a recovery only when it went back to OK after it fired', () => {
    const brief = 'CloudWatch alarm "api-5xx" changed to ALARM from OK at 2026-05-01T11:40:00Z in account 1, region r.';
    const listedOk = (since: string | undefined) => alertsOf(boardFrom({ brief, alarms: [{ name: 'api-5xx', service: 'api', state: 'OK', ...(since ? { since } : {}) }] }), 'api')[0];
    expect(listedOk('2026-05-01T11:52:00Z')).toMatchObject({ since: Date.parse('2026-05-01T11:40:00Z'), recoveredAt: Date.parse('2026-05-01T11:52:00Z') });
    // An OK listed from before the ALARM is the state the alarm left, not a recovery; one of unknown time proves nothing.
    expect(listedOk('2026-05-01T11:10:00Z')).not.toHaveProperty('recoveredAt');
    expect(listedOk('2026-05-01T11:40:00Z')).not.toHaveProperty('recoveredAt');
    expect(listedOk(undefined)).not.toHaveProperty('recoveredAt');
    const insufficient = alertsOf(boardFrom({ brief, alarms: [{ name: 'api-5xx', service: 'api', state: 'INSUFFICIENT_DATA', since: '2026-05-01T11:52:00Z' }] }), 'api')[0];
    expect(insufficient).not.toHaveProperty('recoveredAt');
  });
});

describe('an alert nothing explains is an incident, cause undetermined', () => {
  it('an open page with no fault in the evidence is escalated, naming the page and what was checked', () => {
    const diagnosis = diagnose(boardFrom({ brief: 'PagerDuty event incident.triggered at 2026-05-01T11:50:00Z.\nIncident: api checkout failures\nStatus: triggered', services, metrics: quiet }));
    expect(diagnosis.draft.incident).toBe(true);
    expect(diagnosis.draft.rootCause.summary).toMatch(/Cause undetermined/);
    expect(diagnosis.draft.rootCause.summary).toMatch(/PagerDuty incident "api checkout failures"/);
    expect(diagnosis.draft.rootCause.summary).toMatch(/Checked: .*metric series/);
    expect(diagnosis.draft.remediation.map((step) => step.action)).toEqual(['escalate']);
  });

  it('a reported symptom with no fault in the evidence is not called healthy', () => {
    const diagnosis = diagnose(boardFrom({ brief: 'A teammate asks: "Customers say invoices never arrive since this morning."', services, metrics: quiet }));
    expect(diagnosis.draft.incident).toBe(true);
    expect(diagnosis.draft.remediation.map((step) => step.action)).toContain('escalate');
  });

  it('the same quiet evidence behind a question that only asks is healthy', () => {
    const diagnosis = diagnose(boardFrom({ brief: 'A teammate asks: "Is api fine after the weekend?"', services, metrics: quiet }));
    expect(diagnosis.draft.incident).toBe(false);
  });

  it('a fired alarm absent from the listing is explained when what it watches spiked and came back', () => {
    const spike = [{ service: 'api', name: 'TargetResponseTime', points: series(START, 120, (minute) => (minute >= 100 && minute < 104 ? 3 : 0.2 + (minute % 4) * 0.01)) }];
    const diagnosis = diagnose(boardFrom({ brief: 'CloudWatch alarm "api-latency" changed to ALARM from OK at 2026-05-01T11:41:00Z in account 1, region r.', services, metrics: [...quiet, ...spike] }));
    expect(diagnosis.draft.incident).toBe(false);
    expect(diagnosis.draft.rootCause.summary).toMatch(/Alarm api-latency is explained: it recovered/);
  });
});

describe('an open page or a reported symptom is never answered "no incident" on quiet evidence alone', () => {
  it('whatever the quiet metrics and the wording of the alert, the finding is an incident with an escalation', () => {
    fc.assert(
      fc.property(
        fc.record({
          trigger: fc.oneof(
            fc.constantFrom('checkout failures above threshold', 'p99 latency above 2s', 'queue age high').map((title) => `PagerDuty event incident.triggered at 2026-05-01T11:50:00Z.\nIncident: ${title}\nStatus: triggered`),
            fc.constantFrom('Customers cannot log in since 11:30.', 'Exports have been failing all morning.', 'Why are confirmation emails missing?').map((text) => `A teammate asks: "${text}"`),
          ),
          level: fc.integer({ min: 1, max: 1000 }),
          noise: fc.integer({ min: 0, max: 5 }),
        }),
        ({ trigger, level, noise }) => {
          const metrics = [{ service: 'api', name: 'RequestCount', points: series(START, 120, (minute) => level + (minute % (noise + 1))) }];
          const diagnosis = diagnose(boardFrom({ brief: trigger, services, metrics }));
          expect(diagnosis.draft.incident).toBe(true);
          expect(diagnosis.draft.remediation.map((step) => step.action)).toContain('escalate');
        },
      ),
      { numRuns: 100 },
    );
  });
});
