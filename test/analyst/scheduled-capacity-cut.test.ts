import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom, series, step } from './board-builder.ts';

// Minute 60 is 06:00 UTC, 22:00 the evening before in Los Angeles (PST, UTC-8).
const START = '2026-02-18T05:00:00.000Z';

const scheduledAction = (name: string, cron: string, timestamp: string) => ({
  service: 'notifier',
  timestamp,
  kind: 'scaling',
  summary: `PutScheduledAction ${name} on service/prod/notifier (ecs:service:DesiredCount), schedule ${cron} America/Los_Angeles`,
  details: { eventName: 'PutScheduledAction', requestParameters: { scheduledActionName: name, schedule: cron, timezone: 'America/Los_Angeles', scalableTargetAction: { MinCapacity: 0, MaxCapacity: 0 } } },
});

/** A queue's only consumer, whose running tasks go from `before` to `after` at minute 60; the queue fills when none run. */
const consumerBoard = ({ before = 3, after = 0, scaler = 'application-autoscaling.amazonaws.com', details }: { before?: number; after?: number; scaler?: string; details?: Record<string, unknown> } = {}) =>
  boardFrom({
    brief: 'Scheduled health sweep',
    services: [
      { name: 'holds-api', kind: 'ecs', dependsOn: ['notices-queue'] },
      { name: 'notices-queue', kind: 'sqs' },
      { name: 'notifier', kind: 'ecs', dependsOn: ['notices-queue'] },
    ],
    alarms: [{ name: 'notices-oldest-message-age', service: 'notices-queue', state: 'ALARM', since: at(START, 80) }],
    changes: [
      scheduledAction('overnight-park', 'cron(0 22 * * ? *)', '2026-02-17T23:12:40Z'),
      scheduledAction('morning-unpark', 'cron(0 7 * * ? *)', '2026-02-17T23:12:41Z'),
      { service: 'notifier', timestamp: at(START, 60.2), kind: 'scaling', summary: `UpdateService notifier desiredCount=${after}`, actor: scaler, ...(details ? { details } : {}) },
    ],
    metrics: [
      { service: 'notifier', name: 'RunningTaskCount', points: series(START, 150, (minute) => (minute < 60 ? before : after)) },
      { service: 'notices-queue', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 150, (minute) => (minute < 60 ? 2 : after === 0 ? 3 * (minute - 59) : 2)) },
      { service: 'notices-queue', name: 'NumberOfMessagesSent', points: series(START, 150, () => 3) },
    ],
  });

describe('a consumer whose running tasks fell to none', () => {
  it('has stopped: a fault at the consumer, while a fall to fewer tasks is scaling in', () => {
    const stopped = collectSignals(consumerBoard()).filter((signal) => signal.service === 'notifier' && signal.kind === 'metric');
    expect(stopped.some((signal) => signal.substantial && /RunningTaskCount/.test(signal.text))).toBe(true);
    expect(collectSignals(consumerBoard({ before: 6, after: 3 })).some((signal) => signal.service === 'notifier' && signal.kind === 'metric')).toBe(false);
  });

  it('was cut to none by the scheduled action whose schedule fired then, on its own clock: scaled back, then that action removed', () => {
    const { draft } = diagnose(consumerBoard());
    expect(draft.rootCause.service).toBe('notifier');
    expect(draft.rootCause.category).toBe('config');
    expect(draft.rootCause.summary).toContain('lowered notifier\'s task count to 0');
    expect(draft.rootCause.summary).toContain('scheduled action "overnight-park" put at 2026-02-17T23:12:40Z ("PutScheduledAction overnight-park');
    expect(draft.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['scale notifier', 'revert-config notifier']);
    expect(draft.remediation[1]!.detail).toContain('overnight-park');
  });

  it('knows the platform made the cut from the CloudTrail record of the call when the actor is masked', () => {
    const masked = (callerFields: Record<string, unknown>) =>
      diagnose(consumerBoard({ scaler: '<ARN_5>', details: { eventName: 'UpdateService', ...callerFields, requestParameters: { desiredCount: 0 } } })).draft.rootCause.summary;
    expect(masked({ sourceIPAddress: 'application-autoscaling.amazonaws.com', userAgent: 'application-autoscaling.amazonaws.com' })).toContain('put at 2026-02-17T23:12:40Z');
    expect(masked({ invokedBy: 'application-autoscaling.amazonaws.com' })).toContain('scheduled action "overnight-park" put at');
    expect(masked({ sourceIPAddress: '198.51.100.7', userAgent: 'aws-cli/2.15.0' })).not.toContain('scheduled action');
  });

  it('names no scheduled action when a person made the cut', () => {
    const { draft } = diagnose(consumerBoard({ scaler: 'arn:aws:sts::123456789012:assumed-role/ops/alice' }));
    expect(draft.rootCause.summary).toContain('lowered notifier\'s task count to 0');
    expect(draft.rootCause.summary).not.toContain('scheduled action');
  });
});

/**
 * One apply that put two scheduled actions (the evening one second) on a queue's consumer; at minute 60
 * (18:00 UTC) the platform sets its capacity to none, in the words of its scaling activity. The
 * database the consumer writes to grows a little busier all along.
 */
const eveningBoard = (activity: string) => {
  const evening = '2026-06-03T17:00:00.000Z';
  const put = (name: string, cron: string, capacity: number) => ({
    eventName: 'PutScheduledAction',
    requestParameters: { scheduledActionName: name, schedule: cron, timezone: 'Etc/UTC', scalableTargetAction: { minCapacity: capacity, maxCapacity: capacity } },
  });
  return boardFrom({
    brief: 'CloudWatch alarm "jobs-oldest-message-age" is in ALARM',
    services: [
      { name: 'jobs-queue', kind: 'sqs' },
      { name: 'job-worker', kind: 'ecs', dependsOn: ['jobs-queue', 'jobs-db'] },
      { name: 'jobs-db', kind: 'rds' },
    ],
    alarms: [{ name: 'jobs-oldest-message-age', service: 'jobs-queue', state: 'ALARM', since: at(evening, 85) }],
    changes: [
      { service: 'job-worker', timestamp: at(evening, -400), kind: 'scaling', summary: 'terraform apply worker module 2.3.0 (off-hours option)', details: { events: [put('worker-morning', 'cron(0 6 ? * MON-FRI *)', 2), put('worker-evening', 'cron(0 18 ? * MON-FRI *)', 0)] } },
      { service: 'job-worker', timestamp: at(evening, 60), kind: 'scaling', summary: `Application Auto Scaling activity: ${activity}`, actor: 'application-autoscaling' },
    ],
    metrics: [
      { service: 'job-worker', name: 'RunningTaskCount', points: series(evening, 120, step(60, 4, 0)) },
      { service: 'jobs-queue', name: 'ApproximateNumberOfMessagesVisible', points: series(evening, 120, (minute) => (minute < 60 ? 20 : 20 + 40 * (minute - 59))) },
      { service: 'jobs-queue', name: 'NumberOfMessagesSent', points: series(evening, 120, () => 40) },
      { service: 'jobs-db', name: 'CPUUtilization', points: series(evening, 120, (minute) => 20 + minute / 6) },
    ],
  });
};

describe('a consumer the platform set to no capacity, in the words of its scaling activity', () => {
  it('fails by itself: the busier database it writes to does not explain it, and the action that fired is named', () => {
    const { draft } = diagnose(eveningBoard('Setting min capacity to 0 and max capacity to 0'));
    expect(draft.rootCause).toMatchObject({ service: 'job-worker', category: 'config' });
    expect(draft.rootCause.summary).toContain('scheduled action "worker-evening" put at');
    expect(draft.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['scale job-worker', 'revert-config job-worker']);
  });

  it('a capacity set to a number other than none is no removal', () => {
    const { draft } = diagnose(eveningBoard('Setting min capacity to 2 and max capacity to 2'));
    expect(draft.rootCause.summary).not.toContain('nothing does its work');
  });
});

/** A queue whose consumer measures nothing of its own; at minute 60 its desired count is set as `cut` says, and the queue fills from then. */
const unmeasuredConsumer = (cut: string) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "labels-oldest-message-age" is in ALARM',
      services: [
        { name: 'shipping-api', kind: 'ecs', dependsOn: ['labels'] },
        { name: 'labels', kind: 'sqs' },
        { name: 'label-worker', kind: 'ecs', dependsOn: ['labels'] },
      ],
      alarms: [{ name: 'labels-oldest-message-age', service: 'labels', state: 'ALARM', since: at(START, 85) }],
      changes: [{ service: 'label-worker', timestamp: at(START, 60.2), kind: 'scaling', summary: `UpdateService label-worker ${cut}` }],
      metrics: [
        { service: 'labels', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 150, (minute) => (minute < 60 ? 3 : 3 + 25 * (minute - 59))) },
        { service: 'labels', name: 'NumberOfMessagesSent', points: series(START, 150, () => 25) },
      ],
    }),
  ).draft;

describe('a queue whose consumer measures nothing of its own', () => {
  it('is failed by the consumer left with no tasks, from the moment its count was set to none', () => {
    const draft = unmeasuredConsumer('desiredCount 3 -> 0');
    expect(draft.rootCause.service).toBe('label-worker');
    expect(draft.rootCause.summary).toContain('to 0');
  });

  it('is not put on a consumer whose count was only lowered', () => {
    expect(unmeasuredConsumer('desiredCount 3 -> 2').rootCause.service).not.toBe('label-worker');
  });
});
