import type { EvidenceBoard } from './evidence-board.ts';
import { CLOSE_CHANGE_MS } from './explaining-change.ts';
import { labelsAt } from './mechanism.ts';
import { callersOf, kindOf } from './load-source.ts';
import type { Signal } from './signals.ts';

/**
 * A queue, topic or stream carries work from producers to consumers; it fails rarely on its own.
 * A backlog, an old message or a growing dead-letter queue is the symptom of whoever handles the
 * work: the consumer that fails on it (or the target the consumer fails on). So when the search
 * ends at a carrier that nothing changed, the consumer with faults of its own is where to go on.
 */
const carrierKinds = new Set(['sqs', 'sns', 'kinesis']);

const deadLetterSuffix = /[-_.]?(dlq|dead[-_.]?letter(s|[-_.]?queue)?)$/i;

/** Kinds that run code and so can consume work. */
const workerKinds = new Set(['ecs', 'eks', 'lambda', 'ec2', 'other']);

/**
 * The queue a dead-letter queue serves: the one the map links to it, else the one whose name it
 * carries with a dead-letter suffix.
 */
const sourceQueueOf = (board: EvidenceBoard, deadLetters: string): string | undefined => {
  const linked = callersOf(board, deadLetters).find((name) => carrierKinds.has(kindOf(board, name) ?? ''));
  if (linked) return linked;
  if (!deadLetterSuffix.test(deadLetters)) return undefined;
  const stem = deadLetters.replace(deadLetterSuffix, '');
  const named = (board.services ?? []).filter((node) => node.name !== deadLetters && carrierKinds.has(node.kind ?? '') && node.name.startsWith(stem));
  return named.length === 1 ? named[0]!.name : undefined;
};

/** The one consumer of the carrier's work that shows faults of its own, if the carrier is where the search ended. */
export const consumerBehind = (board: EvidenceBoard, carrier: string, current: readonly Signal[]): string | undefined => {
  if (!carrierKinds.has(kindOf(board, carrier) ?? '')) return undefined;
  const queue = sourceQueueOf(board, carrier) ?? carrier;
  const faulty = (service: string) => current.some((signal) => signal.service === service && signal.kind !== 'mentioned' && signal.kind !== 'alarm');
  const handlers = callersOf(board, queue).filter((name) => workerKinds.has(kindOf(board, name) ?? '') && faulty(name));
  return handlers.length === 1 ? handlers[0] : undefined;
};

/**
 * A CDN, load balancer or API front forwards requests to its origins: its errors are theirs unless
 * its own evidence says why (an expired certificate, a throttle). When the search ends at such a
 * front that nothing changed, the origin that changed just before (a bucket policy, a release), or
 * its only origin, is where to go on.
 */
const frontKinds = new Set(['cloudfront', 'elb', 'apigateway']);

export const originBehind = (board: EvidenceBoard, front: string, current: readonly Signal[], onset: number): string | undefined => {
  if (!frontKinds.has(kindOf(board, front) ?? '')) return undefined;
  if (labelsAt(current.filter((signal) => signal.service === front)).length > 0) return undefined;
  const origins = board.services?.find((node) => node.name === front)?.dependsOn ?? [];
  const changed = origins.filter((origin) => board.changes.some((change) => change.service === origin && change.at <= onset && onset - change.at <= CLOSE_CHANGE_MS));
  if (changed.length === 1) return changed[0];
  return origins.length === 1 ? origins[0] : undefined;
};
