import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectOnset, detectTransientSpike, type Point } from '../../lib/analysis/onset.ts';
import { seededRandom } from '../../lib/random/seeded-random.ts';

const PERIOD = 60_000;
const START = Date.UTC(2026, 3, 6, 3, 0);


/** Standard normal noise by Box-Muller. */
function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function series(length: number, shape: (index: number) => number, noise: number, seed = 7): Point[] {
  const random = seededRandom(seed);
  return Array.from({ length }, (_, i) => ({ t: START + i * PERIOD, v: shape(i) + noise * gaussian(random) }));
}

const at = (index: number) => START + index * PERIOD;

describe('detectOnset', () => {
  it('finds a noisy step up within one period', () => {
    const onset = detectOnset(series(60, (i) => (i >= 40 ? 180 : 100), 5));
    expect(onset).toBeDefined();
    expect(Math.abs(onset!.at - at(40))).toBeLessThanOrEqual(PERIOD);
    expect(onset!.direction).toBe('up');
    expect(onset!.baseline).toBeCloseTo(100, -1);
    expect(onset!.level).toBeCloseTo(180, -1);
    expect(onset!.relativeChange).toBeCloseTo(0.8, 1);
    expect(onset!.score).toBeGreaterThan(8);
    expect(onset!.recoveredAt).toBeUndefined();
  });

  it('finds a noisy step down, such as throughput dropping', () => {
    const onset = detectOnset(series(90, (i) => (i >= 25 ? 300 : 1000), 30, 11));
    expect(onset?.direction).toBe('down');
    expect(Math.abs(onset!.at - at(25))).toBeLessThanOrEqual(PERIOD);
  });

  it('finds a step in a long series, segmented coarsely, to within one period', () => {
    const onset = detectOnset(series(5000, (i) => (i >= 3217 ? 40 : 50), 1, 3));
    expect(onset?.direction).toBe('down');
    expect(Math.abs(onset!.at - at(3217))).toBeLessThanOrEqual(PERIOD);
  });

  it('sorts the points first', () => {
    const points = series(60, (i) => (i >= 30 ? 50 : 10), 2);
    const onset = detectOnset([...points].reverse());
    expect(Math.abs(onset!.at - at(30))).toBeLessThanOrEqual(PERIOD);
  });

  it('dates a leak from where the rise begins, not where it crosses a threshold', () => {
    const onset = detectOnset(series(90, (i) => 500 + (i >= 50 ? 3 * (i - 50) : 0), 3, 5));
    expect(onset?.direction).toBe('up');
    expect(Math.abs(onset!.at - at(50))).toBeLessThanOrEqual(2 * PERIOD);
    // The level of a ramp is where it has climbed to.
    expect(onset!.level).toBeGreaterThan(590);
  });

  it('dates a climb that stops at a ceiling (a pool at its limit) from its first point off the baseline, never before', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const onset = detectOnset(series(130, (i) => Math.min(600, 118 + (i >= 62 ? 10 * (i - 61) : 0)), 2, seed));
      expect(onset?.direction).toBe('up');
      expect(onset!.at).toBeGreaterThanOrEqual(at(61));
      expect(onset!.at).toBeLessThanOrEqual(at(63));
    }
  });

  it('says which point was the last at the old level: a coarse series dates a shift late by up to a period', () => {
    const coarse = series(24, (i) => (i >= 15 ? 600 : 180), 3, 11).map((point, index) => ({ ...point, t: START + index * 4 * PERIOD }));
    const onset = detectOnset(coarse);
    expect(onset?.at).toBe(START + 15 * 4 * PERIOD);
    expect(onset?.after).toBe(START + 14 * 4 * PERIOD);
  });

  it('dates a jump after missing readings from its first reading off the old level, not the last one before the gap', () => {
    // A standby's request count, published only in minutes with requests (one or two), until traffic moved onto it.
    const idle = [0, 6, 7, 8, 13, 23, 27, 29, 30, 31, 38, 42, 50, 53, 57, 58, 59, 62, 69, 74, 78, 84, 90, 91, 94, 95, 96].map((minute, index) => ({ t: at(minute), v: 1 + (index % 2) }));
    const moved = [2156, 5909, 7641, 8773, 8450, 8663, 9254, 8787, 9265, 9171, 9454, 9344, 9210, 9570, 10002, 10012, 10116, 10318, 10001, 9988, 10004, 10281, 9717, 10001, 10158, 10018].map((v, index) => ({ t: at(100 + index), v }));
    const onset = detectOnset([...idle, ...moved]);
    expect(onset?.direction).toBe('up');
    expect(onset?.at).toBe(at(100));
    expect(onset?.after).toBe(at(96));
  });

  it('dates a step many times larger than a modest rise before it from the step, measured from the level the rise held', () => {
    // Requests up a sixth with the evening, then twenty-fold when a route moved traffic here.
    const onset = detectOnset(series(130, (i) => (i < 40 ? 215 : i < 100 ? 250 : 4800), 4));
    expect(onset?.at).toBe(at(100));
    expect(onset?.baseline).toBeCloseTo(250, -1);
    // A rise followed by one only a little larger is one departure, dated from its start.
    expect(detectOnset(series(130, (i) => (i < 40 ? 215 : i < 100 ? 250 : 300), 4))?.at).toBe(at(40));
  });

  it('finds nothing in flat noise', () => {
    for (const seed of [1, 2, 3, 4, 5]) expect(detectOnset(series(120, () => 200, 10, seed))).toBeUndefined();
  });

  it('finds nothing in a constant series or one that is too short', () => {
    expect(detectOnset(series(60, () => 3, 0))).toBeUndefined();
    expect(detectOnset(series(2, (i) => (i >= 1 ? 100 : 0), 0))).toBeUndefined();
  });

  it('ignores a brief spike that recovered, which detectTransientSpike reports', () => {
    const points = series(60, (i) => (i >= 30 && i < 33 ? 160 : 100), 3);
    expect(detectOnset(points)).toBeUndefined();
    const spike = detectTransientSpike(points);
    expect(spike).toBeDefined();
    expect(Math.abs(spike!.at - at(30))).toBeLessThanOrEqual(PERIOD);
    expect(Math.abs(spike!.until - at(32))).toBeLessThanOrEqual(PERIOD);
    expect(spike!.peak).toBeGreaterThan(150);
    expect(spike!.direction).toBe('up');
  });

  it('reports a spike still going at the end of the series', () => {
    const points = series(60, (i) => (i >= 56 ? 160 : 100), 3);
    expect(Math.abs(detectOnset(points)!.at - at(56))).toBeLessThanOrEqual(PERIOD);
    expect(detectTransientSpike(points)).toBeUndefined();
  });

  it('reports a long excursion that recovered, with when it recovered', () => {
    const onset = detectOnset(series(60, (i) => (i >= 20 && i < 40 ? 150 : 100), 3));
    expect(Math.abs(onset!.at - at(20))).toBeLessThanOrEqual(PERIOD);
    expect(Math.abs(onset!.recoveredAt! - at(40))).toBeLessThanOrEqual(PERIOD);
  });

  it('dates a fault that came back and is out again at the end from its first excursion, with no recovery', () => {
    const onset = detectOnset(series(60, (i) => (i >= 20 && i < 30 ? 200 : i >= 50 ? 150 : 100), 3));
    expect(Math.abs(onset!.at - at(20))).toBeLessThanOrEqual(PERIOD);
    expect(onset!.recoveredAt).toBeUndefined();
  });

  it('keeps the recovery of a fault whose second excursion has fallen back by the newest point', () => {
    const onset = detectOnset(series(60, (i) => (i >= 20 && i < 30 ? 200 : i >= 50 && i < 59 ? 150 : 100), 3));
    expect(Math.abs(onset!.recoveredAt! - at(30))).toBeLessThanOrEqual(PERIOD);
  });

  it('finds errors appearing where there were none', () => {
    const onset = detectOnset(series(60, (i) => (i >= 45 ? 5 : 0), 0));
    expect(onset?.at).toBe(at(45));
    expect(onset?.baseline).toBe(0);
    expect(onset?.level).toBe(5);
  });

  describe('on a series read at a coarse period (fewer than six points)', () => {
    const points = (values: number[]) => values.map((v, i) => ({ t: at(i), v }));

    it('finds a clean step that is still there at the end', () => {
      expect(detectOnset(points([10, 11, 10, 40, 42]))).toMatchObject({ at: at(3), direction: 'up', baseline: 10, level: 41 });
      expect(detectOnset(points([1000, 980, 1010, 400, 380]))).toMatchObject({ at: at(3), direction: 'down', baseline: 1000 });
      expect(detectOnset(points([0, 0, 0, 100, 100]))).toMatchObject({ at: at(3), direction: 'up' });
      expect(detectOnset(points([7, 9, 30, 34]))?.at).toBe(at(2));
    });

    it('does not read a lone newest point as a new level: it may be a partial period or hold a blip and its recovery', () => {
      expect(detectOnset(points([10, 11, 10, 12, 60]))).toBeUndefined();
    });

    it('needs the level at least doubled or halved, since there is no noise to measure', () => {
      expect(detectOnset(points([30, 31, 29, 45, 47]))).toBeUndefined();
      expect(detectOnset(points([1000, 980, 1010, 600, 580]))).toBeUndefined();
    });

    it('does not take a few events where there were none for a departure: counts vary by about their square root', () => {
      expect(detectOnset(points([0, 0, 2, 1, 1]))).toBeUndefined();
      expect(detectOnset(points([0, 0, 30, 25, 28]))?.at).toBe(at(2));
    });

    it('reads a departure that has fallen back by more than half as passing, unless the newest period of a sum may still be filling', () => {
      expect(detectOnset(points([5, 5, 5, 50, 20]))).toBeUndefined();
      expect(detectOnset(points([83, 77, 2078, 2079, 958]))).toBeUndefined();
      expect(detectOnset(points([83, 77, 2078, 2079, 958]), { newestMayBePartial: true })?.at).toBe(at(2));
    });

    it('needs the newest points beyond every earlier point, not a climb that overlaps them', () => {
      expect(detectOnset(points([10, 20, 30, 40, 50]))).toBeUndefined();
    });
  });

  describe('on a series too short to measure its noise on (six to nine points)', () => {
    const points = (values: number[]) => values.map((v, i) => ({ t: at(i), v }));

    it('finds a step that the short series\' rule reads, when a blip and the step itself swamp the noise estimate', () => {
      expect(detectOnset(points([14627, 105, 98, 750_000, 997_000, 753_000]))).toMatchObject({ at: at(3), direction: 'up', baseline: 105 });
    });

    it('still finds nothing where no point departs the short way', () => {
      expect(detectOnset(points([14627, 105, 98, 160, 150, 170]))).toBeUndefined();
    });
  });

  it('honours the thresholds', () => {
    // Significant, but only 1% of the level.
    const points = series(60, (i) => (i >= 30 ? 1010 : 1000), 1);
    expect(detectOnset(points)).toBeUndefined();
    expect(detectOnset(points, { minRelativeChange: 0 })?.direction).toBe('up');
    expect(detectOnset(points, { minRelativeChange: 0, minScore: 1000 })).toBeUndefined();
  });

  it('finds a step of at least 6 sigma within one period (property)', () => {
    // Noise can mimic a smaller step in any finite sample, so this holds with high probability, not
    // always; a fixed seed keeps the run deterministic. At least 15 points each side of the change.
    fc.assert(
      fc.property(
        fc.integer({ min: 60, max: 240 }),
        fc.double({ min: 0.25, max: 0.75, noNaN: true }),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
        fc.double({ min: 6, max: 40, noNaN: true }),
        fc.boolean(),
        fc.integer(),
        (length, position, baseline, sigma, sigmas, up, seed) => {
          const change = Math.floor(length * position);
          const step = (up ? 1 : -1) * sigmas * sigma;
          const points = series(length, (i) => baseline + (i >= change ? step : 0), sigma, seed);
          // The property is about detection, not materiality: a 6-sigma step on a huge level is tiny.
          const onset = detectOnset(points, { minRelativeChange: 0 });
          expect(onset).toBeDefined();
          expect(Math.abs(onset!.at - at(change))).toBeLessThanOrEqual(PERIOD);
          expect(onset!.direction).toBe(up ? 'up' : 'down');
        },
      ),
      { seed: 20260406 },
    );
  });
});
