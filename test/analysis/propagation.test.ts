import { describe, expect, it } from 'vitest';
import { rankRootCandidates, type ServiceAnomaly } from '../../lib/analysis/propagation.ts';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 3, 6, 4, 0);
const anomaly = (service: string, minutes: number, severity = 1): ServiceAnomaly => ({
  service,
  onset: T0 + minutes * MINUTE,
  severity,
});

const chain = { web: ['order-service'], 'order-service': ['inventory'], inventory: [] };

describe('rankRootCandidates', () => {
  it('ranks the deepest, earliest service of a failure chain first', () => {
    const ranked = rankRootCandidates(chain, [anomaly('web', 4), anomaly('order-service', 2), anomaly('inventory', 0)]);
    expect(ranked.map((candidate) => candidate.service)).toEqual(['inventory', 'order-service', 'web']);
    expect(ranked[0]!.reason).toBe('earliest anomaly (04:00:00Z) with no anomalous dependency; its callers order-service, web failed later');
    expect(ranked[1]!.reason).toContain('inventory');
  });

  it('does not let a later, unrelated anomaly beat the root of the chain', () => {
    const graph = { ...chain, billing: ['ledger'], ledger: [] };
    const ranked = rankRootCandidates(graph, [
      anomaly('web', 3),
      anomaly('order-service', 2),
      anomaly('inventory', 1),
      anomaly('billing', 6, 5),
    ]);
    expect(ranked[0]!.service).toBe('inventory');
  });

  it('blames the callee when a caller only seems to fail first by less than a sampling period', () => {
    const ranked = rankRootCandidates(chain, [anomaly('order-service', 0), anomaly('inventory', 0.5)]);
    expect(ranked[0]!.service).toBe('inventory');
  });

  it('still ranks services missing from the graph, by onset', () => {
    const ranked = rankRootCandidates({}, [anomaly('b', 5), anomaly('a', 1)]);
    expect(ranked.map((candidate) => candidate.service)).toEqual(['a', 'b']);
    expect(ranked[0]!.reason).toContain('not in the dependency graph');
  });

  it('terminates on a cyclic graph', () => {
    const cyclic = { a: ['b'], b: ['c'], c: ['a'] };
    const ranked = rankRootCandidates(cyclic, [anomaly('a', 4), anomaly('b', 2), anomaly('c', 0)]);
    expect(ranked.map((candidate) => candidate.service)).toEqual(['c', 'b', 'a']);
  });

  it('keeps one entry per service, its earliest onset', () => {
    const ranked = rankRootCandidates(chain, [anomaly('inventory', 3), anomaly('inventory', 1, 2)]);
    expect(ranked).toHaveLength(1);
    expect(ranked[0]!.onset).toBe(T0 + MINUTE);
  });

  it('copes with an onset that is not known', () => {
    const ranked = rankRootCandidates(chain, [anomaly('web', 0), { service: 'inventory', onset: Number.POSITIVE_INFINITY, severity: 1 }]);
    expect(ranked).toHaveLength(2);
    expect(ranked.find((candidate) => candidate.service === 'inventory')!.reason).toContain('time unknown');
  });

  it('is empty for no anomalies', () => {
    expect(rankRootCandidates(chain, [])).toEqual([]);
  });
});
