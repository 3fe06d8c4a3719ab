import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-08-18T12:00:00.000Z';
const lines = linesFrom(START);

interface Shape {
  /** The consumer's timeout its change at minute 60 wrote. */
  timeout?: number;
  /** The visibility timeout the queue's creation states. */
  visibility?: number;
  /** Whether the consumer's logs show messages received again. */
  redelivered?: boolean;
}

/** A Lambda consumer of a queue whose timeout was raised at minute 60; its runs take about 70 s from then. */
const board = ({ timeout = 300, visibility = 30, redelivered = true }: Shape = {}) =>
  boardFrom({
    brief: 'A teammate asks: "why are some parcels shipped twice since yesterday?"',
    services: [
      { name: 'shop-api', kind: 'ecs', dependsOn: ['dispatch-queue'] },
      { name: 'dispatch-queue', kind: 'sqs' },
      { name: 'dispatcher', kind: 'lambda', dependsOn: ['dispatch-queue', 'carrier-api'] },
      { name: 'carrier-api', kind: 'external' },
    ],
    changes: [
      { service: 'dispatch-queue', timestamp: '2026-01-10T10:00:00.000Z', kind: 'infrastructure', summary: `queue dispatch-queue created (VisibilityTimeout ${visibility}s, redrive after 5 receives)` },
      { service: 'dispatcher', timestamp: at(START, 60), kind: 'config', summary: `UpdateFunctionConfiguration dispatcher: Timeout 30 -> ${timeout} s` },
    ],
    logs: sorted([
      ...lines('dispatcher', 0, 4, 30, 'INFO', (index) => `order o${index} dispatched consignment c${index} receiveCount=1`),
      ...lines('dispatcher', 62, 3, 19, 'WARN', (index) => (redelivered ? `order o${100 + index % 6} dispatched again: consignment c${200 + index} created, ApproximateReceiveCount=${2 + (index % 3)}` : `order o${100 + index} dispatch slow: carrier took 65 s`)),
    ]),
    metrics: [
      { service: 'dispatcher', name: 'Duration', points: series(START, 120, step(60, 20_000, 70_000)) },
      { service: 'dispatch-queue', name: 'NumberOfMessagesSent', points: series(START, 120, () => 40) },
      { service: 'dispatch-queue', name: 'NumberOfMessagesReceived', points: series(START, 120, step(60, 40, redelivered ? 100 : 40)) },
    ],
  });

describe('a consumer that works on a message longer than its queue hides it', () => {
  it('is handed the message again: the queue’s visibility timeout is the fault, and is raised above the processing', () => {
    const diagnosis = diagnose(board());
    expect(diagnosis.root).toBe('dispatch-queue');
    expect(diagnosis.draft.rootCause.category).toBe('config');
    expect(diagnosis.principles).toContain('redelivered-messages');
    expect(diagnosis.draft.rootCause.summary).toContain("dispatcher can work on a message longer than dispatch-queue's visibility timeout of 30 s (its timeout is 300 s)");
    expect(diagnosis.draft.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['apply-fix dispatch-queue']);
    expect(diagnosis.draft.remediation[0]!.detail).toContain('to at least 1800 s');
  });

  it('is not the queue’s fault when nothing is handled twice, or the queue hides messages longer than the processing takes', () => {
    for (const shape of [{ redelivered: false }, { visibility: 1800 }]) {
      expect(diagnose(board(shape)).root, JSON.stringify(shape)).not.toBe('dispatch-queue');
    }
  });
});
