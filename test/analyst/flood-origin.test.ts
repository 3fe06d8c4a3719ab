import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-03-09T10:00:00.000Z';
const MINUTES = 240;
const SURGE = 180;
const lines = linesFrom(START);

interface Shape {
  /** The topic and the queue carry a hundred times their usual messages from SURGE on. */
  surge: boolean;
  /** The topic's own delivery settings changed just before the surge too. */
  topicChanged?: boolean;
}

/**
 * An exporter publishes to a topic, the topic feeds a queue, and an indexer takes the queue's
 * messages and writes them to a search cluster. The indexer deployed 25 minutes before its throttles
 * began; the exporter's mode was changed 7 minutes before.
 */
const incident = ({ surge, topicChanged = false }: Shape) =>
  boardFrom({
    brief: 'CloudWatch alarm "updates-oldest-message-age" is in ALARM',
    services: [
      { name: 'exporter', kind: 'ecs', dependsOn: ['updates-topic'] },
      { name: 'updates-topic', kind: 'sns', dependsOn: ['updates-queue'] },
      { name: 'updates-queue', kind: 'sqs' },
      { name: 'indexer', kind: 'lambda', dependsOn: ['updates-queue', 'search-cluster'] },
      { name: 'search-cluster', kind: 'other' },
    ],
    alarms: [{ name: 'updates-oldest-message-age', service: 'updates-queue', state: 'ALARM', since: at(START, SURGE + 20) }],
    changes: [
      { service: 'indexer', timestamp: at(START, SURGE - 25), kind: 'deploy', summary: 'indexer 4.2.0 (client library upgrade)' },
      { service: 'exporter', timestamp: at(START, SURGE - 7), kind: 'config', summary: 'PutParameter /exporter/prod/EXPORT_MODE (Version 7 -> 8)' },
      ...(topicChanged ? [{ service: 'updates-topic', timestamp: at(START, SURGE - 5), kind: 'config', summary: 'SetSubscriptionAttributes DeliveryPolicy on updates-topic' }] : []),
    ],
    metrics: [
      { service: 'updates-topic', name: 'NumberOfMessagesPublished', stat: 'Sum', points: series(START, MINUTES, step(surge ? SURGE : MINUTES, 40, 4_000)) },
      { service: 'updates-queue', name: 'NumberOfMessagesSent', stat: 'Sum', points: series(START, MINUTES, step(surge ? SURGE : MINUTES, 40, 4_000)) },
      { service: 'updates-queue', name: 'ApproximateAgeOfOldestMessage', stat: 'Maximum', points: series(START, MINUTES, (minute) => (minute >= SURGE + 5 ? 60 * (minute - SURGE) : 20)) },
      { service: 'indexer', name: 'Throttles', stat: 'Sum', points: series(START, MINUTES, step(SURGE + 5, 0, 300)) },
    ],
    logs: sorted([
      ...lines('indexer', 0, 4, 60, 'INFO', (index) => `indexed batch ${index}: 10 documents`),
      ...lines('indexer', SURGE + 6, 3, 15, 'ERROR', () => 'bulk partial failure: rejected execution (429); returning batchItemFailures for retry'),
      ...lines('exporter', 0, 10, 24, 'INFO', (index) => `export cycle ${index}: changed items published`),
    ]),
  });

describe('a service flooded by the work it is sent', () => {
  it('is overloaded by the change upstream that let the flood loose, not by its own release', () => {
    const diagnosis = diagnose(incident({ surge: true }));
    expect(diagnosis.root).toBe('exporter');
    expect(diagnosis.principles).toContain('flood-from-upstream');
    expect(diagnosis.suspectChange?.summary).toMatch(/EXPORT_MODE/);
    expect(diagnosis.draft.rootCause.category).toBe('config');
    expect(diagnosis.draft.rootCause.summary).toMatch(/flood of work: NumberOfMessagesPublished at updates-topic went up/);
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'revert-config', target: 'exporter' });
  });

  it('without a surge of what it is sent, its trouble is its own', () => {
    const diagnosis = diagnose(incident({ surge: false }));
    expect(diagnosis.principles).not.toContain('flood-from-upstream');
    expect(diagnosis.root).not.toBe('exporter');
  });

  it('with two changes upstream just before the surge, the flood’s origin is left open', () => {
    const diagnosis = diagnose(incident({ surge: true, topicChanged: true }));
    expect(diagnosis.principles).not.toContain('flood-from-upstream');
  });
});
