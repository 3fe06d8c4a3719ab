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
  /** A later change at the queue, as a Terraform plan writes it, that set its visibility timeout from one value to another. */
  replanned?: string;
  /** A release of the producer just before the duplicates began, tied to them by time alone. */
  producerRelease?: boolean;
}

/** A Lambda consumer of a queue whose timeout was raised at minute 60; its runs take about 70 s from then. */
const board = ({ timeout = 300, visibility = 30, redelivered = true, replanned, producerRelease }: Shape = {}) =>
  boardFrom({
    brief: redelivered ? 'A teammate asks: "why are some parcels shipped twice since yesterday?"' : 'A teammate asks: "why are some parcels late since yesterday?"',
    services: [
      { name: 'shop-api', kind: 'ecs', dependsOn: ['dispatch-queue'] },
      { name: 'dispatch-queue', kind: 'sqs' },
      { name: 'dispatcher', kind: 'lambda', dependsOn: ['dispatch-queue', 'carrier-api'] },
      { name: 'carrier-api', kind: 'external' },
    ],
    changes: [
      { service: 'dispatch-queue', timestamp: '2026-01-10T10:00:00.000Z', kind: 'infrastructure', summary: `queue dispatch-queue created (VisibilityTimeout ${visibility}s, redrive after 5 receives)` },
      { service: 'dispatcher', timestamp: at(START, 60), kind: 'config', summary: `UpdateFunctionConfiguration dispatcher: Timeout 30 -> ${timeout} s` },
      ...(producerRelease ? [{ service: 'shop-api', timestamp: at(START, 59), kind: 'deploy', summary: 'shop-api 7.4.0 rolled out' }] : []),
      ...(replanned
        ? [{ service: 'dispatch-queue', timestamp: '2026-08-12T09:00:00.000Z', kind: 'infrastructure', summary: 'queue moved onto the shared sqs module', details: { plan: { 'aws_sqs_queue.dispatch': { visibility_timeout_seconds: replanned } } } }]
        : []),
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

  it('is not hidden by a release of the producer tied to the duplicates by its timing alone', () => {
    expect(diagnose(board({ producerRelease: true })).root).toBe('dispatch-queue');
  });

  it('a timeout a change lowered below the processing, as a plan writes it, is put back to what it was', () => {
    const lowered = diagnose(board({ visibility: 2400, replanned: '2400 -> 30' })).draft;
    expect(lowered.rootCause.summary).toContain("visibility timeout of 30 s");
    expect(lowered.rootCause.summary).toContain('lowered it from 2400 s');
    expect(lowered.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['revert-config dispatch-queue']);
    // A value the processing did not fit in either is raised, not put back.
    const stillShort = diagnose(board({ visibility: 60, replanned: '60 -> 30' })).draft;
    expect(stillShort.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['apply-fix dispatch-queue']);
  });

  it('hides messages as long as its tags say when no change states its visibility timeout', () => {
    const tagged = (visibilityTimeout: string) => {
      const created = board();
      return {
        ...created,
        changes: created.changes.filter((change) => !/created/.test(change.summary)),
        services: created.services!.map((node) => (node.name === 'dispatch-queue' ? { ...node, tags: { visibilityTimeout } } : node)),
      };
    };
    expect(diagnose(tagged('1800')).root).not.toBe('dispatch-queue');
    expect(diagnose(tagged('30')).root).toBe('dispatch-queue');
  });

  it('is not the queue’s fault when nothing is handled twice, or the queue hides messages longer than the processing takes', () => {
    for (const shape of [{ redelivered: false }, { visibility: 1800 }]) {
      expect(diagnose(board(shape)).root, JSON.stringify(shape)).not.toBe('dispatch-queue');
    }
  });
});

/** An ECS worker whose release at minute 60 made each message wait on a slow check; only its own lines say how long a run takes. */
const releasedBoard = ({ visibility = 30, released = true }: { visibility?: number; released?: boolean } = {}) =>
  boardFrom({
    brief: 'A teammate asks: "why do customers get two shipping e-mails since this morning?"',
    services: [
      { name: 'shop-api', kind: 'ecs', dependsOn: ['ship-queue'] },
      { name: 'ship-queue', kind: 'sqs' },
      { name: 'ship-queue-dlq', kind: 'sqs' },
      { name: 'ship-worker', kind: 'ecs', dependsOn: ['ship-queue', 'mail-provider'] },
      { name: 'mail-provider', kind: 'external' },
    ],
    changes: [
      { service: 'ship-queue', timestamp: '2026-01-10T10:00:00.000Z', kind: 'infrastructure', summary: `queue ship-queue created (VisibilityTimeout ${visibility}s, redrive after 4 receives to ship-queue-dlq)` },
      ...(released ? [{ service: 'ship-worker', timestamp: at(START, 55), kind: 'deploy', summary: 'ship-worker 3.2.0 rolled out: screen each order before shipping' }] : []),
    ],
    logs: sorted([
      ...lines('ship-worker', 0, 4, 14, 'INFO', (index) => `order o${index} shipped, message deleted; took ${3000 + index * 50}ms`),
      ...lines('ship-worker', 60, 3, 20, 'INFO', (index) => `order o${100 + index} screened and shipped; took ${62000 + index * 400}ms`),
      ...lines('ship-worker', 62, 3, 19, 'WARN', (index) => `order o${100 + (index % 6)} shipped again: ApproximateReceiveCount=${2 + (index % 3)}`),
    ]),
    metrics: [
      { service: 'ship-queue', name: 'NumberOfMessagesSent', points: series(START, 120, () => 40) },
      { service: 'ship-queue', name: 'NumberOfMessagesReceived', points: series(START, 120, step(62, 40, 100)) },
      { service: 'ship-queue-dlq', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, (minute) => (minute < 70 ? 0 : minute - 70)) },
    ],
  });

describe('a consumer whose release made its runs outlast the visibility timeout', () => {
  it('is where the duplicates start, and the queue’s visibility timeout is still what to raise', () => {
    const diagnosis = diagnose(releasedBoard());
    expect(diagnosis.root).toBe('ship-worker');
    expect(diagnosis.draft.rootCause.category).toBe('deploy');
    expect(diagnosis.principles).toContain('redelivered-messages');
    expect(diagnosis.draft.rootCause.summary).toContain("ship-worker can work on a message longer than ship-queue's visibility timeout of 30 s (its runs take up to 70 s, by its log lines, since ship-worker 3.2.0 rolled out");
    expect(diagnosis.draft.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['apply-fix ship-queue']);
  });

  it('without a release, is the queue’s setting; with a visibility timeout longer than its runs, is no redelivery', () => {
    expect(diagnose(releasedBoard({ released: false })).root).toBe('ship-queue');
    expect(diagnose(releasedBoard({ visibility: 600 })).principles).not.toContain('redelivered-messages');
  });
});

/** A worker whose receive batch was raised the evening before, worked through one message at a time, outlasts the queue's 30 s from minute 30 on. */
const batchBoard = ({ reported = true, raised = true }: { reported?: boolean; raised?: boolean } = {}) =>
  boardFrom({
    brief: `PagerDuty event incident.triggered at ${at(START, 85)}.\nIncident: ${reported ? 'customers charged twice for today\'s renewal' : 'renewal receipts slow'}\nStatus: triggered`,
    services: [
      { name: 'renewal-scheduler', kind: 'lambda', dependsOn: ['renewal-queue'] },
      { name: 'renewal-queue', kind: 'sqs' },
      { name: 'charger', kind: 'ecs', dependsOn: ['renewal-queue', 'receipt-mailer'] },
      { name: 'receipt-mailer', kind: 'lambda' },
    ],
    changes: raised ? [{ service: 'charger', timestamp: '2026-08-17T16:20:00.000Z', kind: 'config', summary: 'charger task definition :58 deployed: environment RECEIVE_MAX_MESSAGES 1 -> 10' }] : [],
    logs: sorted([...lines('charger', 0, 3, 30, 'INFO', (index) => `renewal charged sub=s${index} receiveCount=1`)]),
    metrics: [
      { service: 'charger', name: 'JobDurationSeconds', unit: 'Seconds', points: series(START, 90, (minute) => (minute < 30 ? 4 : 44) + (minute % 5)) },
      { service: 'receipt-mailer', name: 'Invocations', points: series(START, 90, (minute) => (minute < 30 ? 0 : 110)) },
    ],
  });

describe('duplicates reported in words, from a consumer that holds a bigger batch than before', () => {
  it('are the batch setting’s doing: it is reverted, and the queue given the time', () => {
    const diagnosis = diagnose(batchBoard());
    expect(diagnosis.root).toBe('charger');
    expect(diagnosis.draft.rootCause.category).toBe('config');
    expect(diagnosis.draft.rootCause.summary).toContain('its runs take up to 48 s, by JobDurationSeconds, since charger task definition :58 deployed');
    expect(diagnosis.draft.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['revert-config charger', 'apply-fix renewal-queue']);
  });

  it('without the report, nothing says a message was handled twice; without the change, the queue’s setting is what to fix', () => {
    expect(diagnose(batchBoard({ reported: false })).principles).not.toContain('redelivered-messages');
    expect(diagnose(batchBoard({ raised: false })).root).toBe('renewal-queue');
  });
});
