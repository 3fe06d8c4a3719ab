import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series, step } from './board-builder.ts';

const START = '2026-08-22T08:00:00.000Z';

/**
 * A BFF whose calls to a slowed availability service are each retried, or not: `perRequest` after
 * minute 90. `handshakesFail`: the availability service's TLS handshakes fail from minute 90 too.
 */
const incident = (perRequest: number, callers: string[] = ['bff'], handshakesFail = false) =>
  boardFrom({
    brief: 'CloudWatch alarm "bff-5xx" is in ALARM',
    services: [
      ...callers.map((name) => ({ name, kind: 'ecs', dependsOn: ['availability'] })),
      { name: 'availability', kind: 'ecs' },
    ],
    alarms: [{ name: 'bff-5xx', service: 'bff', state: 'ALARM', since: at(START, 94) }],
    changes: [{ service: 'bff', timestamp: at(START, -3 * 24 * 60), kind: 'deploy', summary: 'bff 5.2.0: new HTTP client with shared resilience defaults' }],
    metrics: [
      { service: 'bff', name: 'RequestCount', points: series(START, 120, (minute) => 1000 + (minute % 7) * 10) },
      { service: 'availability', name: 'RequestCount', points: series(START, 120, (minute) => (1000 + (minute % 7) * 10) * (minute >= 90 ? perRequest : 1.3)) },
      { service: 'availability', name: 'TargetResponseTime', points: series(START, 120, step(90, 0.15, 4)) },
      ...(handshakesFail ? [{ service: 'availability', name: 'ClientTLSNegotiationErrorCount', points: series(START, 120, step(90, 0, 300)) }] : []),
    ],
    logs: Array.from({ length: 10 }, (_, index) => ({ service: 'bff', timestamp: at(START, 91 + index * 2), level: 'ERROR', message: `GET /v2/availability failed: 503 from availability (attempt ${(index % 5) + 1})` })),
  });

describe('retries that amplify', () => {
  it('a callee asked many times more often per request its sole caller serves is hammered by the caller’s retries; the caller’s release is where they came from', () => {
    const diagnosis = diagnose(incident(8));
    expect(diagnosis.root).toBe('bff');
    expect(diagnosis.principles).toContain('retries-amplify');
    expect(diagnosis.draft.rootCause.category).toBe('deploy');
    expect(diagnosis.draft.rootCause.summary).toMatch(/bff retries its calls to availability: availability gets 6 times as many requests for each request bff serves as usual/);
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'rollback', target: 'bff' });
  });

  it('a callee whose own evidence names a fault no load causes (its handshakes fail) is repeated because it fails: the retries are not the cause', () => {
    const diagnosis = diagnose(incident(8, ['bff'], true));
    expect(diagnosis.principles).not.toContain('retries-amplify');
    expect(diagnosis.root).toBe('availability');
  });

  it('requests that keep their usual ratio to the caller’s are no retries', () => {
    expect(diagnose(incident(1.4)).principles).not.toContain('retries-amplify');
  });

  it('requests the caller moved from one of its callees to another are a shift, not retries: what both get together per request held', () => {
    /** bff calls two stacks; from minute 90 the new one gets `newShare` of its requests and the old one `oldShare`. */
    const shifted = (newShare: number, oldShare: number) =>
      diagnose(
        boardFrom({
          brief: 'CloudWatch alarm "bff-5xx" is in ALARM',
          services: [{ name: 'bff', kind: 'ecs', dependsOn: ['search', 'search-g2'] }, { name: 'search', kind: 'ecs' }, { name: 'search-g2', kind: 'ecs' }],
          alarms: [{ name: 'bff-5xx', service: 'bff', state: 'ALARM', since: at(START, 94) }],
          metrics: [
            { service: 'bff', name: 'RequestCount', points: series(START, 120, (minute) => 1000 + (minute % 7) * 10) },
            { service: 'search', name: 'RequestCount', points: series(START, 120, (minute) => (1000 + (minute % 7) * 10) * (minute >= 90 ? oldShare : 0.7)) },
            { service: 'search-g2', name: 'RequestCount', points: series(START, 120, (minute) => (1000 + (minute % 7) * 10) * (minute >= 90 ? newShare : 0.3)) },
            { service: 'search-g2', name: 'TargetResponseTime', points: series(START, 120, step(90, 0.15, 4)) },
          ],
          logs: Array.from({ length: 10 }, (_, index) => ({ service: 'bff', timestamp: at(START, 91 + index * 2), level: 'ERROR', message: 'GET /v2/search failed: 503 from search-g2' })),
        }),
      ).principles;
    expect(shifted(0.9, 0.1)).not.toContain('retries-amplify');
    expect(shifted(2.4, 0.7)).toContain('retries-amplify');
  });

  it('with another client, the extra requests may be that client’s load: no caller is blamed for them', () => {
    expect(diagnose(incident(8, ['bff', 'batch-sync'])).principles).not.toContain('retries-amplify');
  });
});
