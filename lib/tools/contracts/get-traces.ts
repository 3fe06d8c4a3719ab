import { z } from 'zod';
import { defineContract } from './contract.ts';
import { serviceFilter, sinceMinutes, unavailable } from './shared-inputs.ts';

export const traceServiceSummary = z.object({
  service: z.string(),
  requests: z.number(),
  faults: z.number(),
  p50Ms: z.number().optional(),
  p95Ms: z.number().optional(),
  firstFault: z.string().optional(),
  errors: z.array(z.string()).default([]),
  downstream: z
    .array(z.object({ service: z.string(), calls: z.number(), p95Ms: z.number(), errors: z.number(), sampleError: z.string().optional(), firstErrorAt: z.string().optional() }))
    .default([]),
});
export type TraceServiceSummary = z.infer<typeof traceServiceSummary>;

export const getTracesContract = defineContract({
  name: 'get_traces',
  description:
    'Summarize distributed traces: per service the request count, faults, p50/p95 latency, and per downstream segment its latency and errors. Use it to see which downstream call fails or slows; not available where tracing is off.',
  input: z.object({ service: serviceFilter, sinceMinutes: sinceMinutes(60) }),
  output: z.discriminatedUnion('available', [unavailable, z.object({ available: z.literal(true), services: z.array(traceServiceSummary) })]),
});
