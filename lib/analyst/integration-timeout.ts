import type { EvidenceBoard } from './evidence-board.ts';
import { computeKinds, dependenciesOf, kindOf } from './service-map.ts';
import { iso, severityOfLine } from './signals.ts';
import { roseBy } from './readings.ts';

/**
 * API Gateway waits at most 29 seconds for an integration (a REST API's default integration
 * timeout) and answers 504 "Endpoint request timed out" / "Execution failed due to a timeout
 * error" when it gives up. The gateway is fine: the backend it integrates with took longer than
 * that. Of its backends, the one whose own duration passed the limit is where the time goes.
 */
export interface TimedOutIntegration {
  gateway: string;
  backend: string;
  /** The backend's longest run, in milliseconds, and the measure it was read on. */
  longestMs: number;
  measure: string;
  /** A measure of the backend's own that grew with its run time while its requests did not: what each run works on grew. */
  workGrew?: { measure: string; from: number; to: number; at: number };
}

const INTEGRATION_LIMIT_MS = 29_000;
/** Runs this close to the limit were cut off by it, whatever they would have taken. */
const AT_LIMIT_SHARE = 0.95;
const gaveUp = /Execution failed due to a timeout error|Endpoint request timed out|Integration ?timeout/i;
/** A function's or task's own time per run, in milliseconds. */
const durationMeasure = /^Duration$|duration.?ms|DurationMs/i;

/** The backends a gateway that gave up waiting on its integrations calls: where to read how long runs take. */
export const backendsTimedOutOn = (board: EvidenceBoard, gateway: string): string[] =>
  kindOf(board, gateway) === 'apigateway' && board.logs.some((line) => line.service === gateway && severityOfLine(line) >= 3 && gaveUp.test(line.message))
    ? dependenciesOf(board, gateway).filter((backend) => computeKinds.has(kindOf(board, backend) ?? ''))
    : [];

export const timedOutIntegrationOf = (board: EvidenceBoard, gateway: string): TimedOutIntegration | undefined => {
  const overLimit = backendsTimedOutOn(board, gateway)
    .flatMap((backend) =>
      board.series
        .filter((series) => series.service === backend && durationMeasure.test(series.name))
        .map((series) => ({ backend, measure: series.name, longestMs: Math.max(...series.points.map(([, value]) => value)) }))
        .filter(({ longestMs }) => longestMs >= AT_LIMIT_SHARE * INTEGRATION_LIMIT_MS),
    );
  const backends = [...new Set(overLimit.map(({ backend }) => backend))];
  if (backends.length !== 1) return undefined;
  const longest = overLimit.sort((a, b) => b.longestMs - a.longestMs)[0]!;
  const workGrew = workGrewAt(board, longest.backend);
  return { gateway, ...longest, ...(workGrew ? { workGrew } : {}) };
};

/** What a platform reports of every function or task, which says nothing of what one run works on. */
const platformMeasure = /^(Invocations|Errors|Throttles|Duration|ConcurrentExecutions|UnreservedConcurrentExecutions|ProvisionedConcurren\w*|IteratorAge|DeadLetterErrors|AsyncEvent\w*|PostRuntimeExtensionsDuration|CPUUtilization|MemoryUtilization|RunningTaskCount|DesiredTaskCount|PendingTaskCount)$/;
/** A measure this many times its level before grew with the work, not with an hour's usual swing. */
const WORK_GREW_FACTOR = 4;

const workGrewAt = (board: EvidenceBoard, backend: string): TimedOutIntegration['workGrew'] => {
  // Read back as far as the board has it: the growth may have taken days.
  const readingsOf = (series: EvidenceBoard['series'][number]) => series.history ?? series.points;
  const requestsRose = board.series.some((series) => series.service === backend && /^Invocations$|RequestCount/.test(series.name) && roseBy(readingsOf(series), WORK_GREW_FACTOR));
  if (requestsRose) return undefined;
  const grown = board.series
    .filter((series) => series.service === backend && !platformMeasure.test(series.name))
    .flatMap((series) => {
      const onset = roseBy(readingsOf(series), WORK_GREW_FACTOR);
      return onset ? [{ series, onset }] : [];
    })
    .sort((a, b) => b.onset.level / Math.max(b.onset.baseline, 1) - a.onset.level / Math.max(a.onset.baseline, 1))[0];
  if (!grown) return undefined;
  const dimensions = Object.entries(grown.series.dimensions ?? {}).map(([key, value]) => `${key}=${value}`).join(', ');
  return { measure: `${grown.series.name}${dimensions ? ` (${dimensions})` : ''}`, from: grown.onset.baseline, to: grown.onset.level, at: grown.onset.at };
};

/** The mechanism, in plain words. */
export const timedOutIntegrationWords = ({ gateway, backend, longestMs, measure, workGrew }: TimedOutIntegration): string =>
  `${gateway} waits at most 29 s for an integration (API Gateway's integration timeout) and answers 504 when it gives up; ${backend}'s ${measure} reached ${Math.round(longestMs)} ms: its runs now take longer than the gateway waits.` +
  (workGrew ? ` What each run works on grew while its requests did not: ${workGrew.measure} went up from ${Math.round(workGrew.from)} to ${Math.round(workGrew.to)} at ${iso(workGrew.at)}.` : '');
