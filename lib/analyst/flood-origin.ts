import type { Change, EvidenceBoard } from './evidence-board.ts';
import { couldBreak, CLOSE_CHANGE_MS } from './explaining-change.ts';
import { callersOf, carrierKinds, dependenciesOf, kindOf } from './service-map.ts';
import { iso, SAME_TIME_MS, type Signal } from './signals.ts';

export interface Flood {
  /** Where the work was generated: the service whose change let the flood loose. */
  origin: string;
  change: Change;
  /** The services the flood came through, from the root's sender up to the last that surged. */
  path: string[];
  /** The surge the flood shows at the last service it came through. */
  surge: Signal;
}

/** Who sends `service` its work: its callers, and the carriers it takes work from. */
const sendersOf = (board: EvidenceBoard, service: string): string[] => [
  ...callersOf(board, service),
  ...dependenciesOf(board, service).filter((name) => carrierKinds.has(kindOf(board, name) ?? '')),
];

/** The first substantial, ongoing rise of a service's demand (what it is sent or passes on at least doubled) by `by`. */
const surgeOf = (signals: readonly Signal[], service: string, by: number): Signal | undefined =>
  signals
    .filter((signal) => signal.service === service && signal.kind === 'demand' && signal.substantial && signal.ongoing && signal.at <= by + SAME_TIME_MS)
    .sort((a, b) => a.at - b.at)[0];

/**
 * A service in trouble while the work sent to it surged did not make its own load: the work was
 * generated upstream. The flood is followed up through the senders whose demand surged no later than
 * the trouble began; it was let loose by the one change, just before the surge, at the last of them
 * or at one of its own senders (an import switched to a full run, a publisher's new fan-out). With no
 * such change, or two, the flood's origin is left open.
 */
export const floodOrigin = (board: EvidenceBoard, signals: readonly Signal[], root: string, troubleAt: number): Flood | undefined => {
  const path: string[] = [];
  let surge: Signal | undefined;
  let at = root;
  for (;;) {
    const surged = sendersOf(board, at)
      .filter((sender) => sender !== root && !path.includes(sender))
      .flatMap((sender) => surgeOf(signals, sender, troubleAt) ?? []);
    // Two senders surging at once are two floods or one fan-out: which, the map cannot say.
    if (surged.length !== 1) break;
    surge = surged[0]!;
    at = surge.service;
    path.push(at);
  }
  if (!surge) return undefined;
  const top = at;
  const candidates = [top, ...sendersOf(board, top).filter((sender) => sender !== root && !path.includes(sender))];
  const changes = board.changes.filter(
    (change) => candidates.includes(change.service) && couldBreak(change) && change.at <= surge.at + SAME_TIME_MS && surge.at - change.at <= CLOSE_CHANGE_MS,
  );
  if (new Set(changes.map((change) => change.service)).size !== 1) return undefined;
  const change = changes.sort((a, b) => b.at - a.at)[0]!;
  return { origin: change.service, change, path: change.service === top ? path : [...path, change.service], surge };
};

export const floodWords = (flood: Flood, root: string): string =>
  `${flood.origin}'s ${flood.change.kind} change at ${iso(flood.change.at)} let loose a flood of work: ${flood.surge.description}, ` +
  `and ${root}, sent far more than it usually takes, is overloaded by it.`;
