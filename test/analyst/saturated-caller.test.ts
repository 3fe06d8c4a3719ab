import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-10-14T19:00:00.000Z';
const lines = linesFrom(START);

/**
 * A surge at minute 60 pins quotes' CPU; quotes rejects requests under pressure and times out on its
 * calls to pricing. `pricingLatency(minute)` is pricing's own response time, as its balancer measures
 * it; `lookupWarnings` adds a few rate-limit warnings from quotes about a third-party lookup.
 */
const surge = ({ pricingLatency, lookupWarnings = false }: { pricingLatency?: (minute: number) => number; lookupWarnings?: boolean }) =>
  diagnose(
    boardFrom({
      brief: `CloudWatch alarm "quotes-5xx" changed to ALARM at ${at(START, 64)}.`,
      services: [
        { name: 'web', kind: 'ecs', dependsOn: ['quotes'] },
        { name: 'quotes', kind: 'ecs', dependsOn: ['pricing', 'vehicle-lookup'] },
        { name: 'pricing', kind: 'ecs' },
        { name: 'vehicle-lookup', kind: 'external' },
      ],
      alarms: [{ name: 'quotes-5xx', service: 'quotes', state: 'ALARM', since: at(START, 64) }],
      metrics: [
        { service: 'quotes', name: 'RequestCount', points: series(START, 120, (minute) => (minute < 60 ? 2000 : 12000)) },
        { service: 'quotes', name: 'CPUUtilization', points: series(START, 120, (minute) => (minute < 60 ? 36 + (minute % 4) : 97 + (minute % 3))) },
        { service: 'quotes', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, (minute) => (minute < 60 ? 1 : 1500)) },
        ...(pricingLatency ? [{ service: 'pricing', name: 'TargetResponseTime', points: series(START, 120, pricingLatency) }] : []),
        { service: 'pricing', name: 'CPUUtilization', points: series(START, 120, (minute) => (minute < 60 ? 11 : 30)) },
      ],
      logs: sorted([
        ...lines('quotes', 0, 2, 60, 'INFO', (index) => `request completed method=POST url=/v1/quotes statusCode=200 responseTime=${120 + (index % 40)}ms`),
        ...lines('quotes', 61, 1, 40, 'WARN', () => 'under-pressure: event loop delay 1840ms exceeds maxEventLoopDelay=1000ms, rejecting request with 503'),
        ...lines('quotes', 61, 2, 20, 'ERROR', () => 'request completed method=POST url=/v1/quotes statusCode=503 responseTime=2ms err="Service Unavailable"'),
        ...lines('quotes', 62, 3, 12, 'ERROR', () => 'pricing request aborted: TimeoutError: The operation was aborted due to timeout (2500ms)'),
        ...(lookupWarnings ? lines('quotes', 70, 15, 3, 'WARN', () => 'vehicle-lookup responded 429 Too Many Requests (retry-after: 1); retrying once') : []),
        ...lines('pricing', 0, 2, 60, 'INFO', (index) => `POST /v2/price 200 ${30 + (index % 20)}ms`),
      ]),
    }),
  );

const flat = (minute: number) => 0.04 + (minute % 5) * 0.002;

describe('a caller pinned at its own CPU', () => {
  it('times out on a callee that answers in its usual time: the trouble is its own', () => {
    expect(surge({ pricingLatency: flat }).root).toBe('quotes');
  });

  it('does not hand the chain to a provider it warns about a few times', () => {
    expect(surge({ pricingLatency: flat, lookupWarnings: true }).root).toBe('quotes');
  });

  it('still points at a callee whose own response time rose with the timeouts', () => {
    expect(surge({ pricingLatency: (minute) => (minute < 60 ? flat(minute) : 3.2) }).root).toBe('pricing');
  });

  it('still points at a callee whose own response time was not read: nothing shows it answered in time', () => {
    expect(surge({}).root).toBe('pricing');
  });
});
