import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const lines = linesFrom(START);

/** A sweep over two unrelated troubles: a search API turning away malformed queries since minute 30, a checkout failing since minute 50. */
const sweep = (checkoutError: string, searchRefusal: string, stray5xx = false) =>
  diagnose(
    boardFrom({
      services: [
        { name: 'storefront', kind: 'ecs', dependsOn: ['search-api', 'checkout'] },
        { name: 'search-api', kind: 'ecs' },
        { name: 'checkout', kind: 'ecs', dependsOn: ['orders-db'] },
        { name: 'orders-db', kind: 'rds' },
      ],
      metrics: [
        { service: 'search-api', name: 'HTTPCode_Target_4XX_Count', points: series(START, 120, step(30, 10, 300)) },
        { service: 'checkout', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, step(50, 0, 40)) },
        // A 5xx now and then, as any service answers: not what the search API is doing.
        ...(stray5xx ? [{ service: 'search-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, (minute) => ([1, 37, 70, 82, 97, 104, 119].includes(minute) ? 1 : 0)) }] : []),
      ],
      logs: sorted([
        ...lines('search-api', 0, 5, 24, 'INFO', (index) => `query served q=${index}`),
        ...lines('search-api', 31, 3, 25, 'WARN', () => searchRefusal),
        ...lines('checkout', 0, 5, 24, 'INFO', (index) => `order ${index} placed`),
        ...lines('checkout', 51, 3, 20, 'ERROR', () => checkoutError),
      ]),
    }),
  );

describe('with no alert to start from, a service failing requests comes before an unrelated one that only turns away what its callers sent', () => {
  it('a checkout crashing on its own fault is followed before a search API refusing malformed queries earlier', () => {
    const diagnosis = sweep('render failed: TypeError: cannot read properties of undefined (reading "total")', 'rejecting query 400: malformed filter expression');
    expect(diagnosis.root).toBe('checkout');
    expect(diagnosis.principles).toContain('failures-before-refusals');
    // The search API's refusals are no consequence of the checkout: the finding says they stand apart.
    expect(diagnosis.draft.rootCause.summary).toMatch(/Separately, search-api \(from [^)]*\) is in trouble with no calls to or from checkout/);
    expect(diagnosis.draft.rootCause.summary).not.toMatch(/search-api[^.]*failed as a consequence/);
  });

  it('refusing legitimate callers (401) is harm of its own: the earlier trouble keeps its place', () => {
    const diagnosis = sweep('render failed: TypeError: cannot read properties of undefined (reading "total")', 'rejecting query 401: unauthorized');
    expect(diagnosis.root).toBe('search-api');
    expect(diagnosis.principles).not.toContain('failures-before-refusals');
  });

  it('a stray 5xx beside the refusals does not make the refusing service a failing one', () => {
    const diagnosis = sweep('render failed: TypeError: cannot read properties of undefined (reading "total")', 'rejecting query 400: malformed filter expression', true);
    expect(diagnosis.signals.some((signal) => signal.service === 'search-api' && /5XX/.test(signal.text))).toBe(true);
    expect(diagnosis.root).toBe('checkout');
  });
});
