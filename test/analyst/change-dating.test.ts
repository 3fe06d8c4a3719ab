import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

/** A CDN whose 403 rate (a percentage, measured from minute 30) ramps up from minute 45, in front of a bucket that changed shortly before. */
const forbiddenAtTheEdge = (changes: { service: string; timestamp: string; kind: string; summary: string }[]) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "cdn-4xx-rate" is in ALARM',
      services: [
        { name: 'web', kind: 'ecs', dependsOn: ['cdn'] },
        { name: 'cdn', kind: 'cloudfront', dependsOn: ['media'] },
        { name: 'media', kind: 's3' },
      ],
      alarms: [{ name: 'cdn-4xx-rate', service: 'cdn', state: 'ALARM', since: at(START, 55) }],
      changes,
      metrics: [{ service: 'cdn', name: '4xxErrorRate', unit: 'Percent', points: series(at(START, 30), 50, (minute) => (minute < 15 ? 0.4 : 0.4 + (minute - 15) * 1.2)) }],
      logs: Array.from({ length: 12 }, (_, index) => ({ service: 'cdn', timestamp: at(START, 50 + index * 2), level: 'ERROR', message: `GET /items/${index}/hero.webp 403 x-edge-detailed-result-type=Error AccessDenied` })),
    }),
  );

describe('a trouble that ramps up is dated from where the ramp begins', () => {
  it('a ramp toward the limit is dated from where it begins, so a change before the ramp still explains it', () => {
    const diagnosis = forbiddenAtTheEdge([{ service: 'media', timestamp: at(START, 41), kind: 'iam', summary: 'PutBucketPolicy on media (security baseline v7)' }]);
    expect(diagnosis.suspectChange?.summary).toContain('PutBucketPolicy');
  });
});

describe('a root with no evidence of its own is dated by the trouble it is blamed for', () => {
  it('a capacity the refused service is handed to, silent itself, does not hide the network change on the cache the errors time out on', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "quote-api-5xx" is in ALARM',
        services: [
          { name: 'web', kind: 'ecs', dependsOn: ['quote-api'] },
          { name: 'quote-api', kind: 'ecs', dependsOn: ['fare-cache', 'sailings-db'] },
          { name: 'fare-cache', kind: 'other' },
          { name: 'sailings-db', kind: 'rds' },
          { name: 'sync', kind: 'lambda', dependsOn: ['sailings-db'] },
        ],
        alarms: [{ name: 'quote-api-5xx', service: 'quote-api', state: 'ALARM', since: at(START, 62) }],
        changes: [
          { service: 'fare-cache', timestamp: at(START, 52), kind: 'network', summary: 'RevokeSecurityGroupIngress on fare-cache-sg: tcp/6379 from quote-api-tasks' },
          { service: 'quote-api', timestamp: at(START, 60), kind: 'deploy', summary: 'quote-api 7.2.0 rolled out' },
        ],
        metrics: [{ service: 'quote-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 90, (minute) => (minute < 60 ? 1 : 1200)) }],
        logs: Array.from({ length: 12 }, (_, index) => ({
          service: 'quote-api',
          timestamp: at(START, 61 + index * 2),
          level: 'ERROR',
          message: index % 2 === 0 ? 'POST /quotes 503: MaxRetriesPerRequestError: Reached the max retries per request limit (which is 20)' : '[ioredis] Unhandled error event: Error: connect ETIMEDOUT port=6379',
        })),
      }),
    );
    expect(diagnosis.root).toBe('fare-cache');
    expect(diagnosis.category).toBe('network');
  });
});
