import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { inferCause } from '../../lib/analyst/infer-cause.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-05-04T09:00:00.000Z';
const lines = linesFrom(START);

interface Shape {
  /** What quotes-api's server says as it starts after its release at minute 60. */
  listening?: string;
  /** Whether quotes-api answers 5xx of its own from minute 62. */
  targetFails?: boolean;
  /** The balancer series that rises from minute 62. */
  balancerSeries?: string;
  /** Whether quotes-api's responses slow down from minute 62 (its slow provider). */
  slow?: boolean;
  /** When quotes-api's release went out, in minutes from the start. */
  releasedAt?: number;
}

/** A balancer in front of two services; quotes-api calls a slow provider that warns throughout. */
const board = ({ listening = 'http server listening on 0.0.0.0:8080 (keepAliveTimeout=5000ms)', targetFails = false, balancerSeries = 'HTTPCode_ELB_502_Count', slow = false, releasedAt = 60 }: Shape = {}) =>
  boardFrom({
    brief: 'CloudWatch alarm edge-alb-502 is in ALARM',
    services: [
      { name: 'edge-alb', kind: 'elb', dependsOn: ['quotes-api', 'accounts-api'] },
      { name: 'quotes-api', kind: 'ecs', dependsOn: ['rating-provider'] },
      { name: 'accounts-api', kind: 'ecs', dependsOn: [] },
      { name: 'rating-provider', kind: 'external' },
    ],
    alarms: [{ name: 'edge-alb-502', service: 'edge-alb', state: 'ALARM', since: at(START, 75) }],
    changes: [{ service: 'quotes-api', timestamp: at(START, releasedAt), kind: 'deploy', summary: 'quotes-api 3.0.0: new HTTP server bootstrap' }],
    logs: sorted([
      ...lines('quotes-api', 0, 2, 60, 'INFO', (index) => `request completed POST /v1/quote statusCode=200 quote=q${index}`),
      ...lines('quotes-api', 5, 20, 6, 'WARN', (index) => `rating-provider lookup slow duration_ms=${2600 + index} (budget 2000ms)`),
      ...lines('quotes-api', 61, 1, 1, 'INFO', () => listening),
      ...lines('accounts-api', 0, 3, 40, 'INFO', (index) => `GET /v1/accounts/a${index} 200`),
    ]),
    metrics: [
      { service: 'edge-alb', name: balancerSeries, points: series(START, 120, step(62, 0, 9)) },
      { service: 'quotes-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, targetFails ? step(62, 0, 30) : () => 0) },
      { service: 'quotes-api', name: 'TargetResponseTime', points: series(START, 120, slow ? step(62, 0.12, 2.4) : () => 0.12) },
      { service: 'accounts-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, () => 0) },
    ],
  });

describe('a load balancer answering 502 itself while its target shows no failure of its own', () => {
  it('lost its connections to that target: the target and its release are the fault, not the slow provider it calls, and a keep-alive it states below the idle timeout is the mechanism', () => {
    const cause = inferCause(board());
    expect(cause).toMatchObject({ verdict: 'incident', root: 'quotes-api', category: 'deploy', mechanism: { label: 'bad gateway', principle: 'bad-gateway-at-target' } });
    expect(cause.verdict === 'incident' && cause.suspectChange?.summary).toContain('quotes-api 3.0.0');
    const { draft } = diagnose(board());
    expect(draft.rootCause.summary).toContain('quotes-api closes idle keep-alive connections after 5 s, sooner than the 60 s idle timeout of edge-alb');
    expect(draft.remediation.map(({ action, target }) => `${action} ${target}`)[0]).toBe('rollback quotes-api');
  });

  it('holds while the target is slow, and blames the target’s release of days before: a keep-alive closes few connections at a time', () => {
    const cause = inferCause(board({ slow: true, releasedAt: -3 * 24 * 60 }));
    expect(cause).toMatchObject({ verdict: 'incident', root: 'quotes-api', mechanism: { label: 'bad gateway' } });
    expect(cause.verdict === 'incident' && cause.suspectChange?.summary).toContain('quotes-api 3.0.0');
  });

  it('says no keep-alive numbers it was not shown, and is no bad gateway when the target fails requests itself or the balancer only counts all its 5xx', () => {
    expect(diagnose(board({ listening: 'http server listening on 0.0.0.0:8080' })).draft.rootCause.summary).toContain('a keep-alive timeout shorter than the balancer');
    expect(diagnose(board({ listening: 'http server listening on 0.0.0.0:8080 (keepAliveTimeout=65s)' })).draft.rootCause.summary).not.toContain('closes idle keep-alive connections after');
    for (const shape of [{ targetFails: true }, { balancerSeries: 'HTTPCode_ELB_5XX_Count' }]) {
      const cause = inferCause(board(shape));
      expect(cause.verdict === 'incident' && cause.mechanism?.label).not.toBe('bad gateway');
    }
  });
});
