import type { EvidenceBoard, LogRecord } from './evidence-board.ts';
import type { Principle } from './principles.ts';
import { quoteMessage } from '../text/quote.ts';
import { answeredRequestsNear } from './client-error-probes.ts';
import { iso, type Signal } from './signals.ts';

/**
 * Refusals (401, 403) that one caller alone gets, while every other caller is served, are that caller's
 * problem (a token it stopped refreshing, a key it mistyped), not the service refusing its users:
 * unless something of ours that decides who gets in (a key, a token, a policy, an authorizer)
 * changed shortly before, which would be ours to undo.
 */

const clientErrorSignal = /4xx|client.?error|\b40[13]\b|unauthori[sz]ed|forbidden/i;
/** Who sent a request: a named client, else its source address (masked or not). */
const callerOf = (message: string): string | undefined =>
  /\b(?:client|caller|partner|consumer|app|api.?key)(?:_?id)?[=:]\s*"?([\w.:-]+)/i.exec(message)?.[1] ?? /<IP_\d+>|\b\d{1,3}(?:\.\d{1,3}){3}\b/.exec(message)?.[0];
/** A change to what decides who gets in. */
const accessChange = /api.?key|access.?key|token|credential|secret|authori[sz]er|permission|polic(y|ies)|\biam\b|certificate|rotat|usage.?plan|cognito|user.?pool|client.?(id|secret)|jwt|oauth|waf|allow.?list|deny/i;

const MIN_REFUSED = 5;
const ONE_CALLER_SHARE = 0.9;
const MIN_OTHERS_SERVED = 2;
/** A change to access this long before the refusals began could be why. */
const ACCESS_CHANGE_REACH_MS = 24 * 60 * 60_000;

export const oneCallerRefused = (board: EvidenceBoard, signal: Signal): { principle: Principle; service: string; ref: string; why: string } | undefined => {
  if (!clientErrorSignal.test(signal.text) || /5xx|\b5\d\d\b/i.test(signal.text)) return undefined;
  const requests = answeredRequestsNear(board, signal).flatMap((request) => {
    const caller = callerOf(request.line.message);
    return caller === undefined ? [] : [{ ...request, caller }];
  });
  // Turned away for who they are; a 429 is a limit the others may be hitting too.
  const refused = requests.filter(({ status }) => status === 401 || status === 403);
  if (refused.length < MIN_REFUSED) return undefined;
  const counts = new Map<string, number>();
  for (const { caller } of refused) counts.set(caller, (counts.get(caller) ?? 0) + 1);
  const [caller, count] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
  const othersServed = new Set(requests.filter((request) => request.status < 400 && request.caller !== caller).map((request) => request.caller));
  if (count < ONE_CALLER_SHARE * refused.length || othersServed.size < MIN_OTHERS_SERVED) return undefined;
  const firstRefused = Math.min(...refused.filter((request) => request.caller === caller).map(({ line }) => line.at));
  if (board.changes.some((change) => change.at <= firstRefused && firstRefused - change.at <= ACCESS_CHANGE_REACH_MS && accessChange.test(change.summary))) return undefined;
  const example: LogRecord = refused.find((request) => request.caller === caller)!.line;
  return {
    principle: 'one-caller-refused',
    service: signal.service,
    ref: example.ref,
    why: `the client errors at ${signal.service} since ${iso(signal.at)} are one caller's: ${count} of ${refused.length} refused requests come from ${caller} (e.g. "${quoteMessage(example.message, 120)}"), while ${othersServed.size} other callers keep being served and nothing that decides who gets in changed before`,
  };
};
