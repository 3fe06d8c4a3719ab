import { toMillis } from '../../../lib/domain/time.ts';
import { earlierWindows, getMetricsContract, summarizedPoints, type EarlierDay } from '../../../lib/tools/contracts/get-metrics.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import { serviceMatches, type RecordedEnvironment } from '../recorded-environment.ts';
import { noData } from '../../../lib/tools/contracts/shared-inputs.ts';

type Point = [string, number];

const within = (points: readonly Point[], start: number, end: number): Point[] =>
  points.filter(([timestamp]) => toMillis(timestamp) >= start && toMillis(timestamp) <= end);

export const getMetrics = (environment: RecordedEnvironment) =>
  implementTool(getMetricsContract, {
    sideEffect: 'read-only',
    iamActions: ['cloudwatch:GetMetricData', 'cloudwatch:ListMetrics'],
    run: async (input) => {
      if (!environment.has('metrics')) return noData('no metric data is available');
      const needle = input.name?.toLowerCase();
      const window = { start: environment.windowStart(input.sinceMinutes), end: environment.nowMillis };
      const earlier = earlierWindows(window, input.compareDaysBefore ?? 0);
      // Read back far enough for the earliest compared day; each window then takes its own points.
      const lookBack = input.sinceMinutes + (input.compareDaysBefore ?? 0) * 24 * 60;
      const series = environment
        .metrics(lookBack)
        .filter((metric) => serviceMatches(input.service, metric.service) && (needle === undefined || metric.name.toLowerCase().includes(needle)))
        .map((metric) => ({ metric, current: within(metric.points, window.start, window.end) }))
        .filter(({ current }) => current.length > 0)
        .map(({ metric, current }) => {
          const earlierDays = earlier.flatMap(({ daysBefore, start, end }): EarlierDay[] => {
            const points = within(metric.points, start, end);
            return points.length > 0 ? [{ daysBefore, ...summarizedPoints(points) }] : [];
          });
          return {
            service: metric.service,
            name: metric.name,
            namespace: metric.namespace,
            dimensions: metric.dimensions,
            unit: metric.unit,
            stat: metric.stat,
            periodSeconds: metric.periodSeconds,
            ...summarizedPoints(current),
            ...(earlierDays.length > 0 ? { earlierDays } : {}),
          };
        });
      return { summary: `${series.length} metric series`, data: { available: true, series } };
    },
  });
