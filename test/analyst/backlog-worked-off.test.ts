import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { nothingWaiting } from '../../lib/analyst/scaling-alarm.ts';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-03-26T03:30:00.000Z';

/** A nightly batch drops 18,000 jobs on a queue at minute 30; its workers delete about 290 a minute until it is empty at minute 92. */
const nightly = ({ afterwards = (minute: number) => minute % 3, lowAlarm = 'less than or equal to the threshold (10.0)' } = {}) =>
  boardFrom({
    brief: 'CloudWatch alarm "jobs-oldest-message-age" changed to ALARM from OK at 2026-03-26T04:10:00Z in account 1, region r.',
    services: [
      { name: 'batch', kind: 'lambda', dependsOn: ['jobs'] },
      { name: 'jobs', kind: 'sqs' },
      { name: 'builder', kind: 'ec2', dependsOn: ['jobs'] },
    ],
    alarms: [
      { name: 'jobs-oldest-message-age', service: 'jobs', state: 'OK', since: at(START, 93) },
      { name: 'jobs-backlog-low', service: 'jobs', state: 'ALARM', since: at(START, 97), reason: `Threshold Crossed: 5 out of the last 5 datapoints were ${lowAlarm}` },
    ],
    metrics: [
      { service: 'jobs', name: 'NumberOfMessagesSent', points: series(START, 120, (minute) => (minute >= 30 && minute < 33 ? 6000 : 2 + (minute % 2))) },
      { service: 'jobs', name: 'NumberOfMessagesDeleted', points: series(START, 120, (minute) => (minute >= 30 && minute < 92 ? 288 + (minute % 5) : 1 + (minute % 3))) },
      {
        service: 'jobs',
        name: 'ApproximateNumberOfMessagesVisible',
        points: series(START, 120, (minute) => (minute < 30 ? minute % 3 : minute < 92 ? Math.round(18000 - 290 * (minute - 30)) : afterwards(minute))),
      },
    ],
  });

const stoppedAtQueue = (board: ReturnType<typeof nightly>) => collectSignals(board).filter((signal) => signal.service === 'jobs' && /stopped/.test(signal.text));

describe('a backlog worked off to empty', () => {
  it('has not stopped its work: the deletes fall to the trickle that still arrives, and the verdict is healthy', () => {
    const board = nightly();
    expect(stoppedAtQueue(board)).toEqual([]);
    expect(diagnose(board).draft.incident).toBe(false);
  });

  it('is not worked off while another of its waiting counts still grows', () => {
    const board = nightly();
    const pending = { service: 'jobs', name: 'JobsPending', points: series(START, 120, (minute) => (minute < 92 ? 5 : 5 + 30 * (minute - 91))), ref: 'E9' };
    expect(stoppedAtQueue({ ...board, series: [...board.series, pending] }).length).toBeGreaterThan(0);
  });

  it('has stopped when messages pile up again after the deletes fell, though none are in flight any more', () => {
    const board = nightly({ afterwards: (minute) => 40 * (minute - 91) });
    expect(stoppedAtQueue(board).length).toBeGreaterThan(0);
    const inFlight = { service: 'jobs', name: 'ApproximateNumberOfMessagesNotVisible', points: series(START, 120, (minute) => (minute >= 30 && minute < 92 ? 60 : 0)), ref: 'E9' };
    // Messages in flight are being worked, not waiting: their count falling to none says nothing of what waits.
    const visibleUnread = board.series.filter((measure) => measure.name !== 'ApproximateNumberOfMessagesVisible');
    expect(stoppedAtQueue({ ...board, series: [...visibleUnread, inFlight] }).length).toBeGreaterThan(0);
    expect(stoppedAtQueue({ ...board, series: [...board.series, inFlight] }).length).toBeGreaterThan(0);
  });
});

describe('an alarm on a waiting count falling low', () => {
  it('says nothing waits; one on the count rising says something does', () => {
    const alert = (board: ReturnType<typeof nightly>) => nothingWaiting(board, { source: 'alarm', name: 'alarm jobs-backlog-low', service: 'jobs' });
    expect(alert(nightly())).toContain('nothing is left waiting');
    expect(alert(nightly({ lowAlarm: 'greater than the threshold (10.0)' }))).toBeUndefined();
  });
});

describe('a queue whose arrivals stop while it stays empty', () => {
  it('has stopped its work: what arrives is not what is left to do', () => {
    const board = boardFrom({
      brief: 'CloudWatch alarm "labels-created-low" is in ALARM',
      services: [
        { name: 'bus', kind: 'other', dependsOn: ['jobs'], tags: { type: 'EventBridge event bus' } },
        { name: 'jobs', kind: 'sqs' },
        { name: 'builder', kind: 'ecs', dependsOn: ['jobs'] },
      ],
      metrics: [
        { service: 'bus', name: 'Invocations', points: series(START, 120, (minute) => 40 + (minute % 4)) },
        { service: 'jobs', name: 'NumberOfMessagesSent', points: series(START, 120, (minute) => (minute < 60 ? 40 + (minute % 4) : 0)) },
        { service: 'jobs', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, (minute) => (minute >= 20 && minute < 25 ? 500 : minute % 2)) },
      ],
    });
    expect(collectSignals(board).some((signal) => signal.service === 'jobs' && /NumberOfMessagesSent stopped/.test(signal.text))).toBe(true);
  });
});
