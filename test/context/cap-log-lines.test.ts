import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capLines, cappedLinesTokens, headTailLines, MIN_CAP_TOKENS } from '../../lib/context/cap-log-lines.ts';
import { estimateTokens } from '../../lib/context/token-estimate.ts';
import { noiseRecords, plant, renderRecord, seeded } from './log-fixtures.ts';

/** Lines that look like logs: a level, words, ids; sometimes very long, sometimes empty. */
const logLine = fc.oneof(
  fc.tuple(fc.constantFrom('INFO', 'WARN', 'ERROR', 'FATAL', 'DEBUG', ''), fc.string({ maxLength: 120 }), fc.nat()).map(
    ([level, text, id]) => `2026-04-06T04:00:00Z svc ${level} ${text} id=${id}`,
  ),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ minLength: 2000, maxLength: 6000 }),
);

/** True when `kept` appears in `lines` in order (a kept line may be the clipped form of its input line). */
const isOrderedSubset = (kept: readonly string[], lines: readonly string[]) => {
  let at = 0;
  for (const line of kept) {
    const prefix = line.replace(/ …\[\+\d+ chars\]$/, '');
    while (at < lines.length && !lines[at]!.startsWith(prefix)) at += 1;
    if (at === lines.length) return false;
    at += 1;
  }
  return true;
};

describe('capLines', () => {
  it('always fits the cap, keeps lines in their original order and accounts for every line', () => {
    fc.assert(
      fc.property(fc.array(logLine, { maxLength: 400 }), fc.integer({ min: MIN_CAP_TOKENS, max: 6000 }), (lines, cap) => {
        const result = capLines(lines, cap);
        expect(cappedLinesTokens(result)).toBeLessThanOrEqual(cap);
        expect(result.kept.length + result.omitted).toBe(lines.length);
        expect(isOrderedSubset(result.kept, lines)).toBe(true);
        expect(result.templates.reduce((sum, template) => sum + template.count, 0)).toBeLessThanOrEqual(result.omitted);
      }),
      { numRuns: 300 },
    );
  });

  it('returns everything when it fits', () => {
    const lines = ['a INFO started', 'b ERROR failed', 'c INFO done'];
    expect(capLines(lines, 1000)).toEqual({ kept: lines, omitted: 0, templates: [] });
  });

  it('keeps planted error lines from the middle of a 100,000-line log at 10,000 tokens, with the head and the tail', () => {
    const random = seeded(42);
    const records = noiseRecords(100_000, random);
    const positions = plant(records, random);
    const lines = records.map(renderRecord);
    const result = capLines(lines, 10_000);
    expect(cappedLinesTokens(result)).toBeLessThanOrEqual(10_000);
    const kept = new Set(result.kept);
    for (const position of positions) expect(kept, lines[position]).toContain(lines[position]);
    expect(result.kept[0]).toBe(lines[0]);
    expect(result.kept.at(-1)).toBe(lines.at(-1));
    // The head is a contiguous run from the first line, the tail one to the last.
    expect(result.kept.slice(0, 10)).toEqual(lines.slice(0, 10));
    expect(result.kept.slice(-10)).toEqual(lines.slice(-10));
    // The plain cut loses them.
    const naive = new Set(headTailLines(lines, 10_000).kept);
    expect(positions.filter((position) => naive.has(lines[position]!))).toEqual([]);
  });

  it('keeps one example of a flood of warnings rather than letting it crowd out a single fatal line', () => {
    const lines = [
      ...Array.from({ length: 3000 }, (_, index) => `t${index} api WARN retrying request to payments-provider attempt ${index % 3}/3`),
      't3000 orders FATAL migration 0042 failed',
      ...Array.from({ length: 3000 }, (_, index) => `t${index + 3001} api WARN retrying request to payments-provider attempt ${index % 3}/3`),
    ];
    const result = capLines(lines, 500);
    expect(result.kept).toContain('t3000 orders FATAL migration 0042 failed');
    expect(cappedLinesTokens(result)).toBeLessThanOrEqual(500);
  });

  it('keeps a rare middle line of a template seen nowhere else, such as a deploy', () => {
    const lines = [
      ...Array.from({ length: 2000 }, (_, index) => `2026-04-06T04:00:00Z web INFO GET /api/orders/${index} 200 12ms`),
      '2026-04-06T04:05:00Z deployer INFO deployment inventory v1.8.3 started by pipeline',
      ...Array.from({ length: 2000 }, (_, index) => `2026-04-06T04:10:00Z web INFO GET /api/orders/${index} 200 12ms`),
    ];
    expect(capLines(lines, 1000).kept).toContain('2026-04-06T04:05:00Z deployer INFO deployment inventory v1.8.3 started by pipeline');
  });

  it('counts every omitted template with its first and last index, most frequent first', () => {
    const lines = Array.from({ length: 3000 }, (_, index) =>
      index % 3 === 0 ? `svc INFO cache hit key=product:${index}` : `svc INFO GET /api/orders/${index} 200 ${index % 97}ms`,
    );
    const result = capLines(lines, 800);
    const keptIndexes = new Set(result.kept.map((line) => lines.indexOf(line)));
    const omitted = lines.map((line, index) => ({ line, index })).filter(({ index }) => !keptIndexes.has(index));
    const expected = (test: (line: string) => boolean) => {
      const matching = omitted.filter(({ line }) => test(line));
      return { count: matching.length, first: matching[0]!.index, last: matching.at(-1)!.index };
    };
    expect(result.templates).toEqual([
      { template: 'svc INFO GET /api/orders/<*> <*> <*>', ...expected((line) => line.includes('GET')) },
      { template: 'svc INFO cache hit key=product:<*>', ...expected((line) => line.includes('cache hit')) },
    ]);
    expect(result.templates[0]!.count + result.templates[1]!.count).toBe(result.omitted);
  });

  it('clips a line too long for its share instead of dropping the decisive error in it', () => {
    const stack = `t1 api ERROR java.lang.IllegalStateException: pool exhausted ${'at com.shop.Pool.take(Pool.java:42) '.repeat(400)}`;
    const lines = [...Array.from({ length: 500 }, (_, index) => `t0 api INFO ok ${index}`), stack, ...Array.from({ length: 500 }, (_, index) => `t2 api INFO ok ${index}`)];
    const result = capLines(lines, 1000);
    expect(result.kept.some((line) => line.startsWith('t1 api ERROR java.lang.IllegalStateException: pool exhausted') && /…\[\+\d+ chars\]$/.test(line))).toBe(true);
    expect(cappedLinesTokens(result)).toBeLessThanOrEqual(1000);
  });
});

describe('headTailLines', () => {
  it('keeps only the start and the end within the cap', () => {
    const lines = Array.from({ length: 5000 }, (_, index) => `line ${index} INFO something happened`);
    const result = headTailLines(lines, 500);
    expect(estimateTokens(result.kept.join('\n'))).toBeLessThanOrEqual(500);
    expect(result.kept[0]).toBe(lines[0]);
    expect(result.kept.at(-1)).toBe(lines.at(-1));
    expect(result.kept).not.toContain(lines[2500]);
    expect(result.kept.length + result.omitted).toBe(lines.length);
  });
});
