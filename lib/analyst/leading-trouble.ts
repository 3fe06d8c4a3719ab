import type { EvidenceBoard } from './evidence-board.ts';
import { measuresFailure } from './metric-semantics.ts';
import type { Principle } from './principles.ts';
import { callsEitherWay, type Signal } from './signals.ts';

/**
 * Where to start when no alert names a service (a sweep). Of two unrelated troubles, one that fails
 * requests (5xx, crashes, memory kills) comes before one that only turns away what its callers sent
 * (400, 404, 422): the second's callers get an answer and carry on, the first's do not. A refusal of
 * legitimate callers (401, 403, 429, throttling) is harm of its own and keeps its place.
 *
 * Likewise, errors a service only logs while its own count of failures stays level (a Lambda's
 * `Errors` at zero: it caught what it logged and carried on) come after an unrelated trouble that a
 * measure shows: requests that fail are counted somewhere.
 */

/** A client error: what the caller sent was wrong. */
const refusedInput = /4xx|client.?error|\b4(00|04|05|06|09|10|13|15|22)\b|malformed|bad request/i;
/** A refusal that keeps legitimate callers out, or a failure of the server's own. */
const refusedCaller = /\b40[13]\b|\b429\b|throttl|denied|forbidden|unauthori[sz]ed|credential|access.?key|token|signature|expired|5xx|\b5\d\d\b/i;

const onlyRefusesInput = (signals: readonly Signal[]): boolean =>
  signals.length > 0 && signals.every((signal) => refusedInput.test(signal.text) && !refusedCaller.test(signal.text));

/** The service counts its failures (errors, 5xx, throttles): when its only signals are log lines, none of those counts moved. */
const countsFailures = (board: EvidenceBoard, service: string): boolean => board.series.some((series) => series.service === service && measuresFailure(series.name));

const onlyLogged = (signals: readonly Signal[]): boolean => signals.length > 0 && signals.every((signal) => signal.kind === 'errors');

const measured = (signals: readonly Signal[]): boolean => signals.some((signal) => signal.kind === 'metric' && signal.substantial);

export const leadingTrouble = (
  board: EvidenceBoard,
  ranked: readonly { service: string }[],
  current: readonly Signal[],
): { service: string; principle?: Principle } | undefined => {
  const [first, ...rest] = ranked;
  // Every word of its own counts: a 4xx count says nothing of whom it refused, its warnings may. A count that barely
  // moved beside a substantial one (a stray 5xx now and then) is not what the service is doing.
  const own = (service: string) => {
    const mine = current.filter((signal) => signal.service === service && signal.kind !== 'mentioned' && signal.kind !== 'trace');
    return mine.some((signal) => signal.substantial) ? mine.filter((signal) => signal.substantial || signal.kind !== 'metric') : mine;
  };
  if (!first) return first;
  const unrelated = rest.filter((candidate) => !callsEitherWay(board.services ?? [], candidate.service, first.service) && own(candidate.service).length > 0);
  if (onlyRefusesInput(own(first.service))) {
    const failing = unrelated.find((candidate) => !onlyRefusesInput(own(candidate.service)));
    return failing ? { service: failing.service, principle: 'failures-before-refusals' } : first;
  }
  if (onlyLogged(own(first.service)) && countsFailures(board, first.service)) {
    const counted = unrelated.find((candidate) => measured(own(candidate.service)));
    return counted ? { service: counted.service, principle: 'counted-failures-before-logged' } : first;
  }
  return first;
};
