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
