import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series, step, type SyntheticEvidence } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

/** The alarm on the throttled service fired at minute 95 of the two hours the metrics cover. */
const diagnoseThrottled = (alarm: { name: string; service: string }, services: SyntheticEvidence['services'], metrics: SyntheticEvidence['metrics']) =>
  diagnose(
    boardFrom({
      brief: `CloudWatch alarm "${alarm.name}" is in ALARM`,
      services,
      alarms: [{ ...alarm, state: 'ALARM', since: at(START, 95) }],
      metrics,
    }),
  );

const loginThrottles = { name: 'login-throttles', service: 'login' };
/** Throttles at login from minute 90. */
const loginThrottled = { service: 'login', name: 'Throttles', points: series(START, 120, step(90, 0, 400)) };

describe('a throttled service whose own demand did not surge was starved by a co-tenant of its account quota', () => {
  it('a batch function that took the account\'s Lambda concurrency is slowed down, not the throttled function scaled', () => {
    const diagnosis = diagnoseThrottled(
      loginThrottles,
      [
        { name: 'gateway', kind: 'apigateway', dependsOn: ['login'] },
        { name: 'login', kind: 'lambda' },
        { name: 'batch', kind: 'lambda' },
        { name: 'profile', kind: 'ecs' },
      ],
      [
        loginThrottled,
        { service: 'login', name: 'Invocations', points: series(START, 120, () => 2000) },
        { service: 'batch', name: 'ConcurrentExecutions', points: series(START, 120, step(88, 0, 980)) },
      ],
    );
    expect(diagnosis.draft.rootCause.service).toBe('batch');
    expect(diagnosis.draft.rootCause.category).toBe('traffic');
    expect(diagnosis.draft.rootCause.summary).toMatch(/throttled/);
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'limit-traffic', target: 'batch' });
  });

  it('a co-tenant whose use of the quota rose at the very moment the throttling began took it (it does not call the throttled function, so it is not reacting to it)', () => {
    const diagnosis = diagnoseThrottled(
      loginThrottles,
      [
        { name: 'gateway', kind: 'apigateway', dependsOn: ['login'] },
        { name: 'login', kind: 'lambda' },
        { name: 'fanout', kind: 'lambda' },
      ],
      [
        loginThrottled,
        { service: 'login', name: 'Invocations', points: series(START, 120, step(90, 2000, 400)) },
        { service: 'fanout', name: 'ConcurrentExecutions', points: series(START, 120, step(90, 10, 980)) },
      ],
    );
    expect(diagnosis.draft.rootCause.service).toBe('fanout');
  });

  it('an API whose surge took the account\'s request rate starves another API', () => {
    const diagnosis = diagnoseThrottled(
      { name: 'partner-429', service: 'partner-api' },
      [
        { name: 'partner-api', kind: 'apigateway', dependsOn: ['partner-fn'] },
        { name: 'hooks-api', kind: 'apigateway', dependsOn: ['hooks-fn'] },
        { name: 'partner-fn', kind: 'lambda' },
        { name: 'hooks-fn', kind: 'lambda' },
      ],
      [
        { service: 'partner-api', name: 'Count', points: series(START, 120, () => 3000) },
        { service: 'partner-api', name: 'ThrottledRequests', points: series(START, 120, step(90, 0, 900)) },
        { service: 'hooks-api', name: 'Count', points: series(START, 120, step(87, 2000, 60000)) },
      ],
    );
    expect(diagnosis.draft.rootCause.service).toBe('hooks-api');
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'limit-traffic', target: 'hooks-api' });
  });

  it('a throttled function whose own demand surged is its own cause', () => {
    const diagnosis = diagnoseThrottled(
      loginThrottles,
      [{ name: 'login', kind: 'lambda' }, { name: 'batch', kind: 'lambda' }, { name: 'web', kind: 'ecs', dependsOn: ['login'] }],
      [
        loginThrottled,
        { service: 'login', name: 'Invocations', points: series(START, 120, step(88, 2000, 9000)) },
        { service: 'batch', name: 'ConcurrentExecutions', points: series(START, 120, () => 20) },
      ],
    );
    expect(diagnosis.draft.rootCause.service).toBe('login');
    expect(diagnosis.draft.rootCause.category).toBe('traffic');
  });
  describe('a queue consumer held back by the account\'s concurrency', () => {
    /** A backlog on the queue `notify` consumes; `notify` was released at minute 75 and is throttled from minute 90. */
    const consumerEvidence = (ownConcurrency: (minute: number) => number, accountConcurrency: boolean = true) =>
      boardFrom({
        brief: 'CloudWatch alarm "notify-throttles" is in ALARM',
        services: [
          { name: 'api', kind: 'ecs', dependsOn: ['notify-queue'] },
          { name: 'notify-queue', kind: 'sqs' },
          { name: 'notify', kind: 'lambda', dependsOn: ['notify-queue'] },
          { name: 'import', kind: 'lambda' },
        ],
        alarms: [{ name: 'notify-throttles', service: 'notify', state: 'ALARM', since: at(START, 92) }],
        changes: [{ service: 'notify', timestamp: at(START, 75), kind: 'deploy', summary: 'notify v3.1.0 published (new e-mail template)' }],
        metrics: [
          { service: 'notify-queue', name: 'NumberOfMessagesSent', points: series(START, 120, () => 180) },
          { service: 'notify-queue', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, (minute) => (minute < 92 ? 5 : 5 + (minute - 92) * 80)) },
          { service: 'notify', name: 'Throttles', dimensions: { FunctionName: 'notify' }, points: series(START, 120, step(90, 0, 350)) },
          { service: 'notify', name: 'ConcurrentExecutions', dimensions: { FunctionName: 'notify' }, points: series(START, 120, ownConcurrency) },
          // Published without FunctionName: every function of the account together, filed under the function it was read for.
          ...(accountConcurrency ? [{ service: 'notify', name: 'ConcurrentExecutions', namespace: 'AWS/Lambda', dimensions: {}, points: series(START, 120, step(89, 60, 1000)) }] : []),
          { service: 'import', name: 'ConcurrentExecutions', dimensions: { FunctionName: 'import' }, points: series(START, 120, step(88, 0, 940)) },
        ],
      });

    it('is starved by the co-tenant whose use rose, not undone by its own release, when its own concurrency did not rise', () => {
      const diagnosis = diagnose(consumerEvidence((minute) => (minute < 90 ? 6 : 2)));
      expect(diagnosis.draft.rootCause.service).toBe('import');
      expect(diagnosis.draft.remediation.map((step) => step.action)).toContain('limit-traffic');
      expect(diagnosis.draft.remediation.some((step) => step.target === 'notify')).toBe(false);
    });

    it('is its own cause when nothing shows the account\'s pool full (a limit of its own caps it just as flat)', () => {
      const diagnosis = diagnose(consumerEvidence((minute) => (minute < 90 ? 6 : 2), false));
      expect(diagnosis.draft.rootCause.service).toBe('notify');
    });

    it('is its own cause when its own concurrency rose with its release', () => {
      const diagnosis = diagnose(consumerEvidence(step(88, 6, 900)));
      expect(diagnosis.draft.rootCause.service).toBe('notify');
    });
  });
  it('a function throttled by the table it floods is that table\'s load, not starved by a co-tenant of its account quota', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "members-read-throttles" is in ALARM',
        services: [
          { name: 'checkin', kind: 'lambda', dependsOn: ['members'] },
          { name: 'report', kind: 'lambda', dependsOn: ['members'] },
          { name: 'members', kind: 'dynamodb' },
          { name: 'thumbnails', kind: 'lambda' },
        ],
        alarms: [{ name: 'members-read-throttles', service: 'members', state: 'ALARM', since: at(START, 92) }],
        logs: [
          { service: 'report', timestamp: at(START, 88), level: 'INFO', message: 'hourly churn report started: scanning members' },
          { service: 'report', timestamp: at(START, 91), level: 'ERROR', message: 'ProvisionedThroughputExceededException reading members' },
        ],
        metrics: [
          { service: 'members', name: 'ReadThrottleEvents', points: series(START, 120, step(90, 0, 800)) },
          { service: 'members', name: 'ConsumedReadCapacityUnits', points: series(START, 120, step(89, 300, 2000)) },
          { service: 'report', name: 'Throttles', dimensions: { FunctionName: 'report' }, points: series(START, 120, step(90, 0, 40)) },
          { service: 'checkin', name: 'Invocations', dimensions: { FunctionName: 'checkin' }, points: series(START, 120, () => 900) },
          { service: 'thumbnails', name: 'ConcurrentExecutions', dimensions: { FunctionName: 'thumbnails' }, points: series(START, 120, step(89, 5, 300)) },
        ],
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('report');
  });
});
