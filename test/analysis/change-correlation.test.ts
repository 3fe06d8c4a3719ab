import { describe, expect, it } from 'vitest';
import { correlateChanges, type ChangeEvent } from '../../lib/analysis/change-correlation.ts';

const MINUTE = 60_000;
const ONSET = Date.UTC(2026, 3, 6, 4, 0);
const change = (minutesBefore: number, service: string, kind = 'deploy'): ChangeEvent => ({
  t: ONSET - minutesBefore * MINUTE,
  service,
  kind,
  summary: `${kind} ${service}`,
});

describe('correlateChanges', () => {
  it('ranks the change closest before the onset first', () => {
    const ranked = correlateChanges([change(90, 'web'), change(5, 'inventory'), change(30, 'order')], ONSET);
    expect(ranked.map((correlated) => correlated.service)).toEqual(['inventory', 'order', 'web']);
    expect(ranked[0]!.leadMs).toBe(5 * MINUTE);
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
    for (const correlated of ranked) expect(correlated.score).toBeGreaterThanOrEqual(0);
    for (const correlated of ranked) expect(correlated.score).toBeLessThanOrEqual(1);
  });

  it('excludes a change after the onset, beyond a minute of tolerance', () => {
    const ranked = correlateChanges([change(-10, 'late'), change(-0.5, 'skewed'), change(20, 'early')], ONSET);
    expect(ranked.map((correlated) => correlated.service)).toEqual(['skewed', 'early']);
    expect(ranked[0]!.leadMs).toBe(-0.5 * MINUTE);
  });

  it('excludes a change outside the window', () => {
    expect(correlateChanges([change(3 * 60, 'old')], ONSET)).toEqual([]);
    expect(correlateChanges([change(3 * 60, 'old')], ONSET, { windowMs: 4 * 60 * MINUTE })).toHaveLength(1);
    expect(correlateChanges([change(20, 'recent')], ONSET, { windowMs: 10 * MINUTE })).toEqual([]);
  });

  it('prefers the change before the onset over one as far after it', () => {
    const ranked = correlateChanges([change(-0.5, 'after'), change(0.5, 'before')], ONSET);
    expect(ranked.map((correlated) => correlated.service)).toEqual(['before', 'after']);
  });
});
