import type { EvidenceBoard, LogRecord } from './evidence-board.ts';
import { callersOf, computeKinds, dependenciesOf, kindOf } from './service-map.ts';
import { SAME_TIME_MS, severityOfLine, type Signal } from './signals.ts';

/**
 * Bad data is the fault of whoever wrote it first. A consumer that cannot read a record from a
 * queue, stream or table it shares with producers, or finds it does not match, shows the symptom;
 * going upstream along the data's way (the writers of what it reads, and the writers of what they
 * read), the writer whose own log speaks of the same item (the same unit, order or key) first, no
 * later than the consumer failed on it, wrote the record; those after it passed it on. Items are matched by identifiers: tokens that mix letters and digits, or long numbers.
 * Where no writer's log names the item, the one writer upstream released shortly before the first
 * failure, while the consumer itself was not, changed what it writes.
 */

/** Tokens that name one item: TRK-4471, ord_34kq9, 49657281934467. */
const identifier = /\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+\b|\b\d{6,}\b/g;

/** A record the consumer could not read: it would not parse or decode, or it was not what it should be. */
const unreadable = /decod|pars(e|ing)|deserializ|unmarshal|KeyError|missing (required )?(field|key|property)|unrecogni[sz]ed (field|property)|UnrecognizedProperty|SyntaxError|Unexpected (end|token)|malformed|invalid (json|record|payload|message|data)|corrupt|truncat|schema|mismatch/i;

/**
 * Upstream along the data's way: the writers of what `reader` reads, and the writers of what they
 * read in turn. A writer that runs no code (a topic or bus that fans out into the reader's queue)
 * only passes on what is published into it: its publishers write too.
 */
export const upstreamWriters = (board: EvidenceBoard, reader: string): string[] => {
  const found: string[] = [];
  const visit = (current: string) => {
    const passesOn = current !== reader && !computeKinds.has(kindOf(board, current) ?? '');
    for (const writer of [...dependenciesOf(board, current).flatMap((store) => callersOf(board, store)), ...(passesOn ? callersOf(board, current) : [])]) {
      if (writer === reader || found.includes(writer)) continue;
      found.push(writer);
      visit(writer);
    }
  };
  visit(reader);
  return found;
};

/** A timestamp a line carries (Lambda's `2026-07-21T19:07:43.856Z`) names a moment, not an item. */
const timestamp = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?/g;

const identifiersIn = (text: string): Set<string> => new Set(text.replace(timestamp, ' ').match(identifier) ?? []);

/** An error line of a record the consumer could not read. */
const failedToRead = (line: LogRecord): boolean => severityOfLine(line) >= 3 && unreadable.test(line.message);

/**
 * What the consumer's successful lines name. A line a failure follows within moments ("received
 * message m-17" before "failed to parse m-17") announces the attempt that failed, not a success.
 */
const namedBySuccesses = (board: EvidenceBoard, consumer: string, failingLines: readonly LogRecord[]): Set<string> =>
  new Set(
    board.logs
      .filter((line) => line.service === consumer && severityOfLine(line) < 2 && !failingLines.some((failure) => failure.at >= line.at && failure.at - line.at <= SAME_TIME_MS))
      .flatMap((line) => [...identifiersIn(line.message)]),
  );

/**
 * The items the consumer failed on: identifiers in its lines from the first failure on. Where its
 * failing lines name items its successful lines also name (a tenant, a batch), those name a group of
 * records, not the bad one; the rest of what the failing lines name is the record, if any is left.
 */
const itemsFailedOn = (board: EvidenceBoard, consumer: string, firstFailure: number): Set<string> => {
  const since = board.logs.filter((line) => line.service === consumer && line.at >= firstFailure - SAME_TIME_MS);
  const failingLines = since.filter(failedToRead);
  const succeeded = namedBySuccesses(board, consumer, failingLines);
  const ownRecord = failingLines.flatMap((line) => [...identifiersIn(line.message)]).filter((token) => !succeeded.has(token));
  return ownRecord.length > 0 ? new Set(ownRecord) : new Set(since.flatMap((line) => [...identifiersIn(line.message)]));
};

/** Failing lines an item must be named in to be the record that fails on every retry. */
const MIN_REPEATS = 2;

/**
 * The items a consumer's unreadable failures name again and again, most often first: the record that
 * fails on every retry, whose writer's own lines name it too. Items its successful lines also name
 * (a tenant, a queue) name a group, and a token named once (a request id) is one attempt's.
 */
export const repeatedFailedItems = (board: EvidenceBoard, consumer: string): string[] => {
  const failingLines = board.logs.filter((line) => line.service === consumer && failedToRead(line));
  const succeeded = namedBySuccesses(board, consumer, failingLines);
  const counts = new Map<string, number>();
  for (const line of failingLines) {
    for (const token of identifiersIn(line.message)) if (!succeeded.has(token)) counts.set(token, (counts.get(token) ?? 0) + 1);
  }
  return [...counts.entries()].filter(([, count]) => count >= MIN_REPEATS).sort((a, b) => b[1] - a[1]).map(([token]) => token);
};

/** A writer's token names the item, or the item is one part of what it names (`upl_9f31` for `upl_9f31-row-37`). */
const namesItem = (token: string, items: ReadonlySet<string>): boolean =>
  items.has(token) || [...items].some((item) => item.startsWith(`${token}-`) || item.startsWith(`${token}_`));

/** Changes that can change what a writer writes: its code, its settings, or how its stack is defined (a route's target that reshapes each event). */
const shapesWhatItWrites = new Set(['deploy', 'config', 'infrastructure', 'feature-flag']);

/** A writer's release this long before a reader first failed on what it wrote is what changed the records. */
const RELEASE_REACH_MS = 30 * 60_000;

/** The one writer upstream released shortly before the consumer's first failure, when the consumer was not released since. */
const releasedWriter = (board: EvidenceBoard, consumer: string, firstFailure: number): { service: string; wroteAt: number; readAt: number } | undefined => {
  const releasesBefore = (service: string) => board.changes.filter((change) => change.service === service && shapesWhatItWrites.has(change.kind) && change.at <= firstFailure && firstFailure - change.at <= RELEASE_REACH_MS);
  const released = upstreamWriters(board, consumer).flatMap((writer) => releasesBefore(writer).map((change) => ({ writer, at: change.at })));
  const writers = new Set(released.map(({ writer }) => writer));
  if (writers.size !== 1) return undefined;
  const wroteAt = Math.max(...released.map(({ at }) => at));
  if (releasesBefore(consumer).some((change) => change.at >= wroteAt)) return undefined;
  return { service: released[0]!.writer, wroteAt, readAt: firstFailure };
};

/** The consumer's failures on records it could not read, first first. */
export const unreadableFailuresAt = (current: readonly Signal[], consumer: string): Signal[] =>
  current.filter((signal) => signal.service === consumer && signal.kind === 'errors' && unreadable.test(signal.text)).sort((a, b) => a.at - b.at);

/** In plain words: the reader fails on what the writer wrote, as its first such failure says. */
export const unreadableWords = (writer: string, reader: string, failure: Signal): string => `${reader} cannot read what ${writer} writes: ${failure.description}.`;

export const producerOfBadData = (board: EvidenceBoard, consumer: string, current: readonly Signal[]): { service: string; wroteAt: number; readAt: number } | undefined => {
  const failures = unreadableFailuresAt(current, consumer);
  if (failures.length === 0) return undefined;
  const firstFailure = Math.min(...failures.map((signal) => signal.at));
  const items = itemsFailedOn(board, consumer, firstFailure);
  if (items.size === 0) return releasedWriter(board, consumer, firstFailure);
  // The record was written before it was read: only what a writer logged by the first failure counts.
  const firstWrite = (writer: string) =>
    Math.min(...board.logs.filter((line) => line.service === writer && line.at <= firstFailure && [...identifiersIn(line.message)].some((token) => namesItem(token, items))).map((line) => line.at));
  const wrote = upstreamWriters(board, consumer).filter((writer) => Number.isFinite(firstWrite(writer)));
  // Whoever wrote the item first put it there; those after it passed it on.
  const first = Math.min(...wrote.map(firstWrite));
  const originals = wrote.filter((writer) => firstWrite(writer) === first);
  return originals.length === 1 ? { service: originals[0]!, wroteAt: first, readAt: firstFailure } : wrote.length === 0 ? releasedWriter(board, consumer, firstFailure) : undefined;
};
