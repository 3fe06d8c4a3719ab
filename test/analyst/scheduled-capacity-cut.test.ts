import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom, series } from './board-builder.ts';

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
    expect(draft.rootCause.summary).toContain('scheduled action put at 2026-02-17T23:12:40Z ("PutScheduledAction overnight-park');
    expect(draft.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['scale notifier', 'revert-config notifier']);
    expect(draft.remediation[1]!.detail).toContain('overnight-park');
  });

  it('knows the platform made the cut from the CloudTrail record of the call when the actor is masked', () => {
    const masked = (callerFields: Record<string, unknown>) =>
      diagnose(consumerBoard({ scaler: '<ARN_5>', details: { eventName: 'UpdateService', ...callerFields, requestParameters: { desiredCount: 0 } } })).draft.rootCause.summary;
    expect(masked({ sourceIPAddress: 'application-autoscaling.amazonaws.com', userAgent: 'application-autoscaling.amazonaws.com' })).toContain('scheduled action put at 2026-02-17T23:12:40Z');
    expect(masked({ invokedBy: 'application-autoscaling.amazonaws.com' })).toContain('scheduled action put at');
    expect(masked({ sourceIPAddress: '198.51.100.7', userAgent: 'aws-cli/2.15.0' })).not.toContain('scheduled action');
  });

  it('names no scheduled action when a person made the cut', () => {
    const { draft } = diagnose(consumerBoard({ scaler: 'arn:aws:sts::123456789012:assumed-role/ops/alice' }));
    expect(draft.rootCause.summary).toContain('lowered notifier\'s task count to 0');
    expect(draft.rootCause.summary).not.toContain('scheduled action');
  });
});
