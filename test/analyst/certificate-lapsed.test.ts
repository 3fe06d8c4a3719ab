import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { boardFrom, pointsBetween, series, step } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

/** An origin balancer refusing TLS handshakes since minute 60, with ACM's days-to-expiry read once a day for four days. */
const handshakesRefused = (daysToExpiry: number[]) =>
  diagnose(
    boardFrom({
      services: [
        { name: 'api-cdn', kind: 'cloudfront', dependsOn: ['origin-alb'] },
        { name: 'origin-alb', kind: 'elb', dependsOn: ['tides-api'] },
        { name: 'tides-api', kind: 'ecs' },
      ],
      metrics: [
        { service: 'origin-alb', name: 'ClientTLSNegotiationErrorCount', points: series(START, 120, step(60, 0, 900)) },
        { service: 'api-cdn', name: '5xxErrorRate', points: series(START, 120, step(60, 0, 95)) },
        { service: 'origin-alb', name: 'DaysToExpiry', periodSeconds: 86_400, points: pointsBetween('2026-04-27T00:00:00.000Z', 0, 4 * 1440, 1440, (minute) => daysToExpiry[minute / 1440]!) },
      ],
    }),
  );

describe('a days-to-expiry measure that reached zero says the certificate lapsed', () => {
  it('names an expired certificate when DaysToExpiry read zero', () => {
    const diagnosis = handshakesRefused([3, 2, 1, 0]);
    expect(diagnosis.root).toBe('origin-alb');
    expect(diagnosis.draft.rootCause.summary).toMatch(/An expired TLS certificate at origin-alb/);
  });

  it('says only that handshakes fail while the certificate still has days left', () => {
    const diagnosis = handshakesRefused([40, 39, 38, 37]);
    expect(diagnosis.root).toBe('origin-alb');
    expect(diagnosis.draft.rootCause.summary).not.toMatch(/expired/);
    expect(diagnosis.draft.rootCause.summary).toMatch(/TLS handshakes with origin-alb fail on its certificate/);
  });
});
