import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, type SyntheticEvidence } from './board-builder.ts';

const START = '2026-10-14T19:00:00.000Z';
const lines = linesFrom(START);

/**
 * A surge from minute 60 at quotes, whose tasks scale on CPU between 6 and its maximum. `scaling`
 * is what its scaler recorded; the evidence runs to minute 120.
 */
const surge = (scaling: SyntheticEvidence['changes']) =>
  diagnose(
    boardFrom({
      brief: `CloudWatch alarm "quotes-5xx" changed to ALARM at ${at(START, 64)}.`,
      services: [
        { name: 'web', kind: 'ecs', dependsOn: ['quotes'] },
        { name: 'quotes', kind: 'ecs' },
      ],
      alarms: [{ name: 'quotes-5xx', service: 'quotes', state: 'ALARM', since: at(START, 64) }],
      changes: scaling,
      metrics: [
        { service: 'quotes', name: 'RequestCount', points: series(START, 120, (minute) => (minute < 60 ? 2000 : 12000)) },
        { service: 'quotes', name: 'CPUUtilization', points: series(START, 120, (minute) => (minute < 60 ? 36 + (minute % 4) : 97 + (minute % 3))) },
        { service: 'quotes', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, (minute) => (minute < 60 ? 1 : 1500)) },
      ],
      logs: sorted([
        ...lines('quotes', 0, 2, 60, 'INFO', (index) => `request completed method=POST url=/v1/quotes statusCode=200 responseTime=${120 + (index % 40)}ms`),
        ...lines('quotes', 61, 2, 25, 'ERROR', () => 'request completed method=POST url=/v1/quotes statusCode=503 responseTime=2ms err="Service Unavailable"'),
      ]),
    }),
  );

const scaledTo = (minute: number, from: number, to: number) => ({ service: 'quotes', timestamp: at(START, minute), kind: 'scaling', summary: `Application Auto Scaling: desired count ${from} -> ${to} (target tracking, CPU 60)` });
const refusedAtMaximum = (minute: number) => ({
  service: 'quotes',
  timestamp: at(START, minute),
  kind: 'scaling',
  summary: 'Application Auto Scaling scaling activity Failed: Attempting to scale due to alarm triggered',
  details: { StatusCode: 'Failed', NotScaledReasons: [{ Code: 'AlreadyAtMaxCapacity', MaxCapacity: 12, CurrentCapacity: 12 }] },
});
const registered = { service: 'quotes', timestamp: at(START, -30_000), kind: 'scaling', summary: 'RegisterScalableTarget service/prod/quotes MinCapacity=6 MaxCapacity=12' };

describe('a service whose scaling reached its maximum', () => {
  it('is held there: the summary names the maximum, and the plan raises it', () => {
    for (const records of [[scaledTo(62, 6, 10), scaledTo(65, 10, 12), refusedAtMaximum(68)], [registered, scaledTo(62, 6, 10), scaledTo(65, 10, 12)]]) {
      const diagnosis = surge(records);
      expect(diagnosis.root).toBe('quotes');
      expect(diagnosis.draft.rootCause.summary).toMatch(/maximum capacity of its scaling \(MaxCapacity 12\)/);
      expect(diagnosis.draft.remediation[0]?.detail).toMatch(/Raise quotes's maximum capacity above 12/);
    }
  });

  it('is not, while its scaling can still add capacity', () => {
    const diagnosis = surge([registered, scaledTo(62, 6, 9)]);
    expect(diagnosis.draft.rootCause.summary).not.toMatch(/MaxCapacity/);
  });

  it('is read as a cut, not a ceiling reached, when the maximum was just lowered', () => {
    const lowered = { service: 'quotes', timestamp: at(START, 30), kind: 'scaling', summary: 'RegisterScalableTarget service/prod/quotes MaxCapacity 40 -> 12' };
    const diagnosis = surge([lowered, scaledTo(62, 6, 10), scaledTo(65, 10, 12)]);
    expect(diagnosis.draft.rootCause.category).toBe('config');
    expect(diagnosis.draft.rootCause.summary).not.toMatch(/the most its scaling allows/);
  });
});
