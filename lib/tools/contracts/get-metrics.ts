import { z } from 'zod';
import { defineContract } from './contract.ts';
import { serviceFilter, sinceMinutes, unavailable } from './shared-inputs.ts';

export const metricPoint = z.tuple([z.string(), z.number()]);

export const metricSeriesSummary = z.object({
  service: z.string(),
  name: z.string(),
  namespace: z.string().optional(),
  dimensions: z.record(z.string(), z.string()).optional(),
  unit: z.string().optional(),
  stat: z.string().optional(),
  periodSeconds: z.number().optional(),
  stats: z.object({ min: z.number(), max: z.number(), first: z.number().optional(), last: z.number().optional(), count: z.number() }).optional(),
  points: z.array(metricPoint),
});
export type MetricSeriesSummary = z.infer<typeof metricSeriesSummary>;

export const getMetricsContract = defineContract({
  name: 'get_metrics',
  description:
    'Read metric time series (CloudWatch) for a service or by metric name, with a baseline before the onset. Returns each series with its points and min/max/first/last. Use it to date the onset and see saturation; not for error messages (use query_logs).',
  input: z.object({
    service: serviceFilter,
    name: z.string().optional().describe('Only metrics whose name contains this text (case-insensitive).'),
    sinceMinutes: sinceMinutes(120),
  }),
  output: z.discriminatedUnion('available', [unavailable, z.object({ available: z.literal(true), series: z.array(metricSeriesSummary) })]),
});
