import { getMetricsContract } from '../../../lib/tools/contracts/get-metrics.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import { serviceMatches, type RecordedEnvironment } from '../recorded-environment.ts';
import { noData, sinceMinutes } from '../../../lib/tools/contracts/shared-inputs.ts';

const MAX_POINTS = 90;

/** Keeps every k-th point so long series stay readable; the last point is always kept. */
const downsample = <T>(points: readonly T[]): T[] => {
  if (points.length <= MAX_POINTS) return [...points];
  const step = Math.ceil(points.length / MAX_POINTS);
  return points.filter((_, index) => index % step === 0 || index === points.length - 1);
};

export const getMetrics = (environment: RecordedEnvironment) =>
  implementTool(getMetricsContract, {
    sideEffect: 'read-only',
    iamActions: ['cloudwatch:GetMetricData', 'cloudwatch:ListMetrics'],
    run: async (input) => {
      if (!environment.has('metrics')) return noData('no metric data is available');
      const needle = input.name?.toLowerCase();
      const series = environment
        .metrics(input.sinceMinutes)
        .filter((metric) => serviceMatches(input.service, metric.service) && (needle === undefined || metric.name.toLowerCase().includes(needle)))
        .filter((metric) => metric.points.length > 0)
        .map((metric) => {
          const values = metric.points.map(([, value]) => value);
          return {
            service: metric.service,
            name: metric.name,
            namespace: metric.namespace,
            dimensions: metric.dimensions,
            unit: metric.unit,
            stat: metric.stat,
            periodSeconds: metric.periodSeconds,
            stats: { min: Math.min(...values), max: Math.max(...values), first: values[0], last: values[values.length - 1], count: values.length },
            points: downsample(metric.points),
          };
        });
      return { summary: `${series.length} metric series`, data: { available: true, series } };
    },
  });
