import { GetTraceSummariesCommand, XRayClient, type ErrorRootCause, type FaultRootCause, type TraceSummary } from '@aws-sdk/client-xray';
import { getTracesContract, type TraceServiceSummary } from '../../../lib/tools/contracts/get-traces.ts';
import { noData } from '../../../lib/tools/contracts/shared-inputs.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import { deniedReason, isAccessDenied } from '../api-errors.ts';
import { isoOf } from '../time-format.ts';
import type { AwsToolDependencies } from '../tools.ts';

/** GetTraceSummaries answers at most 6 hours a call. */
const MAX_RANGE_MS = 6 * 60 * 60_000;
/** Enough traces for percentiles; more only costs calls. */
const MAX_SUMMARIES = 2000;
const MAX_ERRORS = 10;

/** The same percentile the scenario tool computes, so both sources read alike. */
const percentile = (sorted: readonly number[], fraction: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;

const milliseconds = (seconds: number): number => Math.round(seconds * 10_000) / 10;

/** Every trace summary in the window, 6 hours a call, all pages, up to a cap. */
const traceSummaries = async (client: XRayClient, start: number, end: number, filter: string | undefined): Promise<{ summaries: TraceSummary[]; capped: boolean }> => {
  const summaries: TraceSummary[] = [];
  for (let from = start; from < end && summaries.length < MAX_SUMMARIES; from += MAX_RANGE_MS) {
    let token: string | undefined;
    do {
      const page = await client.send(
        new GetTraceSummariesCommand({
          StartTime: new Date(from),
          EndTime: new Date(Math.min(from + MAX_RANGE_MS, end)),
          TimeRangeType: 'Event',
          ...(filter ? { FilterExpression: filter } : {}),
          ...(token ? { NextToken: token } : {}),
        }),
      );
      summaries.push(...(page.TraceSummaries ?? []));
      token = page.NextToken || undefined;
    } while (token && summaries.length < MAX_SUMMARIES);
  }
  return { summaries, capped: summaries.length >= MAX_SUMMARIES };
};

interface Exceptional {
  service: string;
  message: string;
}

/** The exceptions a trace's fault and error root causes name, with the service each was raised in. */
const exceptionsOf = (summary: TraceSummary): Exceptional[] =>
  [...(summary.FaultRootCauses ?? []), ...(summary.ErrorRootCauses ?? [])].flatMap((cause: FaultRootCause | ErrorRootCause) =>
    (cause.Services ?? []).flatMap((service) =>
      (service.EntityPath ?? []).flatMap((entity) =>
        (entity.Exceptions ?? []).map((exception) => ({ service: entity.Name ?? service.Name ?? '', message: exception.Message ?? exception.Name ?? 'unknown error' })),
      ),
    ),
  );

/** Per downstream service, the milliseconds of each call: its share (coverage) of the trace's response time. */
const downstreamTimes = (summary: TraceSummary, entry: string, canonical: (name: string) => string): { service: string; milliseconds: number }[] =>
  (summary.ResponseTimeRootCauses ?? []).flatMap((cause) =>
    (cause.Services ?? [])
      .filter((service) => canonical(service.Name ?? '') !== entry)
      .flatMap((service) => {
        const entity = service.EntityPath?.at(-1);
        return entity?.Coverage === undefined ? [] : [{ service: canonical(service.Name ?? entity.Name ?? ''), milliseconds: milliseconds(entity.Coverage * (summary.ResponseTime ?? summary.Duration ?? 0)) }];
      }),
  );

const summarizeService = (service: string, traces: readonly TraceSummary[], canonical: (name: string) => string): TraceServiceSummary => {
  const durations = traces.map((trace) => milliseconds(trace.ResponseTime ?? trace.Duration ?? 0)).sort((a, b) => a - b);
  const faults = traces.filter((trace) => trace.HasFault);
  const firstFault = faults.map((trace) => trace.StartTime?.getTime()).filter((at): at is number => at !== undefined).sort((a, b) => a - b)[0];
  const ownErrors = new Set<string>();
  const downstream = new Map<string, { durations: number[]; calls: number; errors: string[]; firstErrorAt?: number }>();
  const entryOf = (name: string) => {
    let entry = downstream.get(name);
    if (!entry) downstream.set(name, (entry = { durations: [], calls: 0, errors: [] }));
    return entry;
  };
  for (const trace of traces) {
    const times = downstreamTimes(trace, service, canonical);
    for (const time of times) entryOf(time.service).durations.push(time.milliseconds);
    const called = new Set([...times.map((time) => time.service), ...(trace.ServiceIds ?? []).map((id) => canonical(id.Name ?? '')).filter((name) => name && name !== service)]);
    for (const name of called) entryOf(name).calls += Math.max(1, times.filter((time) => time.service === name).length);
    for (const { service: raisedIn, message } of exceptionsOf(trace)) {
      if (canonical(raisedIn) === service) ownErrors.add(message);
      else {
        const entry = entryOf(canonical(raisedIn));
        entry.errors.push(message);
        const at = trace.StartTime?.getTime();
        if (at !== undefined && (entry.firstErrorAt === undefined || at < entry.firstErrorAt)) entry.firstErrorAt = at;
      }
    }
  }
  return {
    service,
    requests: traces.length,
    faults: faults.length,
    p50Ms: percentile(durations, 0.5),
    p95Ms: percentile(durations, 0.95),
    ...(firstFault === undefined ? {} : { firstFault: isoOf(firstFault) }),
    errors: [...ownErrors].slice(0, MAX_ERRORS),
    downstream: [...downstream.entries()].map(([name, entry]) => {
      const sorted = [...entry.durations].sort((a, b) => a - b);
      return {
        service: name,
        calls: entry.calls,
        p95Ms: percentile(sorted, 0.95),
        errors: entry.errors.length,
        ...(entry.errors[0] ? { sampleError: entry.errors[0] } : {}),
        ...(entry.firstErrorAt === undefined ? {} : { firstErrorAt: isoOf(entry.firstErrorAt) }),
      };
    }),
  };
};

export const getTraces = ({ clients, catalog }: AwsToolDependencies) =>
  implementTool(getTracesContract, {
    sideEffect: 'read-only',
    iamActions: ['xray:GetTraceSummaries'],
    run: async (input, context) => {
      const names = (await catalog.services()).map((service) => service.name);
      // X-Ray names services as their SDKs were configured; the catalog's spelling wins where they differ only in case.
      const canonical = (name: string) => names.find((known) => known.toLowerCase() === name.toLowerCase()) ?? name;
      const wanted = input.service?.trim();
      const end = context.now.getTime();
      let read: { summaries: TraceSummary[]; capped: boolean };
      try {
        read = await traceSummaries(clients.get(XRayClient), end - input.sinceMinutes * 60_000, end, wanted ? `service("${canonical(wanted).replace(/"/g, '')}")` : undefined);
      } catch (error) {
        if (isAccessDenied(error)) return noData('traces could not be read', deniedReason('xray:GetTraceSummaries', error));
        throw error;
      }
      if (read.summaries.length === 0) return noData('X-Ray has no traces in the window', 'no trace summaries: tracing may be off for these services');
      const byEntry = new Map<string, TraceSummary[]>();
      for (const summary of read.summaries) {
        const entry = canonical(summary.EntryPoint?.Name ?? summary.ServiceIds?.[0]?.Name ?? 'unknown');
        if (wanted !== undefined && entry.toLowerCase() !== wanted.toLowerCase()) continue;
        byEntry.set(entry, [...(byEntry.get(entry) ?? []), summary]);
      }
      const services = [...byEntry.entries()].map(([service, traces]) => summarizeService(service, traces, canonical));
      const traced = services.reduce((sum, service) => sum + service.requests, 0);
      return {
        summary: `${traced} traces across ${services.length} services${read.capped ? ` (the first ${read.summaries.length} read)` : ''}`,
        data: { available: true as const, services },
      };
    },
  });
