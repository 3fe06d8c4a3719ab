import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { inferCause } from '../../lib/analyst/infer-cause.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-03-10T06:00:00.000Z';
const lines = linesFrom(START);

const repoint = {
  kind: 'network',
  summary: 'Route 53 ChangeResourceRecordSets on private hosted zone corp.internal by terraform apply',
  details: { changes: [{ action: 'UPSERT', name: 'orders-db.corp.internal.', type: 'CNAME', value: 'orders-legacy.cluster-ro-abc123.eu-west-1.rds.amazonaws.com' }] },
};
const readOnly = 'ERROR: cannot execute INSERT in a read-only transaction (SQLSTATE 25006)';

interface Shape {
  change?: { kind: string; summary: string; details?: Record<string, unknown> };
  /** What both clients complain of, from minute `failingFrom`. */
  failure?: string;
  failingFrom?: number;
}

/** Two clients write to a database through a private DNS name; the change comes at minute 60. */
const board = ({ change = repoint, failure = readOnly, failingFrom = 61 }: Shape = {}) =>
  boardFrom({
    brief: 'CloudWatch alarm checkout-api-5xx is in ALARM',
    services: [
      { name: 'storefront', kind: 'ecs', dependsOn: ['checkout-api'] },
      { name: 'checkout-api', kind: 'ecs', dependsOn: ['private-dns', 'orders-db'] },
      { name: 'stock-sync', kind: 'ecs', dependsOn: ['private-dns', 'orders-db'] },
      { name: 'private-dns', kind: 'other' },
      { name: 'orders-db', kind: 'rds' },
    ],
    alarms: [{ name: 'checkout-api-5xx', service: 'checkout-api', state: 'ALARM', since: at(START, failingFrom + 4) }],
    changes: [{ service: 'private-dns', timestamp: at(START, 60), ...change }],
    logs: sorted([
      ...lines('checkout-api', 0, 3, 20, 'INFO', (index) => `POST /v1/orders 201 order=o${index}`),
      ...lines('stock-sync', 0, 5, 12, 'INFO', (index) => `batch b${index} committed 40 rows`),
      // The batch job is refused a moment before the API is.
      ...lines('stock-sync', failingFrom, 2, 28, 'ERROR', (index) => `batch c${index} insert failed: ${failure}; will retry in 30s`),
      ...lines('checkout-api', failingFrom + 1, 2, 28, 'ERROR', (index) => `POST /v1/orders 500 order=p${index} err="${failure}"`),
    ]),
    metrics: [
      { service: 'checkout-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, step(failingFrom + 1, 0, 30)) },
      { service: 'orders-db', name: 'CPUUtilization', points: series(START, 120, () => 18) },
    ],
  });

const planOf = (shape?: Shape) => diagnose(board(shape)).draft.remediation.map(({ action, target }) => `${action} ${target}`);

describe('writes refused by a read-only server after a change to where clients connect', () => {
  it('blame the change that repointed the name, undo it, then restart the clients holding connections to the reader (the alerting one first)', () => {
    const cause = inferCause(board());
    expect(cause).toMatchObject({ verdict: 'incident', root: 'private-dns', mechanism: { label: 'wrong endpoint', principle: 'mechanism-wrong-endpoint' } });
    expect(cause.verdict === 'incident' && cause.repointed?.clients).toEqual(['checkout-api', 'stock-sync']);
    expect(diagnose(board()).draft.rootCause.summary).toContain('a DNS record change that points checkout-api and stock-sync at a read-only server');
    expect(planOf()).toEqual(['revert-config private-dns', 'restart checkout-api', 'restart stock-sync']);
  });

  it('are no repointed endpoint when the change touched no endpoint, the errors are not refused writes, or the refusals came first', () => {
    const rule = { kind: 'network', summary: 'AuthorizeSecurityGroupIngress sg-0a1b2c on tcp/5432 from the batch subnet' };
    for (const shape of [{ change: rule }, { failure: 'connect ETIMEDOUT 10.0.4.17:5432' }, { failingFrom: 40 }]) {
      const cause = inferCause(board(shape));
      expect(cause.verdict === 'incident' && cause.repointed).toBeFalsy();
      expect(cause.verdict === 'incident' && cause.mechanism?.label).not.toBe('wrong endpoint');
    }
  });
});
