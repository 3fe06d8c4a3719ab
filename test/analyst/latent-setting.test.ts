import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-03-14T18:00:00.000Z';
const DAY_MINUTES = 24 * 60;

interface Shape {
  /** The change at the cache, this many minutes before the evidence starts. */
  changedMinutesBefore?: number;
  summary?: string;
  details?: Record<string, unknown>;
}

const evictionPolicy = {
  summary: 'ModifyCacheParameterGroup pass-cache-params: platform baseline (1 parameter)',
  details: { eventName: 'ModifyCacheParameterGroup', requestParameters: { parameterNameValues: [{ parameterName: 'maxmemory-policy', parameterValue: 'noeviction' }] } },
};

/** A web API whose session writes to its Redis cache are refused when the cache's memory is full; a cache setting changed days before. */
const incident = ({ changedMinutesBefore = 3 * DAY_MINUTES, summary = evictionPolicy.summary, details = evictionPolicy.details }: Shape = {}) =>
  boardFrom({
    brief: 'CloudWatch alarm "web-5xx" is in ALARM',
    services: [
      { name: 'web', kind: 'ecs', dependsOn: ['pass-cache', 'web-db', 'card-provider'] },
      { name: 'pass-cache', kind: 'other', arn: 'arn:aws:elasticache:us-west-2:111122223333:replicationgroup:pass-cache', tags: { engine: 'redis 7.1' } },
      { name: 'web-db', kind: 'rds' },
      { name: 'card-provider', kind: 'external' },
    ],
    alarms: [{ name: 'web-5xx', service: 'web', state: 'ALARM', since: at(START, 40) }],
    changes: [
      { service: 'pass-cache', timestamp: at(START, -changedMinutesBefore), kind: 'config', summary, details },
      { service: 'web', timestamp: at(START, -2 * DAY_MINUTES), kind: 'deploy', summary: 'web 3.14.0 (upgrade banner)' },
    ],
    metrics: [{ service: 'web', name: 'HTTPCode_Target_5XX_Count', points: series(START, 60, (minute) => (minute >= 35 ? 40 + minute : 0)) }],
    logs: [
      ...Array.from({ length: 20 }, (_, index) => ({ service: 'web', timestamp: at(START, index * 3), level: 'INFO', message: `GET /v1/passes/${200 + index} 200 in 31 ms` })),
      ...Array.from({ length: 14 }, (_, index) => ({
        service: 'web',
        timestamp: at(START, 35 + index),
        level: 'ERROR',
        message: `POST /v1/sessions -> 500: ReplyError: OOM command not allowed when used memory > 'maxmemory'. (command SET, key sess:${9000 + index})`,
      })),
    ],
  });

describe('a setting that waited for the condition it governs', () => {
  it('a Redis cache refusing writes at maxmemory is where the fault is, and the eviction setting changed days before explains it', () => {
    const diagnosis = diagnose(incident());
    expect(diagnosis.root).toBe('pass-cache');
    expect(diagnosis.principles).toContain('latent-setting');
    expect(diagnosis.draft.rootCause.category).toBe('config');
    expect(diagnosis.draft.rootCause.summary).toMatch(/pass-cache is full: its memory reached maxmemory and it refuses writes instead of evicting keys/);
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'revert-config', target: 'pass-cache' });
  });

  it('a change more than a week before, or one that only raised a capacity, is not it', () => {
    expect(diagnose(incident({ changedMinutesBefore: 9 * DAY_MINUTES })).principles).not.toContain('latent-setting');
    expect(diagnose(incident({ summary: 'ModifyReplicationGroup pass-cache: memory nodes 2 -> 4', details: {} })).principles).not.toContain('latent-setting');
  });

  it('a bare count of refusals states no failure a setting days old could be matched to', () => {
    const bucket = boardFrom({
      brief: 'CloudWatch alarm "assets-4xx" is in ALARM',
      services: [{ name: 'assets', kind: 's3' }],
      alarms: [{ name: 'assets-4xx', service: 'assets', state: 'ALARM', since: at(START, 40) }],
      changes: [{ service: 'assets', timestamp: at(START, -2 * DAY_MINUTES), kind: 'config', summary: 'PutBucketPolicy assets: allow GET from the partner account' }],
      metrics: [{ service: 'assets', name: '4xxErrors', stat: 'Sum', points: series(START, 60, (minute) => (minute >= 35 ? 300 : 2)) }],
    });
    expect(diagnose(bucket).principles).not.toContain('latent-setting');
  });

  it('a change whose effect is not the failure shown is not it', () => {
    expect(diagnose(incident({ summary: 'AddTagsToResource pass-cache: cost-centre', details: {} })).principles).not.toContain('latent-setting');
  });
});
