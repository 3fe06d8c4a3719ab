import type { GetTraceSummariesCommandInput, GetTraceSummariesCommandOutput, RootCauseException, TraceSummary } from '@aws-sdk/client-xray';
import type { traceRecord } from '../../../lib/domain/scenario.ts';
import { toMillis } from '../../../lib/domain/time.ts';
import type { z } from 'zod';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { serviceException, type ServiceEmulation } from './emulator.ts';
import { serviceNamed } from './service-identity.ts';

type TraceRecord = z.infer<typeof traceRecord>;

/** Small pages, so the tool's pagination really runs. */
const SUMMARIES_PER_PAGE = 5;
/** X-Ray answers at most 6 hours a call. */
const MAX_RANGE_MS = 6 * 60 * 60_000;
const HISTORY_MINUTES = 30 * 24 * 60;

const typesByKind: Readonly<Record<string, string>> = { lambda: 'AWS::Lambda::Function', ecs: 'AWS::ECS::Container', rds: 'Database::SQL', dynamodb: 'AWS::DynamoDB::Table', sqs: 'AWS::SQS::Queue', sns: 'AWS::SNS::Topic', external: 'remote' };

const serviceId = (environment: RecordedEnvironment, name: string) => ({ Name: name, Names: [name], Type: typesByKind[serviceNamed(environment, name)?.kind ?? ''] ?? 'AWS::EC2::Instance' });

const exception = (message: string): RootCauseException => ({ Name: message.split(':')[0]?.slice(0, 60) ?? 'Error', Message: message });

/** One recorded trace as X-Ray summarizes it: its entry point, the services it touched, and where its time and its faults went. */
const summaryOf = (environment: RecordedEnvironment, trace: TraceRecord, index: number): TraceSummary => {
  const start = toMillis(trace.timestamp);
  const segments = trace.segments ?? [];
  const entry = serviceId(environment, trace.service);
  const touched = [...new Set(segments.map((segment) => segment.service))].filter((name) => name !== trace.service);
  const rootCauses = [
    ...(trace.error ? [{ Services: [{ ...entry, EntityPath: [{ Name: trace.service, Exceptions: [exception(trace.error)], Remote: false }], Inferred: false }], ClientImpacting: true }] : []),
    ...segments
      .filter((segment) => segment.error)
      .map((segment) => ({
        Services: [{ ...serviceId(environment, segment.service), EntityPath: [{ Name: segment.service, Exceptions: [exception(segment.error ?? '')], Remote: true }], Inferred: false }],
        ClientImpacting: true,
      })),
  ];
  return {
    Id: `1-${Math.floor(start / 1000).toString(16)}-${index.toString(16).padStart(24, '0')}`,
    StartTime: new Date(start),
    Duration: trace.durationMs / 1000,
    ResponseTime: trace.durationMs / 1000,
    HasFault: trace.fault === true,
    HasError: trace.fault !== true && trace.error !== undefined,
    HasThrottle: false,
    IsPartial: false,
    EntryPoint: entry,
    ServiceIds: [entry, ...touched.map((name) => serviceId(environment, name))],
    // Each downstream call's share of the response time, as X-Ray's response-time root causes give it.
    ResponseTimeRootCauses: segments.map((segment) => ({
      Services: [
        { ...entry, EntityPath: [{ Name: trace.service, Coverage: 1, Remote: false }], Inferred: false },
        { ...serviceId(environment, segment.service), EntityPath: [{ Name: segment.service, Coverage: trace.durationMs > 0 ? segment.durationMs / trace.durationMs : 0, Remote: true }], Inferred: false },
      ],
      ClientImpacting: false,
    })),
    ...(trace.fault === true ? { FaultRootCauses: rootCauses } : { ErrorRootCauses: rootCauses }),
  };
};

/** The parts of X-Ray's filter expressions the tools send: `service("name")`, `fault`, `error`, joined by `AND`. */
const filterOf = (expression: string | undefined): ((trace: TraceRecord) => boolean) => {
  if (expression === undefined || expression.trim() === '') return () => true;
  const tests = expression.split(/\s+AND\s+/i).map((term) => {
    const service = /^service\("([^"]+)"\)$/.exec(term.trim())?.[1];
    if (service !== undefined) return (trace: TraceRecord) => trace.service === service || (trace.segments ?? []).some((segment) => segment.service === service);
    if (/^fault(\s*=\s*true)?$/i.test(term.trim())) return (trace: TraceRecord) => trace.fault === true;
    if (/^error(\s*=\s*true)?$/i.test(term.trim())) return (trace: TraceRecord) => trace.fault !== true && trace.error !== undefined;
    throw serviceException('InvalidRequestException', `the emulation does not understand the filter expression term ${term}`);
  });
  return (trace) => tests.every((test) => test(trace));
};

const getTraceSummaries = (input: GetTraceSummariesCommandInput, environment: RecordedEnvironment): Omit<GetTraceSummariesCommandOutput, '$metadata'> => {
  if (!input.StartTime || !input.EndTime) throw serviceException('InvalidRequestException', 'StartTime and EndTime are required');
  const start = input.StartTime.getTime();
  const end = input.EndTime.getTime();
  if (end - start > MAX_RANGE_MS) throw serviceException('InvalidRequestException', 'Time range cannot be longer than 6 hours');
  const matches = filterOf(input.FilterExpression);
  const traces = environment
    .traces(HISTORY_MINUTES)
    .map((trace, index) => ({ trace, index }))
    .filter(({ trace }) => toMillis(trace.timestamp) >= start && toMillis(trace.timestamp) <= end && matches(trace));
  const offset = input.NextToken === undefined ? 0 : Number(input.NextToken);
  if (!Number.isInteger(offset) || offset < 0) throw serviceException('InvalidRequestException', `invalid NextToken ${input.NextToken}`);
  const next = offset + SUMMARIES_PER_PAGE < traces.length ? String(offset + SUMMARIES_PER_PAGE) : undefined;
  return {
    TraceSummaries: traces.slice(offset, offset + SUMMARIES_PER_PAGE).map(({ trace, index }) => summaryOf(environment, trace, index)),
    ApproximateTime: new Date(end),
    TracesProcessedCount: traces.length,
    ...(next ? { NextToken: next } : {}),
  };
};

export const xrayTracesEmulation: ServiceEmulation = { GetTraceSummariesCommand: getTraceSummaries };
