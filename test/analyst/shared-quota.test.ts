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
});
