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

  it("is the balancer's own change when its target group's check path was moved there: that change is named with the path, the target's own report quoted, and reverted", () => {
    const modified = {
      service: 'public-alb',
      timestamp: at(START, 63),
      kind: 'config',
      summary: 'CloudTrail: ModifyTargetGroup lessons-tg',
      details: { eventName: 'ModifyTargetGroup', requestParameters: { targetGroupArn: 'arn:aws:elasticloadbalancing:eu-west-1:111122223333:targetgroup/lessons-tg/9b3f62d1a0c4e857', healthCheckPath: '/health', healthCheckIntervalSeconds: 15 } },
    };
    const unhealthy = { service: 'lessons', timestamp: at(START, 65), level: 'INFO', message: '(service lessons) (task 397b885f) (port 3000) is unhealthy in (target-group lessons-tg) due to (reason Health checks failed with these codes: [404]).' };
    const withChange = boardFrom({
      brief: 'CloudWatch alarm "public-alb-5xx" is in ALARM',
      services: [
        { name: 'public-alb', kind: 'elb', dependsOn: ['lessons'] },
        { name: 'lessons', kind: 'ecs' },
      ],
      alarms: [{ name: 'public-alb-5xx', service: 'public-alb', state: 'ALARM', since: at(START, 67) }],
      changes: [modified],
      metrics: [
        { service: 'public-alb', name: 'UnHealthyHostCount', points: series(START, 100, step(64, 0, 6)) },
        { service: 'public-alb', name: 'HTTPCode_ELB_5XX_Count', points: series(START, 100, step(64, 0, 1700)) },
      ],
      logs: [unhealthy],
    });
    const { draft } = diagnose(withChange);
    expect(draft.rootCause.service).toBe('public-alb');
    expect(draft.rootCause.summary).toContain("public-alb's change moved the health check path to /health");
    expect(draft.rootCause.summary).toContain('Health checks failed with these codes: [404]');
    expect(draft.remediation.map(({ action, target }) => `${action} ${target}`)).toContain('revert-config public-alb');
  });

  it('is not read from 5xx alone: without hosts failing its checks the balancer\'s own change stays the suspect', () => {
    expect(diagnose(board({ healthy: false })).principles).not.toContain('targets-fail-health-checks');
  });

  describe('when the map names no balancer and the service reports its own tasks failing the checks', () => {
    /** A caller of an ECS service; from minute 63 the service's tasks fail its load balancer's checks, its 5xx up, after its own release (when `released`). */
    const selfChecked = ({
      released = true,
      reported = true,
      rules = [],
      ownError,
    }: { released?: boolean; reported?: boolean; rules?: { timestamp: string; kind: string; summary: string }[]; ownError?: string } = {}) =>
      boardFrom({
        brief: 'CloudWatch alarm "booking-5xx" is in ALARM',
        services: [
          { name: 'booking', kind: 'ecs', dependsOn: ['slots'] },
          { name: 'slots', kind: 'ecs', dependsOn: ['slots-db'] },
          { name: 'slots-db', kind: 'rds' },
        ],
        alarms: [{ name: 'booking-5xx', service: 'booking', state: 'ALARM', since: at(START, 66) }],
        changes: [
          ...(released ? [{ service: 'slots', timestamp: at(START, 41), kind: 'deploy', summary: 'slots v4.7.0 rolling update started (task definition slots:88 -> slots:89)' }] : []),
          ...rules.map((rule) => ({ service: 'slots', ...rule })),
        ],
        metrics: [
          { service: 'slots', name: 'UnHealthyHostCount', points: series(START, 100, step(63, 0, 4)) },
          { service: 'slots', name: 'HTTPCode_Target_5XX_Count', points: series(START, 100, step(64, 0, 40)) },
          { service: 'slots-db', name: 'CPUUtilization', points: series(START, 100, () => 20) },
        ],
        logs: [
          ...(reported
            ? [64, 65, 66].map((minute) => ({
                service: 'slots',
                timestamp: at(START, minute),
                level: 'WARN',
                message: `(service slots) (port 8080) is unhealthy in (target-group arn:aws:elasticloadbalancing:us-west-2:111122223333:targetgroup/slots/6b1d0e93) due to (reason Health checks failed with these codes: [404]).`,
              }))
            : []),
          ...[66, 67, 68, 70].map((minute) => ({ service: 'booking', timestamp: at(START, minute), level: 'ERROR', message: 'upstream slots responded 503 Service Unavailable for GET /v2/slots' })),
          ...(ownError ? [62, 63, 64, 65].map((minute) => ({ service: 'slots', timestamp: at(START, minute), level: 'ERROR', message: ownError })) : []),
        ],
      });

    it('failed them from its latest release: the service is the root, the failed checks its mechanism, and the release is rolled back', () => {
      const { draft, principles } = diagnose(selfChecked());
      expect(draft.rootCause.service).toBe('slots');
      expect(principles).toContain('targets-fail-health-checks');
      expect(draft.rootCause.summary).toContain("slots's tasks fail its load balancer's health checks");
      expect(draft.rootCause.summary).toContain('Health checks failed with these codes: [404]');
      expect(draft.remediation.map(({ action, target }) => `${action} ${target}`)).toContain('rollback slots');
    });

    it('failed them from a network rule changed after its release: the rule that took access away, not the one added beside it, nor the release', () => {
      const moved = [
        { timestamp: at(START, 62), kind: 'network', summary: 'CloudTrail: RevokeSecurityGroupIngress on sg-7d21 (slots-tasks) tcp 8080 from the balancer' },
        { timestamp: at(START, 62.05), kind: 'network', summary: 'CloudTrail: AuthorizeSecurityGroupIngress on sg-7d21 (slots-tasks) tcp 8443 from the balancer' },
      ];
      const { draft, suspectChange } = diagnose(selfChecked({ rules: moved }));
      expect(draft.rootCause).toMatchObject({ service: 'slots', category: 'network' });
      expect(suspectChange?.summary).toContain('RevokeSecurityGroupIngress');
      expect(draft.rootCause.summary).toContain('since its network change ("CloudTrail: RevokeSecurityGroupIngress');
      expect(diagnose(selfChecked({ rules: [moved[1]!] })).suspectChange?.summary).toContain('AuthorizeSecurityGroupIngress');
    });

    it('failed them for a want of its own that its errors name: the want is said as why', () => {
      const full = diagnose(selfChecked({ ownError: 'could not append to /var/lib/slots/wal-7.log: No space left on device' })).draft.rootCause.summary;
      expect(full).toContain("slots's tasks fail its load balancer's health checks");
      expect(full).toContain('Why, in its own errors: A storage volume at slots is filling');
      expect(diagnose(selfChecked()).draft.rootCause.summary).not.toContain('Why, in its own errors');
    });

    it('says nothing of its own without a release or setting of the service before it, nor without the service reporting the failed checks', () => {
      expect(diagnose(selfChecked({ released: false })).principles).not.toContain('targets-fail-health-checks');
      expect(diagnose(selfChecked({ reported: false })).principles).not.toContain('targets-fail-health-checks');
    });
  });
});
