import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-06-08T05:00:00.000Z';
const lines = linesFrom(START);

const charger = (retryLine: (index: number) => string) =>
  diagnose(
    boardFrom({
      brief: 'The nightly billing run is far behind. Is the card processor down?',
      services: [
        { name: 'billing-run', kind: 'ecs', dependsOn: ['billing-queue', 'cardco'] },
        { name: 'billing-queue', kind: 'sqs' },
        { name: 'cardco', kind: 'external' },
      ],
      changes: [{ service: 'billing-run', timestamp: at(START, -3 * 24 * 60), kind: 'deploy', summary: 'billing-run 7.2.0: new HTTP client with shared retry policy' }],
      metrics: [
        { service: 'billing-run', name: 'ChargesSucceeded', points: series(START, 120, step(60, 900, 300)) },
        { service: 'billing-queue', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, (minute) => (minute < 60 ? 50 : 50 + (minute - 60) * 400)) },
      ],
      logs: sorted([
        ...lines('billing-run', 0, 5, 12, 'INFO', (index) => `charged invoice ${index} status=200`),
        ...lines('billing-run', 61, 4, 14, 'ERROR', retryLine),
      ]),
    }),
  );

describe('a service that tries refused calls again at once keeps itself over the limit with its own retries', () => {
  it('five attempts inside half a second, refused 429: the retries are the cause: their release rolled back, the client slowed down', () => {
    const diagnosis = charger((index) => `charge ${index} deferred reason=rate_limited status=429 after 5 attempts in 310ms; returned to queue`);
    expect(diagnosis.root).toBe('billing-run');
    expect(diagnosis.inference.verdict === 'incident' && diagnosis.inference.mechanism?.label).toBe('retries');
    expect(diagnosis.principles).toContain('retries-amplify');
    expect(diagnosis.draft.remediation.map((item) => `${item.action} ${item.target}`)).toEqual(['rollback billing-run', 'limit-traffic billing-run']);
  });

  it('retries that wait seconds between attempts are no amplification', () => {
    const diagnosis = charger((index) => `charge ${index} deferred reason=rate_limited status=429 after 5 attempts in 31000ms; returned to queue`);
    expect(diagnosis.principles).not.toContain('retries-amplify');
  });
});

/**
 * A partner API two services call under one client id. The paged voucher service is refused
 * 429 from minute 60; the sync worker logs each refused call, `retryWait` after which it tries again.
 */
const sharedLimit = (retryWait: string) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "redeem-5xx" is in ALARM',
      services: [
        { name: 'redeem-api', kind: 'ecs', dependsOn: ['partner-points'] },
        { name: 'sync-worker', kind: 'ecs', dependsOn: ['sync-queue', 'partner-points'] },
        { name: 'sync-queue', kind: 'sqs' },
        { name: 'partner-points', kind: 'external' },
      ],
      alarms: [{ name: 'redeem-5xx', service: 'redeem-api', state: 'ALARM', since: at(START, 64) }],
      changes: [{ service: 'sync-worker', timestamp: at(START, -2 * 24 * 60), kind: 'deploy', summary: 'sync-worker 3.2.0: partner client moved to shared http defaults' }],
      metrics: [{ service: 'redeem-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, step(60, 0, 90)) }],
      logs: sorted([
        ...lines('sync-worker', 0, 5, 12, 'INFO', (index) => `ledger push ${index} accepted`),
        ...lines('sync-worker', 58, 2, 25, 'WARN', (index) => `ledger push ${index} refused: 429 Too Many Requests, try #${1 + (index % 9)}, ${retryWait}`),
        ...lines('redeem-api', 60, 2, 25, 'ERROR', (index) => `voucher ${index} not issued: partner-points answered 429 (rate limited)`),
      ]),
    }),
  );

describe('a limit several callers share is kept exceeded by the one that retries what it refuses at once', () => {
  it('the caller retrying at once is the cause, not the provider that refuses, nor the caller paged for it', () => {
    const diagnosis = sharedLimit('next retry in 0ms');
    expect(diagnosis.root).toBe('sync-worker');
    expect(diagnosis.principles).toContain('retries-amplify');
  });

  it('a caller that waits before trying again is not singled out', () => {
    const diagnosis = sharedLimit('next retry in 4000ms');
    expect(diagnosis.root).not.toBe('sync-worker');
    expect(diagnosis.principles).not.toContain('retries-amplify');
  });
});
