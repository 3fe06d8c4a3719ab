import { describe, expect, it } from 'vitest';
import { capMetricSeriesIn, movement } from '../../lib/context/cap-metric-series.ts';
import { capToolResult } from '../../lib/context/cap-tool-result.ts';
import { estimateTokens } from '../../lib/context/token-estimate.ts';

const start = Date.parse('2026-05-02T10:00:00Z');
const minute = 60_000;
const seriesOf = (service: string, name: string, values: readonly number[], fromMinute = 0) => ({
  service,
  name,
  stats: { min: Math.min(...values), max: Math.max(...values), count: values.length },
  points: values.map((value, index): [string, number] => [new Date(start + (fromMinute + index) * minute).toISOString(), value]),
});
const noisy = (level: number, count: number) => Array.from({ length: count }, (_, index) => level + ((index * 7) % 5) - 2);

describe('capMetricSeriesIn', () => {
  const flatZero = seriesOf('bus', 'FailedInvocations', Array(90).fill(0));
  const steady = seriesOf('worker', 'Invocations', noisy(150, 90));
  const risen = seriesOf('api', 'HTTPCode_Target_5XX_Count', [...noisy(10, 60), ...noisy(200, 30)]);
  const lateStarting = seriesOf('worker', 'Throttles', noisy(150, 30), 60);
  const stoppedEarly = seriesOf('worker', 'Duration', noisy(700, 50));
  const blip = seriesOf('worker', 'Errors', Array.from({ length: 90 }, (_, index) => (index === 70 ? 1 : 0)));

  it('ranks a series that moved, started late or stopped early above one that held its level', () => {
    const window = { start, end: start + 89 * minute };
    const flat = movement(flatZero, window);
    const level = movement(steady, window);
    expect(flat).toBe(0);
    expect(level).toBeLessThan(0.1);
    expect(movement(blip, window)).toBeLessThan(0.1);
    for (const moved of [risen, lateStarting, stoppedEarly]) expect(movement(moved, window)).toBeGreaterThan(0.4);
  });

  it('drops the series that held their level first, keeps the order of the rest and names what went', () => {
    const data = { available: true, series: [steady, flatZero, risen, lateStarting, stoppedEarly] };
    const all = estimateTokens(JSON.stringify(data));
    const withoutTwo = estimateTokens(JSON.stringify({ ...data, series: [risen, lateStarting, stoppedEarly] }));
    const capped = capMetricSeriesIn(data, Math.floor((all + withoutTwo) / 2) + 40) as {
      series: { name: string }[];
      seriesOmitted: number;
      omittedSeries: string[];
    };
    expect(capped.series.map((item) => item.name)).toEqual(['Invocations', 'HTTPCode_Target_5XX_Count', 'Throttles', 'Duration']);
    expect(capped.seriesOmitted).toBe(1);
    expect(capped.omittedSeries).toEqual(['bus FailedInvocations']);

    const tighter = capMetricSeriesIn(data, withoutTwo + 40) as typeof capped;
    expect(tighter.series.map((item) => item.name)).toEqual(['HTTPCode_Target_5XX_Count', 'Throttles', 'Duration']);
    expect(tighter.omittedSeries).toEqual(['worker Invocations', 'bus FailedInvocations']);
  });

  it('keeps a failure count that rose over a throughput that rose earlier, and a stray failure ranks as nothing moved', () => {
    const connections = seriesOf('nat', 'ActiveConnectionCount', [...noisy(1700, 40), ...noisy(57000, 50)]);
    const portErrors = seriesOf('nat', 'ErrorPortAllocation', [...Array(55).fill(0), ...noisy(65000, 35)]);
    const data = { available: true, series: [connections, portErrors, steady] };
    const cap = estimateTokens(JSON.stringify({ ...data, series: [portErrors], omittedSeries: ['worker Invocations', 'nat ActiveConnectionCount'] })) + 10;
    const capped = capMetricSeriesIn(data, cap) as { series: { name: string }[]; omittedSeries: string[] };
    expect(capped.series.map((item) => item.name)).toEqual(['ErrorPortAllocation']);

    const lateRise = seriesOf('worker', 'Invocations', [...noisy(150, 85), ...noisy(400, 5)]);
    const withBlip = capMetricSeriesIn({ available: true, series: [blip, lateRise] }, estimateTokens(JSON.stringify({ available: true, series: [lateRise] })) + 20) as typeof capped;
    expect(withBlip.omittedSeries).toEqual(['worker Errors']);
  });

  it('is what capToolResult uses for metric results, within the cap', () => {
    const data = { available: true, series: [steady, flatZero, risen, lateStarting] };
    const cap = estimateTokens(JSON.stringify(data)) - 100;
    const result = capToolResult(data, cap);
    expect(estimateTokens(JSON.stringify(result.data))).toBeLessThanOrEqual(cap);
    expect((result.data as { series: { name: string }[] }).series.map((item) => item.name)).toEqual(['Invocations', 'HTTPCode_Target_5XX_Count', 'Throttles']);
  });

  it('leaves other shapes, and a single series too large alone, to the general capping', () => {
    expect(capMetricSeriesIn({ series: [[1, 2]] }, 10)).toBeUndefined();
    expect(capMetricSeriesIn({ lines: [] }, 10)).toBeUndefined();
    expect(capMetricSeriesIn({ series: [risen, steady] }, 5)).toBeUndefined();
  });
});
