import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { driftStartOf } from '../../lib/analysis/trend.ts';

const MINUTE = 60_000;
const at = (minute: number) => Date.UTC(2026, 4, 19, 6) + minute * MINUTE;

describe('where a steady drift began', () => {
  it('is where a level gives way to a line', () => {
    // Free space steady at 44.6 GB with small noise, then falling 93 MB a minute from minute 125.
    const points = Array.from({ length: 120 }, (_, index) => {
      const minute = index * 5;
      return { t: at(minute), v: 44.6e9 + (index % 3) * 1e7 - (minute >= 125 ? (minute - 125) * 93e6 : 0) };
    });
    expect(driftStartOf(points)).toBe(at(125));
  });

  it('is none when the series was drifting from its first point', () => {
    expect(driftStartOf(Array.from({ length: 40 }, (_, index) => ({ t: at(index * 5), v: 100 - index })))).toBeUndefined();
  });

  it('lands within a step of the true start for any level, start and slope', () => {
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 60 }), fc.double({ min: -1e3, max: 1e3, noNaN: true }), fc.double({ min: 0.5, max: 50, noNaN: true }), fc.boolean(), (start, level, slope, falling) => {
        const points = Array.from({ length: 80 }, (_, index) => ({ t: at(index), v: level + (index >= start ? (falling ? -1 : 1) * slope * (index - start) : 0) }));
        const found = driftStartOf(points);
        expect(found).toBeDefined();
        expect(Math.abs(found! - at(start))).toBeLessThanOrEqual(MINUTE);
      }),
    );
  });
});
