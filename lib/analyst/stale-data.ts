import { upstreamWriters } from './bad-data-source.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { latestBreakingChangeBefore } from './explaining-change.ts';
import { scheduleWrittenBy } from './schedule-expression.ts';
import { callersOf } from './service-map.ts';
import type { Signal } from './signals.ts';

/**
 * Stale data is the fault of the writer that stopped refreshing it. A reader that finds what it reads
 * out of date (stale, older than its limit, an earlier date than expected) works as built: the data
 * it is given is old. Upstream along the data's way are the writers of what it reads and whatever
 * starts them (a schedule, a rule); the latest change to one of them, within a week before the reader
 * found the data old, is where the refreshing stopped or slowed. A change at the reader itself
 * does not make its data older.
 */

/** Said of data that is out of date; not of connections, handles or locks, which are a stale view of a dependency. */
export const outOfDate =
  /\bstale\b(?! (connection|socket|handle|file|element|lock|pid|dns|credential|token|session))|out of date|outdated|not (been )?(refreshed|updated|synced)|\bis \d+\s?[hmd]\w* old\b|\bold \(max\b|\b(latest|last)\b.{0,40}\b(date|as ?of)\b.{0,40}\bexpected\b|data.?age|\bfreshness\b|\byesterday'?s (numbers|figures|data|totals)\b/i;

/** A writer's pipeline changes its cadence days before anyone reads data old enough to complain of. */
const REFRESH_CHANGE_REACH_MS = 7 * 24 * 60 * 60_000;

export interface StaleDataWriter {
  reader: string;
  /** The writer or what starts it, where the change was made. */
  service: string;
  /** The way from the reader's data to that service: the writer, then what starts it when that is where the change is. */
  path: string[];
  change: Change;
  foundOldAt: number;
}

const complainsOfOldData = (signal: Signal): boolean => (signal.kind === 'errors' || signal.kind === 'alarm' || signal.kind === 'metric' || signal.kind === 'trend') && outOfDate.test(signal.text);

/**
 * `reportedAt`: when a person reported the reader's data out of date ("the morning email shows
 * yesterday's numbers"), which is a complaint of its own though no measure or line of the reader says so.
 */
export const staleDataWriter = (board: EvidenceBoard, reader: string, current: readonly Signal[], reportedAt?: number): StaleDataWriter | undefined => {
  const complaints = current.filter((signal) => signal.service === reader && complainsOfOldData(signal));
  if (complaints.length === 0 && reportedAt === undefined) return undefined;
  const foundOldAt = Math.min(...complaints.map((signal) => signal.at), reportedAt ?? Number.POSITIVE_INFINITY);
  // Other readers that find the same data old are symptoms as well, not writers.
  const alsoOld = new Set(current.filter(complainsOfOldData).map((signal) => signal.service));
  const writers = upstreamWriters(board, reader).filter((writer) => !alsoOld.has(writer));
  // A writer whose writes are refused by what it writes to (throttled, denied) did not stop refreshing: the fault is further on.
  if (writers.some((writer) => current.some((signal) => signal.kind === 'mentioned' && signal.from === writer && signal.substantial))) return undefined;
  const paths = writers
    .flatMap((writer) => [[writer], ...callersOf(board, writer).filter((starter) => starter !== reader && !alsoOld.has(starter)).map((starter) => [writer, starter])]);
  const change = latestBreakingChangeBefore(board.changes, foundOldAt, REFRESH_CHANGE_REACH_MS, (candidate) => paths.some((path) => path.at(-1) === candidate.service));
  const path = change && paths.find((candidate) => candidate.at(-1) === change.service);
  return change && path ? { reader, service: change.service, path, change, foundOldAt } : undefined;
};

export const staleDataWords = (stale: StaleDataWriter): string => {
  const schedule = scheduleWrittenBy(stale.change);
  const writer = stale.path[0]!;
  const starts = stale.service === writer ? '' : `, which ${stale.service} starts,`;
  return `${stale.reader} reads stale data: ${writer}${starts} has not refreshed it in time since ${stale.service} changed${schedule ? `; ${schedule}` : ''}.`;
};
