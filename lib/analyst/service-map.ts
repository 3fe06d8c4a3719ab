import type { EvidenceBoard } from './evidence-board.ts';
import { neighboursOf } from './signals.ts';

/** Reading the service map the evidence gives: what a service is, what it calls, who calls it. */

/** Kinds that run code. Everything else in the map is a resource that code uses. */
export const computeKinds: ReadonlySet<string> = new Set(['ecs', 'eks', 'lambda', 'ec2']);

export const kindOf = (board: EvidenceBoard, service: string): string | undefined => board.services?.find((node) => node.name === service)?.kind;

export const dependenciesOf = (board: EvidenceBoard, service: string): string[] => board.services?.find((node) => node.name === service)?.dependsOn ?? [];

export const callersOf = (board: EvidenceBoard, service: string): string[] => (board.services ?? []).filter((node) => node.dependsOn.includes(service)).map((node) => node.name);

/** Kinds that carry work to whoever takes it from them: a consumer depends on its queue, yet is sent its work by it. */
export const carrierKinds: ReadonlySet<string> = new Set(['sqs', 'sns', 'kinesis']);

/**
 * Where work that arrives at `service` is done: its neighbours, and, when it carries work to the
 * services that take it (a queue), what those services call to do it (the database a queue's
 * consumer writes to).
 */
export const workReachOf = (board: EvidenceBoard, service: string): Set<string> => {
  const near = neighboursOf(board, service);
  if (!carrierKinds.has(kindOf(board, service) ?? '')) return near;
  return new Set([...near, ...callersOf(board, service).flatMap((taker) => dependenciesOf(board, taker))]);
};

/**
 * `service`, its neighbours, and the other users of every resource next to it: what happens to a
 * shared resource (a replay into a stream, a rotated secret) reaches everyone who uses it.
 */
export const withSharedResourceUsers = (board: EvidenceBoard, service: string): Set<string> => {
  const near = neighboursOf(board, service);
  const shared = [...near].filter((name) => name !== service && !computeKinds.has(kindOf(board, name) ?? ''));
  return new Set([...near, ...shared.flatMap((name) => [...neighboursOf(board, name)])]);
};

/**
 * The code whose data `service` shows: what it calls, directly or further on, and what writes the
 * resources any of them read (the job that loads a table a service quotes from). Nearest first.
 */
export const dataSourcesOf = (board: EvidenceBoard, service: string): string[] => {
  const reached: string[] = [];
  const queue = [service];
  while (queue.length > 0) {
    const current = queue.shift()!;
    const next = dependenciesOf(board, current);
    // A resource is written by code besides the one reading it: those writers are where its data comes from.
    const writers = computeKinds.has(kindOf(board, current) ?? '') ? [] : callersOf(board, current);
    for (const name of [...next, ...writers]) {
      if (name === service || reached.includes(name)) continue;
      reached.push(name);
      queue.push(name);
    }
  }
  return reached.filter((name) => computeKinds.has(kindOf(board, name) ?? ''));
};
