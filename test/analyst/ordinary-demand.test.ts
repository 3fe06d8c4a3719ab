import { describe, expect, it } from 'vitest';
import { clientToBlame } from '../../lib/analyst/load-source.ts';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { boardFrom, series } from './board-builder.ts';

const START = '2026-02-19T16:00:00.000Z';

/** Two senders on a shared mail quota that throttles both from minute 60; the login mailer's own requests rose by `loginRise`. */
const sharedQuota = (loginRise: number) => {
  const board = boardFrom({
    services: [
      { name: 'login-mailer', kind: 'ecs', dependsOn: ['mail-quota'] },
      { name: 'order-mailer', kind: 'ecs', dependsOn: ['mail-quota'] },
      { name: 'mail-quota', kind: 'other' },
    ],
    metrics: [
      { service: 'mail-quota', name: 'Send', periodSeconds: 60, points: series(START, 90, (minute) => (minute < 60 ? 900 : 8000)) },
      { service: 'login-mailer', name: 'CodesRequested', periodSeconds: 60, points: series(START, 90, (minute) => (minute < 59 ? 500 + (minute % 7) * 6 : 500 * (1 + loginRise))) },
    ],
  });
  const signals = collectSignals(board);
  const onsetOf = (service: string) => Math.min(...signals.filter((signal) => signal.service === service).map((signal) => signal.at));
  return clientToBlame(board, signals, 'mail-quota', onsetOf, ['login-mailer', 'order-mailer']);
};

describe("a client's demand as the load on a shared resource", () => {
  it('counts when it surged', () => {
    expect(sharedQuota(1.5)).toMatchObject({ service: 'login-mailer', principle: 'early-client-is-load' });
  });

  it('does not count when it rose by a few tens of percent: that is ordinary variation, not the load', () => {
    expect(sharedQuota(0.3)?.service).not.toBe('login-mailer');
  });
});
