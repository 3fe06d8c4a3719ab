import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const lines = linesFrom(START);

/**
 * A sweep over two unrelated troubles: a feed importer logging timeouts of its upstream since minute
 * 20, and an origin balancer refusing TLS handshakes since minute 60, which its CDN turns into 502s.
 */
const sweep = ({ importerErrors }: { importerErrors: 'level' | 'rising' | 'uncounted' }) =>
  diagnose(
    boardFrom({
      services: [
        { name: 'api-cdn', kind: 'cloudfront', dependsOn: ['origin-alb'] },
        { name: 'origin-alb', kind: 'elb', dependsOn: ['tides-api'] },
        { name: 'tides-api', kind: 'ecs' },
        { name: 'feed-importer', kind: 'lambda' },
      ],
      metrics: [
        { service: 'origin-alb', name: 'ClientTLSNegotiationErrorCount', points: series(START, 120, step(60, 0, 900)) },
        { service: 'api-cdn', name: '5xxErrorRate', points: series(START, 120, step(60, 0, 95)) },
        { service: 'feed-importer', name: 'Invocations', points: series(START, 120, () => 5) },
        ...(importerErrors === 'uncounted' ? [] : [{ service: 'feed-importer', name: 'Errors', points: series(START, 120, importerErrors === 'rising' ? step(20, 0, 5) : () => 0) }]),
      ],
      logs: sorted([
        ...lines('feed-importer', 0, 5, 24, 'INFO', (index) => `imported batch ${index}`),
        ...lines('feed-importer', 20, 15, 6, 'ERROR', (index) => `station ${index}: upstream feed timed out after 8000ms`),
        ...lines('tides-api', 0, 4, 30, 'INFO', (index) => `GET /v2/tides/${index} status=200`),
      ]),
    }),
  );

describe('with no alert to start from, a trouble a measure counts comes before an unrelated one whose logged errors its own failure counts never registered', () => {
  it('handshakes refused at the origin lead over timeouts an importer logged while its Errors stayed at zero', () => {
    const diagnosis = sweep({ importerErrors: 'level' });
    expect(diagnosis.root).toBe('origin-alb');
    expect(diagnosis.principles).toContain('counted-failures-before-logged');
    expect(diagnosis.draft.rootCause.summary).toMatch(/Separately, feed-importer/);
  });

  it('logged errors its own failure count also registered keep the earlier trouble first', () => {
    const diagnosis = sweep({ importerErrors: 'rising' });
    expect(diagnosis.root).toBe('feed-importer');
    expect(diagnosis.principles).not.toContain('counted-failures-before-logged');
  });

  it('a service that counts no failures says nothing of its logged errors: the earlier trouble keeps its place', () => {
    const diagnosis = sweep({ importerErrors: 'uncounted' });
    expect(diagnosis.root).toBe('feed-importer');
    expect(diagnosis.principles).not.toContain('counted-failures-before-logged');
  });
});
