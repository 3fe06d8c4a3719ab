import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-06-03T07:00:00.000Z';
const lines = linesFrom(START);

/** A queue's age alarm; its producer goes wrong from minute 60 and its consumer from `consumerFrom`; `consumerSays` is how the consumer logs its failed sends. */
const backlog = (consumerSays: (index: number) => string, consumerFrom = 60) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "codes-queue-age" is in ALARM',
      services: [
        { name: 'accounts-api', kind: 'ecs', dependsOn: ['codes-queue'] },
        { name: 'codes-queue', kind: 'sqs' },
        { name: 'sender', kind: 'ecs', dependsOn: ['codes-queue', 'textline'] },
        { name: 'textline', kind: 'external' },
      ],
      alarms: [{ name: 'codes-queue-age', service: 'codes-queue', state: 'ALARM', since: at(START, 70) }],
      metrics: [
        { service: 'codes-queue', name: 'ApproximateAgeOfOldestMessage', points: series(START, 90, (minute) => (minute < 60 ? 4 : (minute - 59) * 30)) },
        { service: 'accounts-api', name: 'CodeCheckSuccessRate', points: series(START, 90, step(60, 95, 40)) },
        { service: 'sender', name: 'SendFailures', points: series(START, 90, step(consumerFrom, 1, 90)) },
      ],
      logs: sorted([
        ...lines('accounts-api', 0, 3, 30, 'INFO', (index) => `POST /codes/check 200 user=u${index}`),
        ...lines('sender', 0, 3, 20, 'INFO', (index) => `code sent via textline id=t${index}`),
        ...lines('sender', consumerFrom, 2, 8, 'ERROR', consumerSays),
      ]),
    }),
  );

describe('a queue whose producer and consumer go wrong together', () => {
  it('is handled by the consumer that takes its messages, whose failures lead on', () => {
    const diagnosis = backlog((index) => `send failed after 3 attempts messageId=m${index} receiveCount=3 lastError=textline 503; leaving message for redelivery`);
    expect(diagnosis.root).toBe('textline');
  });

  it('is handled by the producer when it went wrong well before the consumer', () => {
    const diagnosis = backlog((index) => `send failed after 3 attempts messageId=m${index} receiveCount=3 lastError=textline 503; leaving message for redelivery`, 72);
    expect(diagnosis.root).not.toBe('textline');
  });

  it('is not handed to the consumer when nothing in its lines shows it taking the messages', () => {
    const diagnosis = backlog((index) => `send failed after 3 attempts id=m${index} lastError=textline 503`);
    expect(diagnosis.root).not.toBe('textline');
  });
});
