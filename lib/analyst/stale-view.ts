import { severityOf } from '../analysis/log-templates.ts';
import { causesIn } from './cause-signals.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { measureClassesOf, measuresFailure } from './metric-semantics.ts';
import { callersOf } from './service-map.ts';
import { ownIdentityRejected, severityOfLine, type Signal } from './signals.ts';
import { changeText } from './change-text.ts';
import { quoteMessage } from '../text/quote.ts';

/**
 * A dependency that its other callers came through is working. When something happened to it (a
 * failover, a rotated secret, a renewed certificate), every caller stumbled at the same moment;
 * those that recovered re-resolved, re-read or re-trusted it. The one caller still failing on it
 * holds what it cached or pinned from before: that caller is where the fault is now.
 */

/** What the failing caller holds from before: read from its failures and from what changed. */
export type StaleHolding = 'credential' | 'certificate' | 'address';

export interface StaleView {
  /** The caller still failing on the dependency. */
  caller: string;
  /** The dependency that serves its other callers again. */
  dependency: string;
  /** The callers that failed at the same moment and work again. */
  recovered: string[];
  /** The callers it served throughout, their calls to it logged as answered while the caller failed. */
  served: string[];
  holding: StaleHolding;
  /** A write the caller's pooled connections had refused as read-only, when that is how it fails: the old writer is a reader now. */
  refusedAsReadOnly?: string;
}

/** Callers stumble together within this much of each other. */
const TOGETHER_MS = 15 * 60_000;
/** A caller whose last complaint is this old, and that went on working after it, has recovered. */
const QUIET_MS = 10 * 60_000;

const WARNING = severityOf('WARN');

/** A complaint about the dependency: a failure, or a warning that names it; a routine warning (an image downscaled) is no stumble. */
const stumbled = (message: string, dependency: string): boolean =>
  message.toLowerCase().includes(dependency.toLowerCase()) ||
  /fail|error|exception|denied|refused|forbidden|unauthori[sz]ed|time.?out|timed out|unreachable|unable|could not|cannot|retry|retries|reset|closed|expired|invalid|\b[45]\d\d\b/i.test(message);

/** Failing of its own, or reporting that its calls to another fail. */
const failingNow = (current: readonly Signal[], service: string): boolean =>
  current.some(
    (signal) =>
      signal.ongoing &&
      ((signal.service === service && (signal.kind === 'errors' || signal.kind === 'metric' || signal.kind === 'trend' || signal.kind === 'alarm')) ||
        (signal.kind === 'mentioned' && signal.from === service)),
  );

/** A database refusing a write because the server is read-only: a reader (a replica, a former writer) does that by design. */
const readOnlyRefusal = /read-only transaction|read only transaction|--read-only option|super_read_only|ER_OPTION_PREVENTS_STATEMENT|cannot execute \w+ in a read-only/i;

/**
 * A dependency failing by itself now: refusing a caller's stale password or certificate, or a write sent to a reader, as a database logs it, is working as
 * built, and so is holding more connections while callers reconnect to it: a count of connections is a fault only with a
 * limit that refuses them, which its errors then name.
 */
const faultOfItsOwn = (current: readonly Signal[], service: string): boolean =>
  current.some(
    (signal) =>
      signal.service === service &&
      signal.ongoing &&
      signal.substantial &&
      signal.kind !== 'mentioned' &&
      signal.kind !== 'trace' &&
      !ownIdentityRejected.test(signal.text) &&
      !readOnlyRefusal.test(signal.text) &&
      !(signal.kind === 'metric' && measureClassesOf(signal.text).has('connections') && !measuresFailure(signal.text)),
  );

const holdingOf = (failures: string, change: Change | undefined): StaleHolding => {
  const labels = new Set(causesIn(`${failures} ${change ? changeText(change) : ''}`).map((hit) => hit.label));
  if (labels.has('certificate')) return 'certificate';
  if (labels.has('credentials') || /rotat|secret|password/i.test(change?.summary ?? '')) return 'credential';
  return 'address';
};

/**
 * The caller that still fails on `dependency` while every other caller that stumbled with it
 * recovered. Needs the dependency to show no fault of its own, exactly one caller failing now, and
 * at least one other caller whose complaints began within minutes of that caller's and ended (it
 * logged on without them, or its alarm is back to OK).
 */
export const staleViewOf = (board: EvidenceBoard, dependency: string, current: readonly Signal[], onsetOf: (service: string) => number, change: Change | undefined): StaleView | undefined => {
  const callers = callersOf(board, dependency);
  if (callers.length < 2 || faultOfItsOwn(current, dependency)) return undefined;
  const failing = callers.filter((caller) => failingNow(current, caller));
  if (failing.length !== 1) return undefined;
  const caller = failing[0]!;
  // A caller that only reports its calls failing dates its trouble by them: they are the dependency's signals. A dependency that
  // logs each sign-in it refuses shows the caller's first refusals, often before the caller's pooled connections run out.
  const refusedSince = Math.min(...current.filter((signal) => signal.service === dependency && ownIdentityRejected.test(signal.text)).map((signal) => signal.at));
  const onset = Math.min(Number.isFinite(onsetOf(caller)) ? onsetOf(caller) : onsetOf(dependency), refusedSince);
  if (!Number.isFinite(onset)) return undefined;
  const end = Math.max(...board.logs.map((line) => line.at));
  const recovered = callers.filter((other) => {
    if (other === caller) return false;
    const lines = board.logs.filter((line) => line.service === other);
    const complaints = lines.filter((line) => severityOfLine(line) >= WARNING && stumbled(line.message, dependency));
    if (!complaints.some((line) => Math.abs(line.at - onset) <= TOGETHER_MS)) return false;
    const lastComplaint = Math.max(...complaints.map((line) => line.at));
    const workedOn = lines.some((line) => line.at > lastComplaint) && end - lastComplaint >= QUIET_MS;
    const alarmBack = board.alarms.some((alarm) => alarm.service === other && alarm.state === 'OK' && alarm.since !== undefined && Date.parse(alarm.since) > lastComplaint - TOGETHER_MS);
    return workedOn || alarmBack;
  });
  const callerFailures = current.filter((signal) => signal.service === caller || (signal.kind === 'mentioned' && signal.from === caller));
  const failures = callerFailures.map((signal) => signal.text).join(' ');
  const readOnly = callerFailures.find((signal) => readOnlyRefusal.test(signal.text));
  if (recovered.length > 0) return { caller, dependency, recovered, served: [], holding: holdingOf(failures, change), ...(readOnly ? { refusedAsReadOnly: readOnly.text } : {}) };
  // Callers it answered all along say as much, but only of what a caller holds by itself: a certificate it trusts, a credential.
  const held = new Set(causesIn(failures).map((hit) => hit.label));
  if (!held.has('certificate') && !held.has('credentials')) return undefined;
  const served = callers.filter((other) => other !== caller && servedThroughout(board, other, dependency, onset));
  return served.length > 0 ? { caller, dependency, recovered: [], served, holding: holdingOf(failures, change) } : undefined;
};

/** Answered calls a caller logs naming the dependency after the other caller began to fail, enough to be no accident. */
const MIN_ANSWERED = 2;

const servedThroughout = (board: EvidenceBoard, caller: string, dependency: string, since: number): boolean => {
  const named = board.logs.filter((line) => line.service === caller && line.at >= since - TOGETHER_MS && line.message.toLowerCase().includes(dependency.toLowerCase()));
  const complaints = named.filter((line) => severityOfLine(line) >= WARNING || stumbled(line.message.toLowerCase().replaceAll(dependency.toLowerCase(), ''), dependency));
  return complaints.length === 0 && named.filter((line) => line.at >= since).length >= MIN_ANSWERED;
};

const heldWords: Readonly<Record<StaleHolding, string>> = {
  credential: 'the credential it cached before the secret changed (the previous password)',
  certificate: 'the certificate or public key it pinned before the certificate changed',
  address: 'the address it cached (a DNS answer or pooled connections) for an endpoint that has since moved',
};

/** Connections kept to a server that was the writer before a failover, in plain words. */
const oldWriterWords = (refusal: string): string =>
  `the connections it pooled to the old writer, a read-only reader since the failover: its writes are refused ("${quoteMessage(refusal)}")`;

/** The mechanism in plain words, for the summary. */
export const staleViewWords = (view: StaleView): string =>
  view.recovered.length > 0
    ? `${view.dependency} serves ${view.recovered.join(', ')} again, which failed with ${view.caller} at first; ${view.caller} still fails on it because it holds ${view.refusedAsReadOnly ? oldWriterWords(view.refusedAsReadOnly) : heldWords[view.holding]}.`
    : `${view.dependency} serves ${view.served.join(', ')} throughout; ${view.caller} alone fails on it because it holds ${heldWords[view.holding]}.`;
