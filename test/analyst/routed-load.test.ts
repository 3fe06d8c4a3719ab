import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series, step } from './board-builder.ts';

const START = '2026-06-09T08:00:00.000Z';
/** The weights move at minute 120; two hours before it, one after. */
const CUTOVER = 120;

const cutover = (change: { kind: string; summary: string; details?: Record<string, unknown> } | undefined, requests: (minute: number) => number) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "web-5xx" is in ALARM',
      services: [
        { name: 'web', kind: 'ecs', dependsOn: ['api-green', 'api-blue'] },
        { name: 'api-green', kind: 'ecs' },
        { name: 'api-blue', kind: 'ecs' },
      ],
      alarms: [{ name: 'web-5xx', service: 'web', state: 'ALARM', since: at(START, CUTOVER + 6) }],
      changes: change ? [{ service: 'api-green', timestamp: at(START, CUTOVER - 2), ...change }] : [],
      logs: Array.from({ length: 12 }, (_, index) => ({ service: 'api-green', timestamp: at(START, CUTOVER + 3 + index * 4), level: 'ERROR', message: 'Connection queue full: maxThreads=200 busy=200; request rejected' })),
      metrics: [
        { service: 'api-green', name: 'RequestCount', stat: 'Sum', points: series(START, 180, requests) },
        { service: 'api-green', name: 'HTTPCode_Target_5XX_Count', stat: 'Sum', points: series(START, 180, step(CUTOVER + 2, 0, 90)) },
        { service: 'api-green', name: 'CPUUtilization', points: series(START, 180, step(CUTOVER + 2, 20, 98)) },
        { service: 'api-green', name: 'HealthyHostCount', points: series(START, 180, () => 2) },
        { service: 'web', name: 'HTTPCode_Target_5XX_Count', stat: 'Sum', points: series(START, 180, step(CUTOVER + 4, 0, 80)) },
      ],
    }),
  ).draft;

const weights = { kind: 'network', summary: 'ChangeResourceRecordSets api.example.com: UPSERT A alias weighted (blue weight 0, green weight 100)' };
const surge = step(CUTOVER + 1, 100, 1500);

describe('traffic a routing change moved onto a service that was not scaled for it', () => {
  it('is the routing setting (config), with the capacity that gave way named; the traffic goes back, then the service is scaled', () => {
    const draft = cutover(weights, surge);
    expect(draft.rootCause).toMatchObject({ service: 'api-green', category: 'config' });
    expect(draft.rootCause.summary).toContain('not scaled');
    expect(draft.rootCause.summary).toContain('HealthyHostCount at most 2');
    expect(draft.remediation.map((item) => `${item.action} ${item.target}`).slice(0, 2)).toEqual(['revert-config api-green', 'scale api-green']);
  });

  it('is not a routing change after which the service took a few tens of percent more requests', () => {
    expect(cutover(weights, step(CUTOVER + 1, 100, 130)).rootCause.category).not.toBe('config');
  });

  it('is not a change that moves no traffic, however the requests rose after it', () => {
    expect(cutover({ kind: 'network', summary: 'AuthorizeSecurityGroupIngress sg-0a1b: tcp 8080 from 10.0.0.0/16' }, surge).rootCause.category).not.toBe('config');
  });

  it('is not a change that names a key by its alias: `alias/orders-pii` is a KMS key alias, not a DNS alias record', () => {
    expect(cutover({ kind: 'config', summary: 'Automatic key rotation completed for alias/orders-pii (CloudTrail RotateKey)' }, surge).rootCause.summary).not.toContain('moved traffic');
    expect(cutover({ kind: 'network', summary: 'Route 53 UPSERT api.example.com A alias to the green load balancer' }, surge).rootCause.summary).toContain('moved traffic');
  });

  it('is not a function alias moved to its new version: that releases the same code path, sending it no one else\'s traffic', () => {
    expect(cutover({ kind: 'deploy', summary: 'api-green 4.2.0: alias prod moved to version 18 (from 17)' }, surge).rootCause.summary).not.toContain('moved traffic');
    // The alias named again in the release's details is the same release.
    const published = { kind: 'deploy', summary: 'api-green 4.3.0: UpdateFunctionCode + PublishVersion 19; alias live 18 -> 19', details: { alias: 'live', functionVersion: '19' } };
    expect(cutover(published, surge).rootCause.summary).not.toContain('moved traffic');
  });
});

/** The same cutover filed at the router in front of both stacks: a weighted record the callers resolve. */
const cutoverAtRouter = (change: { kind: string; summary: string } | undefined) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "web-5xx" is in ALARM',
      services: [
        { name: 'web', kind: 'ecs', dependsOn: ['api-record'] },
        { name: 'api-record', kind: 'other', dependsOn: ['api-green', 'api-blue'], tags: { record: 'api.example.com (weighted alias)' } },
        { name: 'api-green', kind: 'ecs' },
        { name: 'api-blue', kind: 'ecs' },
      ],
      alarms: [{ name: 'web-5xx', service: 'web', state: 'ALARM', since: at(START, CUTOVER + 6) }],
      changes: change ? [{ service: 'api-record', timestamp: at(START, CUTOVER - 2), ...change }] : [],
      logs: [
        ...Array.from({ length: 12 }, (_, index) => ({ service: 'api-green', timestamp: at(START, CUTOVER + 3 + index * 4), level: 'ERROR', message: 'Connection queue full: maxThreads=200 busy=200; request rejected' })),
        ...Array.from({ length: 12 }, (_, index) => ({ service: 'web', timestamp: at(START, CUTOVER + 4 + index * 4), level: 'ERROR', message: `GET https://api.example.com/v1/items/${index} -> 503 Service Unavailable` })),
      ],
      metrics: [
        { service: 'api-green', name: 'RequestCount', stat: 'Sum', points: series(START, 180, surge) },
        { service: 'api-green', name: 'HTTPCode_Target_5XX_Count', stat: 'Sum', points: series(START, 180, step(CUTOVER + 2, 0, 90)) },
        { service: 'api-green', name: 'HealthyHostCount', points: series(START, 180, () => 2) },
        { service: 'web', name: 'HTTPCode_Target_5XX_Count', stat: 'Sum', points: series(START, 180, step(CUTOVER + 4, 0, 80)) },
      ],
    }),
  ).draft;

describe('traffic a router in front of the service moved onto it', () => {
  it('is the router’s change: the traffic goes back at the router, then the service it landed on is scaled', () => {
    const draft = cutoverAtRouter(weights);
    expect(draft.rootCause).toMatchObject({ service: 'api-record', category: 'config' });
    expect(draft.rootCause.summary).toContain('to api-record moved traffic onto api-green');
    expect(draft.remediation.map((item) => `${item.action} ${item.target}`).slice(0, 2)).toEqual(['revert-config api-record', 'scale api-green']);
  });

  it('is not a router’s change that moves no traffic (its access logs turned on)', () => {
    const draft = cutoverAtRouter({ kind: 'config', summary: 'ModifyLoadBalancerAttributes: access_logs.s3.enabled false -> true' });
    expect(draft.rootCause.summary).not.toContain('moved traffic');
    expect(draft.remediation.map((item) => `${item.action} ${item.target}`)).not.toContain('scale api-green');
  });

  it('is not the router without a change', () => {
    expect(cutoverAtRouter(undefined).rootCause.service).not.toBe('api-record');
  });
});
