import type { EvidenceBoard } from './evidence-board.ts';
import { namesOwnFault } from './load-source.ts';
import { capacityRemovedAt } from './lowered-setting.ts';
import { labelsAt } from './mechanism.ts';
import type { Principle } from './principles.ts';
import { callersOf, computeKinds, dependenciesOf, kindOf } from './service-map.ts';
import { SAME_TIME_MS, type Signal } from './signals.ts';

/**
 * A resource that only passes work along (a queue, topic, stream, CDN, load balancer, API front)
 * and whose own evidence names no mechanism shows the fault of the code next to it: a backlog, an
 * old message or a filling dead-letter queue is the symptom of whoever handles the work, and a
 * front's errors are its origin's. So when the search ends at such a resource and no
 * change explains the trouble, it goes on to the neighbour that runs code and shows a substantial fault
 * of its own, the first to fail (its consumer, its origin), or the source its failures name (the
 * producer of what it cannot handle); a dead-letter queue stands for its source queue, the one the
 * map shows redriving into it or, when the map leaves it unconnected, the one named like it.
 */

/** Kinds that pass work along. A database or table does work of its own: its trouble is its load or its own fault (load-source.ts). */
const forwardingKinds = new Set(['sqs', 'sns', 'kinesis', 'cloudfront', 'elb', 'apigateway']);

/** How a dead-letter queue's name ends: its queue's name and a DLQ suffix. */
export const deadLetterSuffix = /[-_.]?(dlq|dead[-_.]?letter(s|[-_.]?queue)?)$/i;

/** The queue a dead-letter queue the map does not connect belongs to: the one whose name it carries. */
export const queueNamedLike = (board: EvidenceBoard, deadLetters: string): string | undefined => {
  if (!deadLetterSuffix.test(deadLetters) || callersOf(board, deadLetters).length > 0) return undefined;
  const stem = deadLetters.replace(deadLetterSuffix, '');
  const named = (board.services ?? []).filter((node) => node.name !== deadLetters && node.kind === kindOf(board, deadLetters) && node.name.startsWith(stem));
  return named.length === 1 ? named[0]!.name : undefined;
};

const runsCode = (board: EvidenceBoard, service: string): boolean => computeKinds.has(kindOf(board, service) ?? '');

/** What a queue's consumer logs of the messages it takes: their receive count, redelivery, its visibility timeout, its receive loop. */
const consumerWords = /receive ?count|ReceiveMessage|redeliver|visibility ?timeout|\bdequeue|sqs consumer/i;

/** Whether the service's own lines show it taking messages off a queue. */
const takesWorkOff = (board: EvidenceBoard, service: string): boolean => board.logs.some((line) => line.service === service && consumerWords.test(line.message));

export const handlerBehind = (board: EvidenceBoard, resource: string, current: readonly Signal[], visited: readonly string[]): { service: string; principle: Principle } | undefined => {
  if (!forwardingKinds.has(kindOf(board, resource) ?? '')) return undefined;
  const own = current.filter((signal) => signal.service === resource);
  if (labelsAt(own).length > 0 || namesOwnFault(board, own, resource)) return undefined;
  // A dead-letter queue holds what its source queue's consumer gave up on: that queue's neighbours handle its work.
  const sourceQueues = deadLetterSuffix.test(resource) ? callersOf(board, resource).filter((caller) => kindOf(board, caller) === 'sqs') : [];
  const carriers = [resource, queueNamedLike(board, resource) ?? [], ...sourceQueues].flat();
  const neighbours = [...new Set(carriers.flatMap((carrier) => [...callersOf(board, carrier), ...dependenciesOf(board, carrier)]))].filter(
    (name) => !visited.includes(name) && runsCode(board, name),
  );
  const ownFault = (service: string) =>
    current.filter((signal) => signal.service === service && signal.substantial && signal.kind !== 'mentioned' && signal.kind !== 'trace' && signal.kind !== 'alarm');
  // A neighbour left with no capacity to run (its tasks set to none) fails from that moment, whether or not it measures it.
  const carrierOnset = Math.min(...own.map((signal) => signal.at));
  const removedAt = (service: string) => (Number.isFinite(carrierOnset) ? (capacityRemovedAt(board, service, carrierOnset)?.at ?? Infinity) : Infinity);
  const faulty = neighbours
    .map((name) => ({ name, onset: Math.min(...ownFault(name).map((signal) => signal.at), removedAt(name)) }))
    .filter(({ onset }) => Number.isFinite(onset))
    .sort((a, b) => a.onset - b.onset || a.name.localeCompare(b.name));
  // Of those that fail first, together, the one that takes the work off the carrier handles it: its producer only puts work on.
  const first = faulty.filter(({ onset }) => onset <= faulty[0]!.onset + SAME_TIME_MS);
  const handler = (first.length > 1 ? first.find(({ name }) => takesWorkOff(board, name)) : undefined)?.name ?? faulty[0]?.name;
  if (!handler) return undefined;
  // A handler whose failures name where the work came from (another user of the carrier) points there: that source sent what it cannot handle.
  const sources = [...new Set(current.filter((signal) => signal.kind === 'mentioned' && signal.from === handler && signal.substantial && neighbours.includes(signal.service)).map((signal) => signal.service))];
  return sources.length === 1 ? { service: sources[0]!, principle: 'handler-names-source' } : { service: handler, principle: 'carrier-shows-handler-fault' };
};
