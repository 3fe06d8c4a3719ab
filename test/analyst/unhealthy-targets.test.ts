import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series, step } from './board-builder.ts';

const START = '2026-07-21T09:00:00.000Z';

/** A balancer in front of two services; from minute 64 its hosts fail its health checks, after a change at one of them. */
const board = ({ healthy = true, plan = true }: { healthy?: boolean; plan?: boolean } = {}) =>
  boardFrom({
    brief: 'CloudWatch alarm "public-alb-5xx" is in ALARM',
    services: [
      { name: 'public-alb', kind: 'elb', dependsOn: ['lessons', 'auth'] },
      { name: 'lessons', kind: 'ecs', dependsOn: ['auth'] },
      { name: 'auth', kind: 'ecs' },
    ],
    alarms: [{ name: 'public-alb-5xx', service: 'public-alb', state: 'ALARM', since: at(START, 67) }],
    changes: [
      { service: 'public-alb', timestamp: at(START, 48), kind: 'config', summary: 'WAF web ACL: managed rule set 1.10 -> 1.12' },
      {
        service: 'lessons',
        timestamp: at(START, 62),
        kind: 'deploy',
        summary: 'lessons v5.0.0 rolled out (service template v3)',
        ...(plan ? { details: { terraformPlan: { 'aws_lb_target_group.this': { 'health_check.path': ['/healthz', '/health/ready'] } } } } : {}),
      },
    ],
    metrics: [
      { service: 'public-alb', name: healthy ? 'UnHealthyHostCount' : 'RequestCount', points: series(START, 100, healthy ? step(64, 0, 6) : () => 1800) },
      { service: 'public-alb', name: 'HTTPCode_ELB_5XX_Count', points: series(START, 100, step(64, 0, 1700)) },
    ],
  });

describe('a load balancer whose targets fail its health checks', () => {
  it('has none to send requests to: the target changed just before is the root, its release what to undo, and the check path it moved is named', () => {
    const { draft, principles } = diagnose(board());
    expect(draft.rootCause.service).toBe('lessons');
    expect(principles).toContain('targets-fail-health-checks');
    expect(draft.rootCause.summary).toContain('moved the health check path from /healthz to /health/ready');
    expect(draft.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['rollback lessons']);
    expect(diagnose(board({ plan: false })).draft.rootCause.summary).not.toContain('health check path');
  });

  it('is not read from 5xx alone: without hosts failing its checks the balancer\'s own change stays the suspect', () => {
    expect(diagnose(board({ healthy: false })).principles).not.toContain('targets-fail-health-checks');
  });
});
