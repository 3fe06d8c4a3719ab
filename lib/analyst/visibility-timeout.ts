import { quoteMessage } from '../text/quote.ts';
import { inSeconds } from './duration-words.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { suspectChangeFor } from './explaining-change.ts';
import { latentSettingFor } from './latent-setting.ts';
import { latestSettingWritten, type SettingWritten } from './setting-written.ts';
import { callersOf, dependenciesOf, kindOf } from './service-map.ts';
import { iso } from './signals.ts';
import { queueNamedLike } from './work-handler.ts';

/**
 * A queue hides a message it handed to a consumer for its visibility timeout; a consumer still
 * working on it when that runs out sees it again, and handles it twice. A consumer whose processing
 * can outlast the visibility timeout (its function timeout, or what its runs take) is fed duplicates
 * by the queue's setting, whatever made the processing longer: AWS advises a visibility timeout of at
 * least six times a Lambda consumer's timeout. The setting to fix is the queue's; a release of the
 * consumer that made its runs outlast it is where the duplicates started.
 */
export interface OutlastedVisibility {
  queue: string;
  consumer: string;
  visibilitySeconds: number;
  /** How long the consumer may work on one message: its timeout, or the longest its runs took. */
  processingSeconds: number;
  /** What says so: its timeout setting (the change that wrote it), or its run durations (a metric, or its own log lines). */
  processingFrom: { change: Change } | { durations: string };
  /** The consumer's release or setting that made its runs outlast the visibility timeout, when its run durations say so. */
  slowedBy?: Change;
  /** The queue's change that lowered its visibility timeout below the processing, and what it was before. */
  loweredBy?: { change: Change; fromSeconds: number };
}

/** SQS's visibility timeout when nothing says it was set. */
const DEFAULT_VISIBILITY_S = 30;
/** AWS's advice: a visibility timeout of at least this many times the consumer's timeout. */
export const VISIBILITY_PER_TIMEOUT = 6;

/** A visibility timeout as a change writes it: `VisibilityTimeout=30`, `visibility timeout 180 -> 30`, `"visibility_timeout_seconds":"180 -> 30"`; the new value last. */
const visibilitySetting = /visibility.?timeout(?:.?seconds)?\W{0,4}(?:(\d+)\s*(?:->|→|=>|\bto\b)\s*)?(\d+)/i;

/** The visibility timeout a queue's tags give (`visibilityTimeout: "720"`), when they give one. */
const taggedVisibility = (board: EvidenceBoard, queue: string): number | undefined => {
  const tags = board.services?.find((node) => node.name === queue)?.tags ?? {};
  const stated = Object.entries(tags).map(([key, value]) => visibilitySetting.exec(`${key} ${value}`)).find((match) => match !== null);
  return stated ? Number(stated[2]) : undefined;
};

/** The visibility timeout a queue runs with (the latest its changes state, else what its tags give, else SQS's default), and the change that set it. */
const visibilityOf = (board: EvidenceBoard, queue: string): { seconds: number; setBy?: SettingWritten } => {
  const setBy = latestSettingWritten(board.changes.filter((change) => change.service === queue), visibilitySetting);
  return setBy ? { seconds: setBy.value, setBy } : { seconds: taggedVisibility(board, queue) ?? DEFAULT_VISIBILITY_S };
};

/** A function's own timeout as a change writes it: `Timeout 30 -> 300 s`, `Timeout=300`, or `{ Timeout: { new: 300 } }` in its request. */
const functionTimeoutWritten = /\bTimeout\b\W{0,3}(?:\d+\s*s?\s*(?:->|→|=>|\bto\b)\s*)?(\d+)\s*(?:s|sec|seconds)?\b/;

const functionTimeoutOf = (change: Change): number | undefined => {
  const requested = change.details?.Timeout;
  if (typeof requested === 'number') return requested;
  if (requested && typeof requested === 'object' && typeof (requested as Record<string, unknown>).new === 'number') return (requested as { new: number }).new;
  const written = functionTimeoutWritten.exec(change.summary);
  return written ? Number(written[1]) : undefined;
};

/** The timeout the consumer's latest change wrote for itself, in seconds. */
const writtenTimeout = (board: EvidenceBoard, consumer: string): { seconds: number; change: Change } | undefined =>
  board.changes
    .filter((change) => change.service === consumer)
    .sort((a, b) => b.at - a.at)
    .flatMap((change) => {
      const seconds = functionTimeoutOf(change);
      return seconds === undefined ? [] : [{ seconds, change }];
    })[0];

/** Seconds per unit of a duration measure; Lambda's Duration is published in milliseconds. */
const secondsPer = (name: string, unit: string | undefined): number | undefined => {
  if (/^milliseconds$/i.test(unit ?? '')) return 1 / 1000;
  if (/^seconds$/i.test(unit ?? '')) return 1;
  return /^Duration$/i.test(name) ? 1 / 1000 : undefined;
};

/** The longest a run of the consumer took, in seconds, and the measure that says so: a duration metric of its own. */
const longestMeasuredRun = (board: EvidenceBoard, consumer: string): { seconds: number; measure: string } | undefined =>
  board.series
    .filter((series) => series.service === consumer && /duration|processing.?time/i.test(series.name))
    .flatMap((series) => {
      const per = secondsPer(series.name, series.unit);
      return per === undefined || series.points.length === 0 ? [] : [{ seconds: Math.max(...series.points.map(([, value]) => value)) * per, measure: series.name }];
    })
    .sort((a, b) => b.seconds - a.seconds)[0];

/** A run's length as a worker logs it: `took 57321ms`, `processed in 61.2 s`, `duration=4800ms` (a retry "in 30 s" is no run). */
const loggedRunLength = /(?:\btook|\b(?:processed|completed|finished|handled|done) in|duration|elapsed)\W{0,3}(\d+(?:\.\d+)?)\s*(ms|s|sec|seconds)\b/gi;

/** The longest run of the consumer its own log lines state, in seconds. */
const longestLoggedRun = (board: EvidenceBoard, consumer: string): number | undefined => {
  const seconds = board.logs
    .filter((line) => line.service === consumer)
    .flatMap((line) => [...line.message.matchAll(loggedRunLength)].map((found) => inSeconds(found[1]!, found[2])));
  return seconds.length > 0 ? Math.max(...seconds) : undefined;
};

/**
 * The queue next to `consumer` (it reads from it) whose visibility timeout its processing outlasts,
 * when the failures the evidence shows (change-effects' failureKindsIn) include messages handled again
 * (duplicates, receive counts, received more than sent).
 */
export const outlastedVisibilityOf = (board: EvidenceBoard, consumer: string, failureKinds: ReadonlySet<string>): OutlastedVisibility | undefined => {
  if (!failureKinds.has('redelivery')) return undefined;
  const queues = dependenciesOf(board, consumer).filter((name) => board.services?.find((node) => node.name === name)?.kind === 'sqs');
  if (queues.length !== 1) return undefined;
  const queue = queues[0]!;
  const { seconds: visibilitySeconds, setBy } = visibilityOf(board, queue);
  const outlasting = (processingSeconds: number, processingFrom: OutlastedVisibility['processingFrom']): OutlastedVisibility => {
    // A change that lowered the timeout from a value the processing fits in is what let the messages come back.
    const lowered = setBy?.replaced !== undefined && setBy.replaced > processingSeconds ? { loweredBy: { change: setBy.change, fromSeconds: setBy.replaced } } : {};
    return { queue, consumer, visibilitySeconds, processingSeconds, processingFrom, ...lowered };
  };
  const timeout = writtenTimeout(board, consumer);
  if (timeout && timeout.seconds > visibilitySeconds) return outlasting(timeout.seconds, { change: timeout.change });
  const measured = longestMeasuredRun(board, consumer);
  if (measured && measured.seconds > visibilitySeconds) return outlasting(Math.round(measured.seconds), { durations: measured.measure });
  const logged = longestLoggedRun(board, consumer);
  if (logged !== undefined && logged > visibilitySeconds) return outlasting(Math.round(logged), { durations: 'its log lines' });
  return undefined;
};

/**
 * The queue whose visibility timeout a consumer's processing outlasts, seen from where the search
 * ended: at the consumer, or at the queue it reads (a dead-letter queue stands for the queue named
 * like it); or, where nothing else explains the trouble (`anywhere`), the one consumer of the map whose
 * processing outlasts its queue's, since messages handled twice are that mechanism wherever they show
 * (a mailer sending each receipt twice). `redeliveredFrom`: when the trouble began, which a release or
 * setting of the consumer may have started (made while its work was idle, it shows when the work next
 * runs: `shownAt`).
 */
export const outlastedVisibilityAt = (
  board: EvidenceBoard,
  service: string,
  failureKinds: ReadonlySet<string>,
  { redeliveredFrom, shownAt, anywhere }: { redeliveredFrom: number; shownAt: (change: Change) => number; anywhere: boolean },
): OutlastedVisibility | undefined => {
  const queue = kindOf(board, service) === 'sqs' ? (queueNamedLike(board, service) ?? service) : undefined;
  const consumers = queue === undefined ? [service] : callersOf(board, queue);
  const outlastedBy = (names: readonly string[], readFrom?: string) =>
    names.map((consumer) => outlastedVisibilityOf(board, consumer, failureKinds)).filter((outlasted) => outlasted !== undefined && (readFrom === undefined || outlasted.queue === readFrom));
  const near = outlastedBy(consumers, queue);
  const found = near.length > 0 || !anywhere ? near : outlastedBy((board.services ?? []).map((node) => node.name));
  if (found.length !== 1) return undefined;
  const outlasted = found[0]!;
  if (!('durations' in outlasted.processingFrom)) return outlasted;
  // A setting that decides how many messages it holds at once waits for the next run to show, however long after.
  const slowedBy =
    suspectChangeFor(board.changes.filter((change) => lengthening.has(change.kind)), new Set([outlasted.consumer]), redeliveredFrom, shownAt) ??
    latentSettingFor(board, outlasted.consumer, new Set(['redelivery']), redeliveredFrom);
  return slowedBy ? { ...outlasted, slowedBy } : outlasted;
};

/** Where the duplicates start: the consumer whose release or setting made its runs that long, else the queue whose setting they outlast. */
export const duplicatesStartAt = ({ queue, consumer, slowedBy }: OutlastedVisibility): string => (slowedBy ? consumer : queue);

/** Kinds of change that can make a consumer's runs longer: its code, or a setting of how it works (a batch size). */
const lengthening = new Set(['deploy', 'config', 'feature-flag']);

/** The mechanism, in plain words. */
export const outlastedVisibilityWords = ({ queue, consumer, visibilitySeconds, processingSeconds, processingFrom, slowedBy, loweredBy }: OutlastedVisibility): string => {
  const how = 'change' in processingFrom ? `its timeout is ${processingSeconds} s` : `its runs take up to ${processingSeconds} s, by ${processingFrom.durations}${slowedBy ? `, since ${slowedBy.summary}` : ''}`;
  const lowered = loweredBy ? ` A ${loweredBy.change.kind} change at ${iso(loweredBy.change.at)} lowered it from ${loweredBy.fromSeconds} s ("${quoteMessage(loweredBy.change.summary)}").` : '';
  return `${consumer} can work on a message longer than ${queue}'s visibility timeout of ${visibilitySeconds} s (${how}): the message becomes visible again while it is still being processed, is received again and handled twice (duplicates).${lowered} ${queue}'s visibility timeout must be longer than the processing (AWS advises ${VISIBILITY_PER_TIMEOUT} times a Lambda consumer's timeout).`;
};
