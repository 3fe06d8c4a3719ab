import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-06-16T05:00:00.000Z';
const lines = linesFrom(START);

/**
 * An ECS service on EC2 hosts scales out for its morning peak from minute 30; from minute 40 the
 * scheduler cannot place its new tasks for want of memory, and its latency rises. The evening
 * before, `hostChange` redefined the hosts (or nothing did); a provider it calls answers a few 429s
 * that the service rides out with a cached profile.
 */
const unplacedTasks = (hostChange?: { summary: string; details?: Record<string, unknown> }) =>
  boardFrom({
    brief: 'CloudWatch alarm "route-planner-p90-latency" is in ALARM',
    services: [
      { name: 'route-planner', kind: 'ecs', dependsOn: ['traffic-feed', 'container-hosts'] },
      { name: 'container-hosts', kind: 'ec2' },
      { name: 'traffic-feed', kind: 'external' },
    ],
    alarms: [{ name: 'route-planner-p90-latency', service: 'route-planner', state: 'ALARM', since: at(START, 60) }],
    changes: hostChange ? [{ service: 'container-hosts', timestamp: at(START, -11 * 60), kind: 'infrastructure', ...hostChange }] : [],
    metrics: [
      { service: 'route-planner', name: 'TargetResponseTime', points: series(START, 90, (minute) => (minute < 45 ? 0.5 : 2.4)) },
      { service: 'route-planner', name: 'RunningTaskCount', points: series(START, 90, (minute) => (minute < 30 ? 8 : 24)) },
    ],
    logs: sorted([
      ...lines('route-planner', 0, 5, 18, 'INFO', (index) => `POST /v1/routes 200 depot=${index}`),
      ...lines('route-planner', 10, 15, 6, 'WARN', () => 'traffic-feed responded 429 Too Many Requests; using cached speed profile'),
      ...lines('route-planner', 40, 6, 8, 'WARN', (index) =>
        `(service route-planner) was unable to place a task because no container instance met all of its requirements. The closest matching (container-instance ${index}a2f) has insufficient memory available.`,
      ),
    ]),
  });

const plan = (draft: ReturnType<typeof diagnose>['draft']) => draft.remediation.map(({ action, target }) => `${action} ${target}`);

describe('tasks that find no host to run on', () => {
  it('blame the hosts redefined to a smaller instance type the evening before, revert that, and scale the hosts out', () => {
    const diagnosis = diagnose(
      unplacedTasks({
        summary: 'CloudTrail CreateLaunchTemplateVersion on lt-07c2 (ecs-hosts): version 14 created from source version 13',
        details: { eventName: 'CreateLaunchTemplateVersion', requestParameters: { LaunchTemplateData: { InstanceType: 'm6i.xlarge' } } },
      }),
    );
    expect(diagnosis.root).toBe('container-hosts');
    expect(diagnosis.principles).toContain('hosts-resized');
    expect(diagnosis.draft.rootCause.summary).toContain('as m6i.xlarge');
    expect(plan(diagnosis.draft)).toEqual(['revert-config container-hosts', 'scale container-hosts']);
  });

  it('point at the hosts, not at a provider the service rides out, even with no change to them', () => {
    const diagnosis = diagnose(unplacedTasks());
    expect(diagnosis.root).toBe('container-hosts');
    expect(diagnosis.principles).not.toContain('hosts-resized');
  });

  it('leave a change to the hosts that does not redefine them out of it', () => {
    const diagnosis = diagnose(
      unplacedTasks({ summary: 'CloudTrail UpdateAutoScalingGroup ecs-hosts: HealthCheckGracePeriod 300 -> 120', details: { eventName: 'UpdateAutoScalingGroup', requestParameters: { healthCheckGracePeriod: 120 } } }),
    );
    expect(diagnosis.principles).not.toContain('hosts-resized');
  });
});
