import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-03-03T14:00:00.000Z';
const lines = linesFrom(START);

/** A notifier whose SMS calls to a provider fail from minute 60; the map names the provider `telvio-sms`, its caller's lines say "telvio". */
const notifier = ({ providerName = 'telvio-sms', said = 'telvio' }: { providerName?: string; said?: string } = {}) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "notify-outbound-age" changed to ALARM at 2026-03-03T15:10:00Z.',
      services: [
        { name: 'portal', kind: 'ecs', dependsOn: ['notifier'] },
        { name: 'notify-queue', kind: 'sqs' },
        { name: 'notifier', kind: 'ecs', dependsOn: ['notify-queue', providerName, 'mailer'] },
        { name: providerName, kind: 'external' },
        { name: 'mailer', kind: 'other' },
      ],
      alarms: [{ name: 'notify-outbound-age', service: 'notify-queue', state: 'ALARM', since: '2026-03-03T15:10:00Z' }],
      metrics: [{ service: 'notify-queue', name: 'ApproximateAgeOfOldestMessage', points: series(START, 100, step(61, 4, 900)) }],
      logs: sorted([
        ...lines('notifier', 0, 2, 30, 'INFO', (index) => `sms sent provider=${said} id=m${index} latencyMs=210`),
        ...lines('notifier', 60, 1, 30, 'WARN', (index) => `${said} POST /v1/messages -> 503 Service Unavailable attempt=${(index % 3) + 1}/3`),
        ...lines('notifier', 61, 2, 15, 'ERROR', () => `send failed after 3 attempts lastError="${said} 503 Service Unavailable"`),
        ...lines('portal', 62, 3, 8, 'ERROR', () => `POST /api/otp 502: notifier send-now failed: ${said} 503 Service Unavailable`),
      ]),
    }),
  );

describe('a third party named by its brand', () => {
  it('is the dependency its caller’s errors name, though the map adds a suffix to its name', () => {
    const diagnosis = notifier();
    expect(diagnosis.root).toBe('telvio-sms');
    expect(diagnosis.draft.rootCause.category).toBe('external');
  });

  it('a word the caller uses inside a compound (a thread, a package) does not name it', () => {
    const diagnosis = notifier({ said: 'io.telvio-pool' });
    expect(diagnosis.root).not.toBe('telvio-sms');
  });

  it('a first word that another service’s name shares names neither', () => {
    const diagnosis = notifier({ providerName: 'notify-sms', said: 'notify' });
    expect(diagnosis.root).not.toBe('notify-sms');
  });
});
