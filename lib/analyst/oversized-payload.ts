import { suspectChangeFor } from './explaining-change.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { computeKinds, dependenciesOf, kindOf } from './service-map.ts';
import { iso, SAME_TIME_MS, severityOfLine } from './signals.ts';
import { roseBy } from './readings.ts';

/**
 * Services cap what one message or result may weigh (a Step Functions state's input and output at
 * 256 KB, an SQS message at 256 KiB by default, a DynamoDB item at 400 KB, a request body at a
 * gateway's limit). A resource that refuses a payload for its size is not what changed: the payload
 * grew where it is made. Along what the refusing resource calls, the service whose bytes rose before
 * the refusals (its responses grew) made it grow, with the change just before; the link that hands
 * its output on is where a large payload should be replaced by a reference to it.
 */
export interface OversizedPayload {
  /** The resource that refuses the payload for its size. */
  refusing: string;
  /** Where the payload grew. */
  source: string;
  /** The service that hands the grown payload to the resource that refuses it. */
  carrier?: string;
  /** The refusal, in the refusing resource's words. */
  refusal: string;
  grew: Growth;
  change?: Change;
}

const sizeRefused =
  /DataLimitExceeded|size exceeding the maximum|exceed(s|ed|ing)? the maximum (number of bytes|(allowed )?size)|must be shorter than \d+ bytes|payload (is )?too large|Request ?Entity ?Too ?Large|MessageTooLarge|Item size has exceeded|(message|payload|item|request) size (limit )?exceeded/i;
const makers: ReadonlySet<string> = new Set([...computeKinds, 'external']);
/** A measure of how much data passes: bytes processed or sent, a response or message size. */
const sizeMeasure = /bytes|size/i;

/** Callees of `service`, nearest first, with the callee that leads to each. */
const calleesOf = (board: EvidenceBoard, service: string): { name: string; via: string }[] => {
  const found: { name: string; via: string }[] = [];
  const queue = dependenciesOf(board, service).map((name) => ({ name, via: name }));
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (next.name === service || found.some((known) => known.name === next.name)) continue;
    found.push(next);
    queue.push(...dependenciesOf(board, next.name).map((name) => ({ name, via: next.via })));
  }
  return found;
};

/** A measure of bytes at least this many times its level before: the data itself grew, not a busier hour. */
const GREW_FACTOR = 2;

interface Growth {
  measure: string;
  from: number;
  to: number;
  at: number;
}

/** A byte or size measure of `service` that at least doubled, by `by`. */
const bytesGrewAt = (board: EvidenceBoard, service: string, by: number): Growth | undefined => {
  for (const series of board.series.filter((candidate) => candidate.service === service && sizeMeasure.test(candidate.name))) {
    const onset = roseBy(series.points, GREW_FACTOR);
    if (onset && onset.at <= by + SAME_TIME_MS) {
      return { measure: series.name, from: onset.baseline, to: onset.level, at: onset.at };
    }
  }
  return undefined;
};

export const oversizedPayloadOf = (board: EvidenceBoard, refusing: string): OversizedPayload | undefined => {
  const refusals = board.logs.filter((line) => line.service === refusing && severityOfLine(line) >= 3 && sizeRefused.test(line.message));
  if (refusals.length === 0) return undefined;
  const firstRefusal = Math.min(...refusals.map((line) => line.at));
  const grown = calleesOf(board, refusing)
    // A queue or store only holds what it is given: the data is made by code, ours or a provider's.
    .filter((callee) => makers.has(kindOf(board, callee.name) ?? ''))
    .map((callee) => ({ callee, grew: bytesGrewAt(board, callee.name, firstRefusal) }))
    .filter((candidate): candidate is { callee: { name: string; via: string }; grew: Growth } => candidate.grew !== undefined);
  // The furthest along the calls is where the data is made; those before it pass it on.
  const made = grown.at(-1);
  if (!made) return undefined;
  const change = suspectChangeFor(board.changes, new Set([made.callee.name]), made.grew.at);
  const refusal = sizeRefused.exec(refusals[0]!.message)![0];
  return { refusing, source: made.callee.name, ...(made.callee.via !== made.callee.name ? { carrier: made.callee.via } : {}), refusal, grew: made.grew, ...(change ? { change } : {}) };
};

const round = (value: number): string => String(Math.round(value));

/** The mechanism, in plain words. */
export const oversizedPayloadWords = ({ refusing, source, carrier, refusal, grew, change }: OversizedPayload): string =>
  `The payload outgrew a size limit: ${refusing} refuses it (${refusal}) because what ${source} returns grew (${grew.measure} rose from ${round(grew.from)} to ${round(grew.to)} at ${iso(grew.at)})` +
  `${change ? ` after its ${change.kind} "${change.summary}"` : ''}; ${carrier ?? source} passes it on whole, where a reference to it (an S3 object) would stay under the limit.`;
