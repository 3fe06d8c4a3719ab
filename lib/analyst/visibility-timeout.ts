import type { Change, EvidenceBoard } from './evidence-board.ts';
import { dependenciesOf } from './service-map.ts';

/**
 * A queue hides a message it handed to a consumer for its visibility timeout; a consumer still
 * working on it when that runs out sees it again, and handles it twice. A consumer whose processing
 * can outlast the visibility timeout (its function timeout, or what its runs take) is fed duplicates
 * by the queue's setting, whatever made the processing longer: AWS advises a visibility timeout of at
 * least six times a Lambda consumer's timeout. The setting to fix is the queue's.
 */
export interface OutlastedVisibility {
  queue: string;
  consumer: string;
  visibilitySeconds: number;
  /** How long the consumer may work on one message: its timeout, or the longest its runs took. */
  processingSeconds: number;
  /** What says so: its timeout setting (the change that wrote it), or its run durations. */
  processingFrom: { change: Change } | { durations: string };
}

/** SQS's visibility timeout when nothing says it was set. */
const DEFAULT_VISIBILITY_S = 30;
/** AWS's advice: a visibility timeout of at least this many times the consumer's timeout. */
export const VISIBILITY_PER_TIMEOUT = 6;

const visibilitySetting = /visibility.?timeout\W{0,4}(\d+)/i;

/** The visibility timeout a queue runs with: the latest its changes state, else SQS's default. */
const visibilityOf = (board: EvidenceBoard, queue: string): number => {
  const stated = board.changes
    .filter((change) => change.service === queue)
    .flatMap((change) => {
      const found = visibilitySetting.exec(`${change.summary} ${JSON.stringify(change.details ?? {})}`);
      return found ? [{ at: change.at, seconds: Number(found[1]) }] : [];
    })
    .sort((a, b) => b.at - a.at)[0];
  return stated?.seconds ?? DEFAULT_VISIBILITY_S;
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

/** The longest run of the consumer its Duration metric (milliseconds) shows. */
const longestRun = (board: EvidenceBoard, consumer: string): number | undefined => {
  const values = board.series.filter((series) => series.service === consumer && /^Duration$/i.test(series.name)).flatMap((series) => series.points.map(([, value]) => value));
  return values.length > 0 ? Math.max(...values) / 1000 : undefined;
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
  const visibilitySeconds = visibilityOf(board, queue);
  const timeout = writtenTimeout(board, consumer);
  if (timeout && timeout.seconds > visibilitySeconds) return { queue, consumer, visibilitySeconds, processingSeconds: timeout.seconds, processingFrom: { change: timeout.change } };
  const longest = longestRun(board, consumer);
  if (longest !== undefined && longest > visibilitySeconds) return { queue, consumer, visibilitySeconds, processingSeconds: Math.round(longest), processingFrom: { durations: 'Duration' } };
  return undefined;
};

/** The mechanism, in plain words. */
export const outlastedVisibilityWords = ({ queue, consumer, visibilitySeconds, processingSeconds, processingFrom }: OutlastedVisibility): string => {
  const how = 'change' in processingFrom ? `its timeout is ${processingSeconds} s` : `its runs take up to ${processingSeconds} s`;
  return `${consumer} can work on a message longer than ${queue}'s visibility timeout of ${visibilitySeconds} s (${how}): the message becomes visible again while it is still being processed, is received again and handled twice (duplicates). ${queue}'s visibility timeout must be longer than the processing (AWS advises ${VISIBILITY_PER_TIMEOUT} times a Lambda consumer's timeout).`;
};
