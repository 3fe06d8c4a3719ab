import { describe, expect, it } from 'vitest';
import { rekeyedCacheOf } from '../../lib/analyst/cache-misses.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-02-02T00:00:00.000Z';
const HOURS = 7 * 24;

/** A CDN in front of a web origin; the origin's requests surge on day seven. `hitRateFalls`: the CDN's hit rate drops after a policy change on day five. */
const incident = (hitRateFalls: boolean) =>
  boardFrom({
    brief: 'CloudWatch alarm "web-cpu-high" is in ALARM',
    services: [
      { name: 'cdn', kind: 'cloudfront', dependsOn: ['web'] },
      { name: 'web', kind: 'ecs', dependsOn: ['web-db'] },
      { name: 'web-db', kind: 'rds' },
    ],
    alarms: [{ name: 'web-cpu-high', service: 'web', state: 'ALARM', since: at(START, (HOURS - 2) * 60) }],
    changes: [
      { service: 'cdn', timestamp: at(START, 4 * 24 * 60 + 21 * 60), kind: 'config', summary: 'UpdateDistribution cdn: default cache behavior cache policy v2 -> v3' },
      { service: 'web', timestamp: at(START, 3 * 24 * 60), kind: 'deploy', summary: 'web 2.40.0 (departure boards)' },
    ],
    metrics: [
      { service: 'cdn', name: 'CacheHitRate', stat: 'Average', periodSeconds: 3600, points: series(START, HOURS * 60, (minute) => (hitRateFalls && minute >= (4 * 24 + 22) * 60 ? 7 : 93)).filter((_, minute) => minute % 60 === 0) },
      {
        service: 'web',
        name: 'RequestCount',
        stat: 'Sum',
        periodSeconds: 3600,
        points: series(START, HOURS * 60, (minute) => (minute >= (HOURS - 6) * 60 ? 90_000 : 6_000)).filter((_, minute) => minute % 60 === 0),
      },
      { service: 'web', name: 'CPUUtilization', stat: 'Average', periodSeconds: 3600, points: series(START, HOURS * 60, (minute) => (minute >= (HOURS - 4) * 60 ? 98 : 45)).filter((_, minute) => minute % 60 === 0) },
    ],
  });

describe('an origin carrying the misses of the cache in front of it', () => {
  it('is loaded by that cache: the cache, and the policy change after which it stopped hitting, is the cause', () => {
    const diagnosis = diagnose(incident(true));
    expect(diagnosis.root).toBe('cdn');
    expect(diagnosis.principles).toContain('cache-misses-are-load');
    expect(diagnosis.draft.rootCause.category).toBe('config');
    expect(diagnosis.draft.rootCause.summary).toMatch(/cdn hits its cache less \(CacheHitRate at cdn went down from 93 to 7/);
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'revert-config', target: 'cdn' });
  });

  it('behind a cache that hits as usual, the surge is the origin’s own demand', () => {
    const diagnosis = diagnose(incident(false));
    expect(diagnosis.principles).not.toContain('cache-misses-are-load');
    expect(diagnosis.root).toBe('web');
  });
});

describe('an origin on the way to the root carrying a cache\'s misses', () => {
  const MINUTE_START = '2026-06-23T09:00:00.000Z';
  const lines = linesFrom(MINUTE_START);
  const board = (hitRateFalls: boolean) =>
    boardFrom({
      brief: 'CloudWatch alarm "cdn-5xx-error-rate" is in ALARM',
      services: [
        { name: 'cdn', kind: 'cloudfront', dependsOn: ['alb'] },
        { name: 'alb', kind: 'elb', dependsOn: ['web'] },
        { name: 'web', kind: 'ecs', dependsOn: ['search'] },
        { name: 'search', kind: 'other' },
      ],
      alarms: [{ name: 'cdn-5xx-error-rate', service: 'cdn', state: 'ALARM', since: at(MINUTE_START, 80) }],
      changes: [{ service: 'cdn', timestamp: at(MINUTE_START, 72), kind: 'config', summary: 'Terraform apply cdn-prod: cache policy catalog-listing updated' }],
      metrics: [
        { service: 'cdn', name: 'CacheHitRate', points: series(MINUTE_START, 120, (minute) => (hitRateFalls && minute >= 73 ? 21 : 91)) },
        { service: 'cdn', name: '5xxErrorRate', points: series(MINUTE_START, 120, step(74, 0.05, 10)) },
        { service: 'alb', name: 'RequestCount', points: series(MINUTE_START, 120, step(73, 1700, 10600)) },
        { service: 'alb', name: 'HTTPCode_ELB_5XX_Count', points: series(MINUTE_START, 120, step(75, 0, 700)) },
        { service: 'web', name: 'CPUUtilization', points: series(MINUTE_START, 120, step(73, 20, 97)) },
        { service: 'search', name: 'SearchLatency', points: series(MINUTE_START, 120, step(74, 27, 190)) },
      ],
      logs: sorted([
        ...lines('web', 0, 5, 24, 'INFO', (index) => `GET /c/${index} 200`),
        ...lines('web', 78, 3, 12, 'ERROR', () => 'SSR render aborted after 5000ms: search request timed out after 3000ms; responding 503'),
        ...lines('search', 79, 3, 10, 'WARN', () => 'slow query index=products took 1850ms; thread pool queue=232/1000'),
      ]),
    });

  it('is loaded by that cache even when the failure is followed further down: the cache and its change are the cause', () => {
    const diagnosis = diagnose(board(true));
    expect(diagnosis.root).toBe('cdn');
    expect(diagnosis.principles).toContain('cache-misses-are-load');
    expect(diagnosis.draft.rootCause.summary).toMatch(/go on to alb as cache misses/);
  });

  it('behind a cache that hits as usual, the load is not the cache\'s', () => {
    expect(diagnose(board(false)).principles).not.toContain('cache-misses-are-load');
  });
});

describe('a cache that misses just after a client that reads it was released', () => {
  const MINUTE_START = '2026-08-11T07:00:00.000Z';
  const lines = linesFrom(MINUTE_START);
  /** A pricing service reads a Redis cache before calling its suppliers; `cacheChangedAfter`: the cache's own parameters changed after the release. */
  const board = (cacheChangedAfter: boolean) =>
    boardFrom({
      brief: 'CloudWatch alarm "fares-fn-errors" is in ALARM',
      services: [
        { name: 'fares-fn', kind: 'lambda', dependsOn: ['pricing'] },
        { name: 'pricing', kind: 'ecs', dependsOn: ['price-cache', 'suppliers'] },
        { name: 'price-cache', kind: 'other', arn: 'arn:aws:elasticache:eu-west-1:123456789012:replicationgroup:price-cache' },
        { name: 'suppliers', kind: 'external' },
      ],
      alarms: [{ name: 'fares-fn-errors', service: 'fares-fn', state: 'ALARM', since: at(MINUTE_START, 80) }],
      changes: [
        { service: 'price-cache', timestamp: at(MINUTE_START, -3 * 24 * 60), kind: 'infrastructure', summary: 'ElastiCache engine patch applied in the maintenance window' },
        { service: 'pricing', timestamp: at(MINUTE_START, 68), kind: 'deploy', summary: 'pricing 8.2.0 rolled out' },
        ...(cacheChangedAfter ? [{ service: 'price-cache', timestamp: at(MINUTE_START, 70), kind: 'config', summary: 'ModifyCacheParameterGroup price-cache: maxmemory-policy allkeys-lru -> volatile-ttl' }] : []),
      ],
      metrics: [
        { service: 'price-cache', name: 'CacheHitRate', points: series(MINUTE_START, 120, step(72, 94, 6)) },
        { service: 'pricing', name: 'TargetResponseTime', points: series(MINUTE_START, 120, step(72, 0.12, 2.9)) },
        { service: 'fares-fn', name: 'Errors', points: series(MINUTE_START, 120, step(72, 0, 300)) },
      ],
      logs: sorted([
        ...lines('pricing', 0, 5, 24, 'INFO', (index) => `priced basket ${index}`),
        ...lines('fares-fn', 73, 3, 12, 'ERROR', () => 'Task timed out after 6.00 seconds'),
      ]),
    });

  it('is asked differently by that release: the client and its release are the cause, and the cache is said to work', () => {
    const diagnosis = diagnose(board(false));
    expect(diagnosis.root).toBe('pricing');
    expect(diagnosis.principles).toContain('client-change-at-shared-resource');
    expect(diagnosis.draft.rootCause.summary).toMatch(/price-cache hits far less since pricing's release/);
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'rollback', target: 'pricing' });
  });

  it('but a change of the cache\'s own after the release is the nearer reason; one days before it is not', () => {
    expect(diagnose(board(true)).draft.rootCause.summary).not.toMatch(/hits far less since pricing's release/);
    const readOn = (cacheChangedAfter: boolean) => {
      const evidence = board(cacheChangedAfter);
      return rekeyedCacheOf(evidence, 'price-cache', collectSignals(evidence));
    };
    expect(readOn(false)).toMatchObject({ client: 'pricing', change: { summary: 'pricing 8.2.0 rolled out' } });
    expect(readOn(true)).toBeUndefined();
  });
});

describe('a database carrying the misses of a cache its callers read first', () => {
  const MINUTE_START = '2026-03-17T06:00:00.000Z';
  /** An API reads a Redis cache, then the database on a miss; `hitRateFalls`: the cache hits less after its nodes were made smaller. */
  const board = (hitRateFalls: boolean) =>
    boardFrom({
      brief: 'CloudWatch alarm "menu-db-cpu" is in ALARM',
      services: [
        { name: 'menu-api', kind: 'ecs', dependsOn: ['menu-cache', 'menu-db'] },
        { name: 'menu-cache', kind: 'other', tags: { engine: 'valkey 8' } },
        { name: 'menu-db', kind: 'rds' },
        { name: 'menu-sync', kind: 'ecs', dependsOn: ['menu-db'] },
      ],
      alarms: [{ name: 'menu-db-cpu', service: 'menu-db', state: 'ALARM', since: at(MINUTE_START, 100) }],
      changes: [
        { service: 'menu-cache', timestamp: at(MINUTE_START, 20), kind: 'config', summary: 'ModifyReplicationGroup menu-cache: smaller nodes' },
        { service: 'menu-sync', timestamp: at(MINUTE_START, 85), kind: 'deploy', summary: 'menu-sync 1.9.0 rolled out' },
      ],
      metrics: [
        { service: 'menu-cache', name: 'CacheHitRate', points: series(MINUTE_START, 120, (minute) => (hitRateFalls && minute >= 70 ? 40 : 96)) },
        { service: 'menu-db', name: 'ReadIOPS', points: series(MINUTE_START, 120, step(70, 150, 2400)) },
        { service: 'menu-db', name: 'CPUUtilization', points: series(MINUTE_START, 120, step(72, 18, 95)) },
        { service: 'menu-api', name: 'RequestCount', points: series(MINUTE_START, 120, () => 9000) },
      ],
    });

  it('is loaded by that cache: the cache, and the change after which it stopped hitting, is the cause', () => {
    const diagnosis = diagnose(board(true));
    expect(diagnosis.root).toBe('menu-cache');
    expect(diagnosis.principles).toContain('cache-misses-are-load');
    expect(diagnosis.draft.rootCause.summary).toMatch(/go on to menu-db as cache misses/);
  });

  it('beside a cache that hits as usual, the database\'s load is not the cache\'s', () => {
    expect(diagnose(board(false)).principles).not.toContain('cache-misses-are-load');
  });
});
