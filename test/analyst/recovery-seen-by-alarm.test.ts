import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, type SyntheticEvidence } from './board-builder.ts';

const START = '2026-05-03T04:00:00.000Z';
const lines = linesFrom(START);

/**
 * A reminder sender calls an SMS provider; the provider failed from minute 100 to 110 and the
 * sender's failure alarm paged at minute 103. The evidence runs to minute 130. `okAt` is when the
 * alarm went back to OK (undefined: still in ALARM), `errorsUntil` when the sender's errors stop.
 */
const blip = ({ okAt, errorsUntil = 111, paged = true }: { okAt?: number; errorsUntil?: number; paged?: boolean }): SyntheticEvidence => ({
  brief: paged
    ? `PagerDuty event incident.triggered at ${at(START, 103)}.\nIncident: ALARM: "sender-sms-errors" in Asia Pacific (Sydney)\nStatus: triggered`
    : 'Scheduled health sweep',
  services: [
    { name: 'sender', kind: 'lambda', dependsOn: ['sms-provider'] },
    { name: 'sms-provider', kind: 'external' },
  ],
  alarms: [{ name: 'sender-sms-errors', service: 'sender', state: okAt === undefined ? 'ALARM' : 'OK', since: at(START, okAt ?? 103) }],
  metrics: [{ service: 'sender', name: 'Invocations', points: series(START, 130, () => 120) }],
  logs: sorted([
    ...lines('sender', 0, 4, 33, 'INFO', (index) => `batch done sent=10 failed=0 batch=${index}`),
    ...lines('sender', 100, 1, errorsUntil - 100, 'ERROR', () => 'sms-provider POST /Messages.json failed: 503 Service Unavailable'),
  ]),
});

describe('an alarm that saw a burst of errors end', () => {
  it('closes the page that relayed it once it has stayed OK a while, with nothing failing since', () => {
    expect(diagnose(boardFrom(blip({ okAt: 112 }))).incident).toBe(false);
  });

  it('does not close it while it is still in ALARM, or OK for only minutes', () => {
    expect(diagnose(boardFrom(blip({}))).incident).toBe(true);
    expect(diagnose(boardFrom(blip({ okAt: 122 }))).incident).toBe(true);
  });

  it('does not close it when the errors went on after the OK', () => {
    expect(diagnose(boardFrom(blip({ okAt: 112, errorsUntil: 122 }))).incident).toBe(true);
  });

  it('in a sweep, makes a burst its alarm saw end trouble that has passed', () => {
    expect(diagnose(boardFrom(blip({ okAt: 112, paged: false }))).incident).toBe(false);
    // Without its alarm's word, a burst that stopped less than half an hour before the end is still trouble.
    const unwatched = blip({ okAt: 112, paged: false });
    expect(diagnose(boardFrom({ ...unwatched, alarms: [] })).incident).toBe(true);
  });
});
