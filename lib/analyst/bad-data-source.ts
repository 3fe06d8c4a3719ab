import type { EvidenceBoard } from './evidence-board.ts';
import { callersOf, dependenciesOf } from './service-map.ts';
import { SAME_TIME_MS, type Signal } from './signals.ts';

/**
 * Bad data is the fault of whoever wrote it. A consumer that cannot read a record from a queue,
 * stream or table it shares with producers shows the symptom; the producer whose own log speaks of
 * the same item (the same unit, order or key) no later than the consumer failed on it wrote the
 * record. Items are matched by identifiers: tokens that mix letters and digits, or long numbers.
 */

/** Tokens that name one item: TRK-4471, ord_34kq9, 49657281934467. */
const identifier = /\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+\b|\b\d{6,}\b/g;

/** A record the consumer could not read: it would not parse or decode, or it was not what it should be. */
const unreadable = /decod|pars(e|ing)|deserializ|unmarshal|SyntaxError|Unexpected (end|token)|malformed|invalid (json|record|payload|message|data)|corrupt|truncat|schema/i;

const identifiersIn = (text: string): Set<string> => new Set(text.match(identifier) ?? []);

export const producerOfBadData = (board: EvidenceBoard, consumer: string, current: readonly Signal[]): string | undefined => {
  const failures = current.filter((signal) => signal.service === consumer && signal.kind === 'errors' && unreadable.test(signal.text));
  if (failures.length === 0) return undefined;
  const firstFailure = Math.min(...failures.map((signal) => signal.at));
  const items = new Set(
    board.logs.filter((line) => line.service === consumer && line.at >= firstFailure - SAME_TIME_MS).flatMap((line) => [...identifiersIn(line.message)]),
  );
  if (items.size === 0) return undefined;
  const carriers = dependenciesOf(board, consumer);
  const producers = [...new Set(carriers.flatMap((carrier) => callersOf(board, carrier)))].filter((name) => name !== consumer);
  // The record was written before it was read: only what a producer logged by the first failure counts.
  const wrote = producers.filter((producer) =>
    board.logs.some((line) => line.service === producer && line.at <= firstFailure && [...identifiersIn(line.message)].some((token) => items.has(token))),
  );
  return wrote.length === 1 ? wrote[0] : undefined;
};
