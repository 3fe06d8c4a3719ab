import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCoarserMetrics } from '../../local/coarser-metrics.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText, readScenarioFile } from '../../local/scenario-files.ts';

const bundled = (file: string) => parseScenarioText(readScenarioFile(join(BUNDLED_SCENARIOS_DIR, file), file), file);
const base = bundled('tax-service-dependency-outage.json');

const minute = (index: number) => new Date(Date.UTC(2026, 3, 22, 14, index)).toISOString();
const withSeries = (stat: string, values: number[]) => ({
  ...base,
  environment: { ...base.environment, metrics: [{ service: 'cart-api', name: 'Probe', stat, periodSeconds: 60, points: values.map((value, index): [string, number] => [minute(index), value]) }] },
});
const coarsened = (stat: string, values: number[], factor: number) => withCoarserMetrics(withSeries(stat, values), factor).environment.metrics![0]!;

describe('withCoarserMetrics (eval --coarsen)', () => {
  it('aggregates each run of points as CloudWatch would for the statistic, stamped at the run’s first point', () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
    expect(coarsened('Sum', values, 4).points).toEqual([[minute(0), 10], [minute(4), 26], [minute(8), 30]]);
    expect(coarsened('Maximum', values, 4).points.map(([, value]) => value)).toEqual([4, 8, 11]);
    expect(coarsened('Minimum', values, 4).points.map(([, value]) => value)).toEqual([1, 5, 9]);
    expect(coarsened('Average', values, 4).points.map(([, value]) => value)).toEqual([2.5, 6.5, 10]);
    expect(coarsened('Sum', values, 4).periodSeconds).toBe(240);
  });

  it('keeps points in different periods of the clock apart: a count published only while events happen, one night apart, is not merged', () => {
    const night = (day: number, index: number) => new Date(Date.UTC(2026, 3, 20 + day, 2, index)).toISOString();
    const sparse = { ...base, environment: { ...base.environment, metrics: [{ service: 'cart-api', name: 'Throttles', stat: 'Sum', periodSeconds: 60, points: [0, 1, 2].flatMap((day) => [[night(day, 0), 5], [night(day, 1), 7]] as [string, number][]) }] } };
    expect(withCoarserMetrics(sparse, 4).environment.metrics![0]!.points).toEqual([[night(0, 0), 12], [night(1, 0), 12], [night(2, 0), 12]]);
  });

  it('leaves a series as written where coarsening would keep fewer than three points', () => {
    expect(coarsened('Sum', [1, 2, 3, 4, 5, 6], 3).points).toHaveLength(6);
    expect(coarsened('Sum', [1, 2, 3, 4, 5, 6, 7], 3).points).toHaveLength(3);
  });

  it('changes nothing but the metrics, and the result is still a valid scenario', () => {
    const result = withCoarserMetrics(base, 5);
    expect({ ...result, environment: { ...result.environment, metrics: undefined } }).toEqual({ ...base, environment: { ...base.environment, metrics: undefined } });
    expect(result.environment.metrics!.every((series, index) => series.points.length < base.environment.metrics![index]!.points.length)).toBe(true);
    expect(() => parseScenarioText(JSON.stringify(result), 'coarsened')).not.toThrow();
  });

  it('is the scenario itself at factor 1', () => {
    expect(withCoarserMetrics(base, 1)).toBe(base);
  });
});
