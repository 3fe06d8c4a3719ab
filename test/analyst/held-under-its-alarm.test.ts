import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, step } from './board-builder.ts';

const START = '2026-05-17T01:30:00.000Z';
const lines = linesFrom(START);

/** A sweep: a dead-letter queue that held 3 messages holds 7 from `risesAt` (of 120 minutes), its consumer logging on as usual. */
const sweep = ({ alarm, risesAt = 60 }: { alarm?: { name: string; okSince: number }; risesAt?: number }) =>
  diagnose(
    boardFrom({
      services: [
        { name: 'ingest-queue', kind: 'sqs' },
        { name: 'ingest-dlq', kind: 'sqs' },
        { name: 'indexer', kind: 'ecs', dependsOn: ['ingest-queue'] },
      ],
      alarms: alarm ? [{ name: alarm.name, service: 'ingest-dlq', state: 'OK', since: at(START, alarm.okSince) }] : [],
      metrics: [
        { service: 'ingest-dlq', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, step(risesAt, 3, 7)) },
        { service: 'ingest-queue', name: 'NumberOfMessagesReceived', points: series(START, 120, () => 400) },
      ],
      logs: lines('indexer', 0, 2, 60, 'INFO', (index) => `indexed batch ${index} (50 documents)`),
    }),
  );

describe('a measure its own alarm watched through its rise without firing', () => {
  it('stayed under what its owners page on: the sweep finds nothing wrong', () => {
    expect(sweep({ alarm: { name: 'prod-ingest-dlq-depth', okSince: -30_000 } }).draft.incident).toBe(false);
  });

  it('is a rise of substance with no alarm on it, or one its alarm has not had time to judge', () => {
    expect(sweep({}).draft.incident).toBe(true);
    expect(sweep({ alarm: { name: 'prod-ingest-dlq-depth', okSince: -30_000 }, risesAt: 112 }).draft.incident).toBe(true);
  });

  it('an alarm on another measure of the service says nothing of this one', () => {
    expect(sweep({ alarm: { name: 'prod-ingest-dlq-cpu-credits', okSince: -30_000 } }).draft.incident).toBe(true);
  });

  it('an alarm named in full for another measure of the service watches that one, not a measure of the same kind beside it', () => {
    /** A table whose requests are throttled from minute 60 while its write-throttle events, the measure its alarm is named for, stay flat. */
    const table = (alarmName: string) =>
      diagnose(
        boardFrom({
          services: [
            { name: 'orders-table', kind: 'dynamodb' },
            { name: 'order-writer', kind: 'ecs', dependsOn: ['orders-table'] },
          ],
          alarms: [{ name: alarmName, service: 'orders-table', state: 'OK', since: at(START, -30_000) }],
          metrics: [
            { service: 'orders-table', name: 'ThrottledRequests', points: series(START, 120, step(60, 0, 900)) },
            { service: 'orders-table', name: 'WriteThrottleEvents', points: series(START, 120, () => 0) },
          ],
          logs: lines('order-writer', 0, 2, 60, 'INFO', (index) => `stored order batch ${index}`),
        }),
      ).draft.incident;
    expect(table('orders-write-throttle-events')).toBe(true);
    // Named for both, or for the kind alone, it watched the rise.
    expect(table('orders-throttled-requests')).toBe(false);
  });

  it('an alarm that shares only the name of its service with the measure does not watch it', () => {
    /** Rejected baskets, counted as `BasketRejections` at basket-api, rise from minute 60; the service's 5xx alarm stays OK. */
    const basket = (alarmName: string) =>
      diagnose(
        boardFrom({
          services: [{ name: 'basket-api', kind: 'ecs' }],
          alarms: [{ name: alarmName, service: 'basket-api', state: 'OK', since: at(START, -30_000) }],
          metrics: [{ service: 'basket-api', name: 'BasketRejections', stat: 'Sum', points: series(START, 120, step(60, 10, 140)) }],
          logs: lines('basket-api', 0, 2, 60, 'INFO', (index) => `PUT /baskets/${index} 200`),
        }),
      ).draft.incident;
    expect(basket('basket-api-target-5xx')).toBe(true);
    expect(basket('basket-api-rejections')).toBe(false);
  });
});
