import { describe, expect, it } from 'vitest';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { boardFrom, linesFrom, sorted } from './board-builder.ts';

const START = '2026-04-14T09:00:00.000Z';
const lines = linesFrom(START);

/** A quote service that calls two carriers and logs each partial answer with the carriers that answered and those that failed. */
const blamedBy = (message: string) =>
  collectSignals(
    boardFrom({
      services: [
        { name: 'quotes', kind: 'ecs', dependsOn: ['northwind', 'swiftship'] },
        { name: 'northwind', kind: 'external' },
        { name: 'swiftship', kind: 'external' },
      ],
      logs: sorted([...lines('quotes', 0, 3, 20, 'INFO', (index) => `quote ${index} served`), ...lines('quotes', 60, 2, 10, 'ERROR', () => message)]),
    }),
  )
    .filter((signal) => signal.kind === 'mentioned')
    .map((signal) => signal.service);

describe('an error that names what worked beside what failed', () => {
  it('is evidence against the dependency it names as failing only', () => {
    expect(new Set(blamedBy('quote partial carriers_ok=northwind carriers_failed=swiftship total_ms=4650'))).toEqual(new Set(['swiftship']));
    expect(new Set(blamedBy('quote partial succeeded=swiftship failed=northwind'))).toEqual(new Set(['northwind']));
  });

  it('names both when it says nothing of either working', () => {
    expect(new Set(blamedBy('quote failed: northwind and swiftship both timed out'))).toEqual(new Set(['northwind', 'swiftship']));
    expect(new Set(blamedBy('quote failed: webhook=northwind returned 500, swiftship timed out'))).toEqual(new Set(['northwind', 'swiftship']));
  });
});
