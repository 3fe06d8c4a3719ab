import { getTracesContract } from '../../../lib/tools/contracts/get-traces.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import { serviceMatches, type RecordedEnvironment } from '../recorded-environment.ts';
import { noData, sinceMinutes } from '../../../lib/tools/contracts/shared-inputs.ts';

const percentile = (sorted: readonly number[], fraction: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;

export const getTraces = (environment: RecordedEnvironment) =>
  implementTool(getTracesContract, {
    sideEffect: 'read-only',
    iamActions: ['xray:GetTraceSummaries', 'xray:BatchGetTraces'],
    run: async (input) => {
      if (!environment.has('traces')) return noData('no trace data is available');
      const traces = environment.traces(input.sinceMinutes).filter((trace) => serviceMatches(input.service, trace.service));
      const byService = new Map<string, typeof traces>();
      for (const trace of traces) byService.set(trace.service, [...(byService.get(trace.service) ?? []), trace]);
      const services = [...byService.entries()].map(([service, list]) => {
        const durations = list.map((trace) => trace.durationMs).sort((a, b) => a - b);
        const segments = new Map<string, { durations: number[]; errors: string[]; firstErrorAt?: string }>();
        // A trace's segment for its own service is that service's work, not a call downstream.
        for (const trace of list)
          for (const segment of (trace.segments ?? []).filter((own) => own.service !== trace.service)) {
            const entry = segments.get(segment.service) ?? { durations: [], errors: [] };
            entry.durations.push(segment.durationMs);
            if (segment.error) {
              entry.errors.push(segment.error);
              if (entry.firstErrorAt === undefined || Date.parse(trace.timestamp) < Date.parse(entry.firstErrorAt)) entry.firstErrorAt = trace.timestamp;
            }
            segments.set(segment.service, entry);
          }
        return {
          service,
          requests: list.length,
          faults: list.filter((trace) => trace.fault).length,
          p50Ms: percentile(durations, 0.5),
          p95Ms: percentile(durations, 0.95),
          firstFault: list.find((trace) => trace.fault)?.timestamp,
          errors: [...new Set(list.flatMap((trace) => [trace, ...(trace.segments ?? []).filter((own) => own.service === trace.service)].flatMap((part) => (part.error ? [part.error] : []))))].slice(0, 10),
          downstream: [...segments.entries()].map(([name, entry]) => {
            const sorted = [...entry.durations].sort((a, b) => a - b);
            return { service: name, calls: sorted.length, p95Ms: percentile(sorted, 0.95), errors: entry.errors.length, sampleError: entry.errors[0], firstErrorAt: entry.firstErrorAt };
          }),
        };
      });
      return { summary: `${traces.length} traces across ${services.length} services`, data: { available: true, services } };
    },
  });
