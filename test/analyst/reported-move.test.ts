import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, pointsBetween } from './board-builder.ts';

const TODAY = '2026-12-01T00:00:00.000Z';
const DAY = 24 * 60;
/** Sign-ups per 15 minutes: a morning trough from 06:00 to 10:00 UTC every day, `trough` deep. */
const signupsAt = (minuteOfDay: number, trough: number) => (minuteOfDay >= 360 && minuteOfDay < 600 ? trough : 120);

const points = (from: number, to: number, every: number, value: (minute: number) => number) => pointsBetween(TODAY, from, to, every, value);

interface Question {
  text: string;
  /** Today's trough (earlier days: 30 a quarter hour). */
  today?: number;
}

/** A question at 09:30 about the time since 06:00; three days of sign-ups; the balancer's 4xx count read only today beside them. */
const asked = ({ text, today = 30 }: Question) =>
  boardFrom({
    brief: `Question: ${text}\nA teammate asks: "${text}"\nThey are asking about the service onboarding-api.\nThey are asking about the time since ${at(TODAY, 360)}.`,
    services: [{ name: 'onboarding-api', kind: 'ecs' }],
    metrics: [
      { service: 'onboarding-api', name: 'SignupsStarted', namespace: 'Budgetly/Onboarding', stat: 'Sum', periodSeconds: 900, points: points(-3 * DAY, 570, 15, (minute) => signupsAt(((minute % DAY) + DAY) % DAY, minute >= 0 ? today : 30)) },
      { service: 'onboarding-api', name: 'HTTPCode_Target_4XX_Count', namespace: 'AWS/ApplicationELB', stat: 'Sum', periodSeconds: 300, points: points(300, 570, 5, () => 48) },
      { service: 'onboarding-api', name: 'RequestCount', namespace: 'AWS/ApplicationELB', stat: 'Sum', periodSeconds: 300, points: points(300, 570, 5, () => 1100) },
    ],
  });

describe('a move a person reports in a measure it names', () => {
  it('is the usual shape of the day when the measure moved that way at that time on earlier days too', () => {
    const { draft } = diagnose(asked({ text: 'Sign-ups look way down since this morning. Did the release break the sign-up flow?' }));
    expect(draft.incident).toBe(false);
    expect(draft.rootCause.summary).toMatch(/SignupsStarted at onboarding-api fell the same way at about the same time a day earlier/);
  });

  it('stays unexplained when today fell further than earlier days, or when the report names no measure or no direction', () => {
    expect(diagnose(asked({ text: 'Sign-ups look way down since this morning.', today: 3 })).draft.incident).toBe(true);
    expect(diagnose(asked({ text: 'Checkout looks way down since this morning.' })).draft.incident).toBe(true);
    expect(diagnose(asked({ text: 'Sign-ups are broken since this morning.' })).draft.incident).toBe(true);
  });
});

describe('an event count read only where its own namespace was read', () => {
  it('has no zeros read into the time before its namespace was read, however far back an application metric goes', () => {
    const { draft } = diagnose(asked({ text: 'Sign-ups look way down since this morning.' }));
    expect(draft.rootCause.summary).not.toMatch(/HTTPCode_Target_4XX_Count at onboarding-api went up/);
  });
});

/** CPU of a reporting database: a 02:00 batch raises it to 85% for half an hour every night, `tonight` high last night. */
const cpuAt = (minuteOfDay: number, tonight: number, night: number) => (minuteOfDay >= 120 && minuteOfDay < 150 ? (night === 0 ? tonight : 85) : 7);

/** A question at 09:30 without a time: "why was CPU so high last night?"; four days of CPU, read per 5 minutes. */
const askedWithoutTime = ({ text, tonight = 85 }: { text: string; tonight?: number }) =>
  boardFrom({
    brief: `Question: ${text}\nA teammate asks: "${text}"\nThey are asking about the service reporting-db.`,
    services: [{ name: 'reporting-db', kind: 'rds' }],
    metrics: [
      {
        service: 'reporting-db',
        name: 'CPUUtilization',
        namespace: 'AWS/RDS',
        stat: 'Average',
        periodSeconds: 300,
        points: points(-3 * DAY, 570, 5, (minute) => cpuAt(((minute % DAY) + DAY) % DAY, tonight, Math.floor(minute / DAY))),
      },
    ],
  });

describe('a measure a person calls high without saying when', () => {
  it('is read at its highest over the last day: the usual shape of the night when earlier nights rose the same way', () => {
    const { draft } = diagnose(askedWithoutTime({ text: 'Why was reporting-db CPU so high around 02:00 last night? Is something wrong?' }));
    expect(draft.incident).toBe(false);
    expect(draft.rootCause.summary).toMatch(/CPUUtilization at reporting-db rose the same way at about the same time a day earlier/);
  });

  it('is not the usual shape when last night rose well beyond the nights before', () => {
    const { draft } = diagnose(askedWithoutTime({ text: 'Why was reporting-db CPU so high around 02:00 last night?', tonight: 99 }));
    expect(draft.rootCause.summary).not.toMatch(/rose the same way/);
  });
});
