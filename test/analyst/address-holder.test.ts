import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series, step } from './board-builder.ts';

const START = '2026-06-08T08:00:00.000Z';
const APP_SUBNETS = 'subnet-0aaa1111bbbb2222c,subnet-0ddd3333eeee4444f';

type Evidence = Parameters<typeof boardFrom>[0];

/** Two hours in which `starved`'s failures to get an address start at minute 60; the fleet's change came two days before. */
const starvedOf = (evidence: { services: NonNullable<Evidence['services']>; failure: { service: string; message: string }; fleetChange: { service: string; summary: string } }) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "web-5xx" is in ALARM',
      services: evidence.services,
      alarms: [{ name: 'web-5xx', service: 'web', state: 'ALARM', since: at(START, 70) }],
      changes: [{ ...evidence.fleetChange, timestamp: at(START, -2 * 24 * 60), kind: 'infrastructure' }],
      logs: Array.from({ length: 12 }, (_, index) => ({ ...evidence.failure, timestamp: at(START, 60 + index * 5), level: 'ERROR' })),
      metrics: [{ service: 'web', name: 'HTTPCode_Target_5XX_Count', stat: 'Sum', points: series(START, 120, step(62, 0, 40)) }],
    }),
  ).draft;

const subnetFailure = { service: 'app', message: "Task stopped: stopCode=TaskFailedToStart stoppedReason=\"Unexpected EC2 error while attempting to Create Network Interface in subnet 'subnet-0aaa1111bbbb2222c': InsufficientFreeAddressesInSubnet\"" };
const services = (fleetTags: Record<string, string>) => [
  { name: 'web', kind: 'elb', dependsOn: ['app'] },
  { name: 'app', kind: 'ecs', dependsOn: ['db'], tags: { subnets: APP_SUBNETS } },
  { name: 'db', kind: 'rds' },
  { name: 'loadgen', kind: 'ecs', tags: fleetTags },
];

describe('a service that cannot get addresses for its tasks', () => {
  it('is starved by the fleet that started many copies in its subnets: the fleet is scaled in, then the service scales out', () => {
    const draft = starvedOf({ services: services({ subnets: APP_SUBNETS }), failure: subnetFailure, fleetChange: { service: 'loadgen', summary: 'ECS CreateService loadgen: desiredCount 400, launchType FARGATE' } });
    expect(draft.rootCause).toMatchObject({ service: 'loadgen', category: 'resource-exhaustion' });
    expect(draft.rootCause.summary).toContain('started 400 copies');
    expect(draft.remediation.map((item) => `${item.action} ${item.target}`)).toEqual(['scale loadgen', 'scale app']);
  });

  it('is not starved by a fleet in other subnets, however large', () => {
    const draft = starvedOf({ services: services({ subnets: 'subnet-0fff5555aaaa6666b' }), failure: subnetFailure, fleetChange: { service: 'loadgen', summary: 'ECS CreateService loadgen: desiredCount 400, launchType FARGATE' } });
    expect(draft.rootCause.service).not.toBe('loadgen');
  });

  it('refused by the account\'s quota of network interfaces, is starved by the fleet anywhere in the account', () => {
    const draft = starvedOf({
      services: services({}),
      failure: { service: 'app', message: 'ResourceInitializationError: unable to create network interface: NetworkInterfaceLimitExceeded: You have reached the maximum number of network interfaces' },
      fleetChange: { service: 'loadgen', summary: 'loadgen desired count 0 -> 900 for the rehearsal' },
    });
    expect(draft.rootCause).toMatchObject({ service: 'loadgen', category: 'resource-exhaustion' });
  });

  it('reported by its caller (a function that cannot set up its VPC access), is the callee that runs in the subnets', () => {
    const draft = starvedOf({
      services: [
        { name: 'web', kind: 'apigateway', dependsOn: ['fn'] },
        { name: 'fn', kind: 'lambda', tags: { subnets: APP_SUBNETS } },
        { name: 'loadgen', kind: 'ec2', tags: { subnets: APP_SUBNETS } },
      ],
      failure: { service: 'web', message: 'Lambda invocation failed with status: 502. Lambda was not able to set up VPC access for the Lambda function because one or more configured subnets has no available IP addresses.' },
      fleetChange: { service: 'loadgen', summary: 'Desired capacity 6 -> 120 for the backfill' },
    });
    expect(draft.rootCause.service).toBe('loadgen');
    expect(draft.remediation.map((item) => `${item.action} ${item.target}`)).toEqual(['scale loadgen', 'scale fn']);
  });
});
