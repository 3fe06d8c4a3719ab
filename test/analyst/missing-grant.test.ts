import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-04-07T08:00:00.000Z';
const lines = linesFrom(START);

/** A site whose CDN reads an origin from minute 60 on; uncached objects are refused from then (403 AccessDenied). */
const cdn = ({ originKind = 's3', refused = true }: { originKind?: string; refused?: boolean } = {}) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "site-images" is in ALARM',
      services: [
        { name: 'site', kind: 'ecs', dependsOn: ['assets-cdn'] },
        { name: 'assets-cdn', kind: 'cloudfront', dependsOn: ['assets-origin'], tags: { alias: 'assets.example.com' } },
        { name: 'assets-origin', kind: originKind },
      ],
      alarms: [{ name: 'site-images', service: 'site', state: 'ALARM', since: at(START, 70) }],
      changes: [
        { service: 'assets-origin', timestamp: at(START, -1440), kind: 'iam', summary: 'PutBucketPolicy assets-v2 (writers only)' },
        { service: 'assets-cdn', timestamp: at(START, 58), kind: 'config', summary: 'UpdateDistribution: origin assets.s3 -> assets-v2.s3' },
      ],
      metrics: [{ service: 'assets-cdn', name: '4xxErrorRate', points: series(START, 120, step(60, 0.4, 18)) }],
      logs: sorted([
        ...lines('site', 0, 4, 30, 'INFO', (index) => `GET /p/${index} 200`),
        ...lines('site', 61, 3, 18, 'ERROR', (index) => (refused ? `image load failed https://assets.example.com/img/${index}.webp status=403 AccessDenied` : `image load failed https://assets.example.com/img/${index}.webp status=502`)),
      ]),
    }),
  ).draft;

describe('a resource that refuses the AWS service acting for its caller', () => {
  it('lacks the grant in its own policy: the bucket is the root, and the grant is added there', () => {
    const draft = cdn();
    expect(draft.rootCause).toMatchObject({ service: 'assets-origin', category: 'permissions' });
    expect(draft.rootCause.summary).toContain('bucket policy does not grant cloudfront.amazonaws.com');
    expect(draft.remediation[0]).toMatchObject({ action: 'apply-fix', target: 'assets-origin' });
  });

  it('is no bucket’s policy when the origin keeps no resource policy (a load balancer)', () => {
    expect(cdn({ originKind: 'elb' }).rootCause.summary).not.toContain('does not grant');
  });

  it('is not read into errors that refuse nothing', () => {
    expect(cdn({ refused: false }).rootCause.summary).not.toContain('does not grant');
  });
});

/** An event bus delivering to a queue and a function; from minute 60 a share of its deliveries fail, and nothing says why in words. */
const bus = ({ rewritten = ['label-queue'], failing = true }: { rewritten?: string[]; failing?: boolean } = {}) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "labels-created-low" is in ALARM',
      services: [
        { name: 'orders', kind: 'ecs', dependsOn: ['commerce-bus'] },
        { name: 'commerce-bus', kind: 'other', dependsOn: ['label-queue', 'points'], tags: { type: 'EventBridge event bus' } },
        { name: 'label-queue', kind: 'sqs' },
        { name: 'points', kind: 'lambda' },
        { name: 'label-worker', kind: 'ecs', dependsOn: ['label-queue'] },
      ],
      alarms: [{ name: 'labels-created-low', service: 'label-worker', state: 'ALARM', since: at(START, 75) }],
      changes: rewritten.map((target, index) => ({ service: target, timestamp: at(START, 58 + index), kind: 'iam', summary: `terraform apply: + aws_sqs_queue_policy.${target} (SetQueueAttributes Policy)` })),
      metrics: [
        { service: 'commerce-bus', name: 'Invocations', points: series(START, 120, (minute) => 12 + (minute % 3)) },
        { service: 'commerce-bus', name: 'FailedInvocations', points: series(START, 120, step(60, 0, failing ? 10 : 0)) },
        { service: 'label-worker', name: 'LabelsCreated', points: series(START, 120, step(62, 12, 0)) },
      ],
      logs: sorted([...lines('orders', 0, 5, 24, 'INFO', (index) => `PutEvents ok detailType=OrderPaid orderId=${index}`)]),
    }),
  ).draft;

describe('a rule whose deliveries fail with no refusal in words', () => {
  it('points at the one target whose resource policy was rewritten before they began', () => {
    const draft = bus();
    expect(draft.rootCause.service).toBe('label-queue');
    expect(draft.rootCause.summary).toContain("commerce-bus's deliveries to label-queue fail since label-queue's queue policy was rewritten");
    // The rewrite came after the bus had been delivering: it is undone first, where the CDN's new origin only gets the grant added.
    expect(draft.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['revert-config label-queue', 'apply-fix label-queue']);
  });

  it('points at neither when both targets were rewritten, nor when no delivery failed', () => {
    expect(bus({ rewritten: ['label-queue', 'points'] }).rootCause.summary).not.toContain('does not grant');
    expect(bus({ failing: false }).rootCause.summary).not.toContain('does not grant');
  });
});
