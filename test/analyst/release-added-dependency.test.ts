import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-06-03T11:00:00.000Z';
const lines = linesFrom(START);

/** A gateway in front of a shipping service released at minute 60; from then on the service's calls to an address vendor are refused with 429s. */
const released = ({ calledBefore, dependencyChanged = false }: { calledBefore: boolean; dependencyChanged?: boolean }) =>
  diagnose(
    boardFrom({
      brief: 'A teammate asks: "why do customers get 504s at the shipping step since lunch?"',
      services: [
        { name: 'shop-api', kind: 'apigateway', dependsOn: ['shipping-svc'] },
        { name: 'shipping-svc', kind: 'ecs', dependsOn: ['postalcheck'] },
        { name: 'address-hygiene', kind: 'lambda', dependsOn: ['postalcheck'] },
        { name: 'postalcheck', kind: 'external' },
      ],
      changes: [
        { service: 'shipping-svc', timestamp: at(START, 60), kind: 'deploy', summary: 'shipping-svc v4.7.0 rolled out' },
        ...(dependencyChanged ? [{ service: 'postalcheck', timestamp: at(START, 55), kind: 'network', summary: 'RevokeSecurityGroupIngress on postalcheck-egress: tcp/443 from shipping-svc-tasks' }] : []),
      ],
      metrics: [{ service: 'shop-api', name: '5XXError', points: series(START, 120, step(62, 0, 80)) }],
      logs: sorted([
        ...lines('shipping-svc', 0, 3, 40, 'INFO', (index) => `quote computed for cart c${index} in 120ms`),
        ...(calledBefore ? lines('shipping-svc', 5, 10, 5, 'INFO', (index) => `postalcheck verify ok for address a${index}`) : []),
        ...lines('shipping-svc', 61, 2, 25, 'WARN', () => 'postalcheck returned 429, retrying in 4000ms'),
        ...lines('shipping-svc', 62, 2, 25, 'ERROR', () => 'quote failed: postalcheck verify did not answer within 29000ms'),
      ]),
    }),
  );

describe('a dependency its caller began to call only with its latest release', () => {
  it('puts the fault at the release that added the calls, not at the provider that answers them', () => {
    const diagnosis = released({ calledBefore: false });
    expect(diagnosis.root).toBe('shipping-svc');
    expect(diagnosis.principles).toContain('release-added-dependency');
    expect(diagnosis.draft.rootCause.category).toBe('deploy');
    expect(diagnosis.draft.rootCause.summary).toContain('began calling postalcheck, which it did not call before');
  });

  it('a dependency the caller called before its release is judged by how it answers', () => {
    const diagnosis = released({ calledBefore: true });
    expect(diagnosis.principles).not.toContain('release-added-dependency');
  });

  it('a dependency that changed itself is explained by its own change', () => {
    const diagnosis = released({ calledBefore: false, dependencyChanged: true });
    expect(diagnosis.principles).not.toContain('release-added-dependency');
  });
});
