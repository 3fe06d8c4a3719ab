import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, pointsBetween, series, sorted } from './board-builder.ts';

const START = '2026-05-03T04:00:00.000Z';
const lines = linesFrom(START);

/**
 * A sweep two hours long. A dead-letter queue's alarm has been in ALARM since `firedAt` (minutes from
 * the start; negative is before it), and its visible messages read `visible(minute)` every 15 minutes.
 */
const sweep = (firedAt: number, visible: (minute: number) => number, name = 'ApproximateNumberOfMessagesVisible') =>
  diagnose(
    boardFrom({
      services: [
        { name: 'sender', kind: 'lambda', dependsOn: ['sender-dlq'] },
        { name: 'sender-dlq', kind: 'sqs' },
      ],
      alarms: [{ name: 'sender-dlq-not-empty', service: 'sender-dlq', state: 'ALARM', since: at(START, firedAt) }],
      metrics: [
        { service: 'sender', name: 'Invocations', points: series(START, 120, () => 120) },
        { service: 'sender-dlq', name, periodSeconds: 300, points: pointsBetween(START, 0, 120, 15, visible) },
      ],
      logs: sorted(lines('sender', 0, 3, 40, 'INFO', (index) => `batch done sent=10 failed=0 batch=${index}`)),
    }),
  );

describe('an alarm in ALARM since well before the readings of what it watches', () => {
  it('is a standing condition when that measure held one level on every reading', () => {
    expect(sweep(-360, () => 2).incident).toBe(false);
  });

  it('is not when the measure moved during the readings', () => {
    expect(sweep(-360, (minute) => 2 + Math.floor(minute / 30)).incident).toBe(true);
  });

  it('is not when it fired only as the readings began', () => {
    expect(sweep(-20, () => 2).incident).toBe(true);
  });

  it('is not when the measure is what is left of a resource, held at nothing', () => {
    expect(sweep(-360, () => 0, 'FreeStorageSpace').incident).toBe(true);
  });
});
