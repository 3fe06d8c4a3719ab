import { causesIn } from './cause-signals.ts';
import type { EvidenceBoard, LogRecord } from './evidence-board.ts';
import { dataSourcesOf } from './service-map.ts';
import { iso, SAME_TIME_MS, windowOf, type Signal } from './signals.ts';
import { outOfDate } from './stale-data.ts';
import { quoteMessage } from '../text/quote.ts';

/**
 * A writer that says it wrote its last known values in place of what it could not get (a feed
 * whose field it no longer finds, a source that did not answer) hands on data that looks sound
 * and is old. A reader that then finds its data wrong (a mismatch, a check failing) or old shows
 * it, though nothing failed anywhere: the writer on the data's way that began keeping old values
 * shortly before the reader's complaint, after evidence from before that shows none of it, is where it starts.
 */

/** Words by which a writer says it kept old values: "using last known value", "falling back to cached", "carried_forward=41". */
const keptOldValues =
  /\b(us(e|es|ed|ing)|keep(s|ing)?|kept|reus(e|es|ed|ing)|serv(e|es|ed|ing)|fall(s|ing)? ?back to|fell back to|carr(y|ies|ied|ying)[ _-]?forward)\s+(the |its |a |their )?(last[ -]?known|previous|cached|stale|prior)\b|\bcarried[_ -]?forward[=:] ?[1-9]/i;

/** Evidence this long before a writer first kept old values, without a word of it, says keeping them is new. */
const NEW_AFTER_MS = 60 * 60_000;

/** A writer turns to its old values within this long before a reader notices what they do. */
const NOTICED_WITHIN_MS = 24 * 60 * 60_000;

export interface KeptOldValues {
  reader: string;
  writer: string;
  since: number;
  line: LogRecord;
}

/** Records written twice are not old values: a copy is no staler than its original. */
const duplicated = /duplicate|twice|double/i;

const complainsOfWrongOrOldData = (signal: Signal): boolean =>
  (signal.kind === 'errors' || signal.kind === 'alarm' || signal.kind === 'metric' || signal.kind === 'trend') &&
  !duplicated.test(signal.text) &&
  (causesIn(signal.text).some((hit) => hit.category === 'data') || outOfDate.test(signal.text));

export const keptOldValuesBehind = (board: EvidenceBoard, reader: string, current: readonly Signal[]): KeptOldValues | undefined => {
  const complaints = current.filter((signal) => signal.service === reader && complainsOfWrongOrOldData(signal));
  if (complaints.length === 0) return undefined;
  const noticedAt = Math.min(...complaints.map((signal) => signal.at));
  const seenFrom = windowOf(board)?.start ?? noticedAt;
  const found = dataSourcesOf(board, reader).flatMap((writer) => {
    const own = board.logs.filter((line) => line.service === writer);
    const kept = own.filter((line) => keptOldValues.test(line.message) && line.at <= noticedAt + SAME_TIME_MS && noticedAt - line.at <= NOTICED_WITHIN_MS);
    const first = kept[0];
    if (!first) return [];
    // The evidence from before said nothing of the kind: keeping old values is new, not its habit.
    const habit = own.some((line) => line.at < first.at && keptOldValues.test(line.message));
    return !habit && first.at - seenFrom >= NEW_AFTER_MS ? [{ reader, writer, since: first.at, line: first }] : [];
  });
  return found.length === 1 ? found[0] : undefined;
};

export const keptOldValuesWords = (kept: KeptOldValues): string =>
  `${kept.writer} has written its last known values in place of fresh ones since ${iso(kept.since)} ("${quoteMessage(kept.line.message)}"): what ${kept.reader} reads from it is stale, so it no longer matches though nothing fails.`;
