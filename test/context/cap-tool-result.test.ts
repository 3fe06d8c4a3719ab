import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordedEnvironment } from '../../integrations/scenario/recorded-environment.ts';
import { queryLogs } from '../../integrations/scenario/tools/query-logs.ts';
import { capToolResult } from '../../lib/context/cap-tool-result.ts';
import { estimateTokens } from '../../lib/context/token-estimate.ts';
import { noiseRecords, seeded } from './log-fixtures.ts';

const tokensOf = (value: unknown) => estimateTokens(JSON.stringify(value));

describe('capToolResult', () => {
  it('returns data that fits as it is', () => {
    const data = { available: true, lines: [{ timestamp: 't', service: 's', level: 'INFO', message: 'ok' }] };
    const result = capToolResult(data, 1000);
    expect(result.data).toBe(data);
    expect(result.capped).toBe(false);
    expect(result.originalTokens).toBe(tokensOf(data));
  });

  it('caps a real query_logs result, keeping its shape, the decisive line and what was left out', async () => {
    const now = new Date('2026-04-06T04:10:00Z');
    const records = noiseRecords(200, seeded(7), Date.parse('2026-04-06T04:00:00Z'));
    const decisive = { ...records[117]!, service: 'orders', level: 'FATAL', message: 'migration 0042 failed: column "sku_v2" does not exist' };
    records[117] = decisive;
    records[50] = { ...records[50]!, fields: { requestId: 'r-1', route: '/api/orders' } };
    const tool = queryLogs(new RecordedEnvironment({ logs: records }, now));
    const { data } = await tool.run(tool.input.parse({ sinceMinutes: 60, limit: 200 }), { now });
    const original = data as { available: boolean; lines: unknown[]; templates: unknown[]; matched: number };
    expect(original.lines).toHaveLength(200);

    const result = capToolResult(data, 2000);
    expect(result.capped).toBe(true);
    expect(result.originalTokens).toBeGreaterThan(2000);
    expect(tokensOf(result.data)).toBeLessThanOrEqual(2000);
    const capped = result.data as typeof original & { omittedLines: number; omittedTemplates: { template: string; count: number; firstSeen: string; lastSeen: string }[] };
    expect(Object.keys(capped)).toEqual([...Object.keys(original), 'omittedLines', 'omittedTemplates']);
    expect(capped.available).toBe(true);
    expect(capped.matched).toBe(200);
    expect(capped.templates).toEqual(original.templates);
    // Kept lines are the original objects, in their original order.
    const positions = capped.lines.map((line) => original.lines.findIndex((candidate) => JSON.stringify(candidate) === JSON.stringify(line)));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(capped.lines).toContainEqual({ timestamp: decisive.timestamp, service: 'orders', level: 'FATAL', message: decisive.message });
    expect(capped.lines[0]).toEqual(original.lines[0]);
    expect(capped.lines.at(-1)).toEqual(original.lines.at(-1));
    expect(capped.omittedLines).toBe(200 - capped.lines.length);
    expect(capped.omittedTemplates.length).toBeGreaterThan(0);
    for (const template of capped.omittedTemplates) {
      expect(template.firstSeen <= template.lastSeen).toBe(true);
      expect(template.template).toContain('<*>');
    }
  });

  it('keeps the first and last points of a long metric series with a count of what was cut', () => {
    const points = Array.from({ length: 20_000 }, (_, index) => [new Date(Date.UTC(2026, 3, 6) + index * 60_000).toISOString(), index % 17]);
    const data = { metric: 'Errors', service: 'orders', series: points };
    const result = capToolResult(data, 1500);
    const capped = result.data as { metric: string; series: unknown[]; seriesOmitted: number };
    expect(tokensOf(capped)).toBeLessThanOrEqual(1500);
    expect(capped.metric).toBe('Errors');
    expect(capped.series[0]).toEqual(points[0]);
    expect(capped.series.at(-1)).toEqual(points.at(-1));
    expect(capped.series.length + capped.seriesOmitted).toBe(points.length);
  });

  it('cuts arrays nested in arrays with a marker item', () => {
    const data = [Array.from({ length: 5000 }, (_, index) => `change ${index} deployed`)];
    const result = capToolResult(data, 300);
    expect(tokensOf(result.data)).toBeLessThanOrEqual(300);
    const inner = (result.data as string[][])[0]!;
    expect(inner[0]).toBe('change 0 deployed');
    expect(inner.at(-1)).toBe('change 4999 deployed');
    expect(inner.some((item) => /^… \d+ items omitted …$/.test(item))).toBe(true);
  });

  it('falls back to cutting the JSON text with a marker when nothing else shrinks it', () => {
    const data = { blob: 'x'.repeat(50_000) };
    const result = capToolResult(data, 200);
    expect(tokensOf(result.data)).toBeLessThanOrEqual(200);
    expect(JSON.stringify(result.data)).toMatch(/omitted|truncated/);
  });

  it('never throws, and whatever it returns fits', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(() => capToolResult(cyclic, 100)).not.toThrow();
    expect(() => capToolResult({ big: 10n }, 100)).not.toThrow();
    expect(capToolResult(undefined, 10)).toEqual({ data: undefined, capped: false, originalTokens: 0 });
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 64, max: 2000 }), (value, cap) => {
        const result = capToolResult(value, cap);
        expect(tokensOf(result.data)).toBeLessThanOrEqual(cap);
      }),
      { numRuns: 300 },
    );
  });

  it('fits log-shaped data of any size and content', () => {
    const record = fc.record({
      timestamp: fc.string({ maxLength: 30 }),
      service: fc.string({ maxLength: 20 }),
      level: fc.constantFrom('INFO', 'WARN', 'ERROR', 'fatal'),
      message: fc.string({ maxLength: 3000 }),
    });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 300 }), fc.integer({ min: 100, max: 4000 }), (lines, cap) => {
        const result = capToolResult({ available: true, matched: lines.length, lines, templates: [] }, cap);
        expect(tokensOf(result.data)).toBeLessThanOrEqual(cap);
      }),
      { numRuns: 150 },
    );
  });
});
