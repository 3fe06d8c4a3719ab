import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-11-21T08:00:00.000Z';
const lines = linesFrom(START);

/** A queue's dead-letter queue fills from minute 40 while its consumer's calls are throttled now and then; its redrive policy was set the day before. */
const board = (maxReceiveCount: number) =>
  boardFrom({
    brief: `CloudWatch alarm "receipts-dlq-depth" changed to ALARM from OK at ${at(START, 90)}.`,
    services: [
      { name: 'receipts-api', kind: 'ecs', dependsOn: ['receipts'] },
      { name: 'receipts', kind: 'sqs' },
      { name: 'receipts-dlq', kind: 'sqs' },
      { name: 'receipt-worker', kind: 'lambda', dependsOn: ['receipts', 'pdf-render'] },
      { name: 'pdf-render', kind: 'lambda' },
    ],
    alarms: [{ name: 'receipts-dlq-depth', service: 'receipts-dlq', state: 'ALARM', since: at(START, 90) }],
    changes: [
      {
        service: 'receipts',
        timestamp: '2026-11-20T15:06:00.000Z',
        kind: 'config',
        summary: 'SetQueueAttributes receipts (shared queue module 3.0)',
        details: { requestParameters: { attributes: { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: 'arn:aws:sqs:eu-west-1:1:receipts-dlq', maxReceiveCount: String(maxReceiveCount) }) } } },
      },
    ],
    logs: sorted([
      ...lines('receipt-worker', 0, 2, 60, 'INFO', (index) => `receipt r${index} sent`),
      ...lines('receipt-worker', 41, 7, 10, 'WARN', (index) => `r${500 + index}: pdf-render invoke failed: TooManyRequestsException: Rate Exceeded; reporting item failure so SQS redelivers`),
    ]),
    metrics: [{ service: 'receipts-dlq', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, (minute) => (minute < 40 ? 0 : (minute - 40) * 3)) }],
  });

describe('a dead-letter queue filling behind a queue that gives a message one receive', () => {
  it('is that setting\'s doing: the queue is the root (config), its change is reverted, and the count is named', () => {
    const { draft, principles } = diagnose(board(1));
    expect(draft.rootCause.service).toBe('receipts');
    expect(draft.rootCause.category).toBe('config');
    expect(principles).toContain('eager-redrive');
    expect(draft.rootCause.summary).toContain('maxReceiveCount 1');
    expect(draft.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['revert-config receipts']);
  });

  it('is not, when the queue gives a message the receives a passing failure needs', () => {
    expect(diagnose(board(5)).principles).not.toContain('eager-redrive');
  });
});
