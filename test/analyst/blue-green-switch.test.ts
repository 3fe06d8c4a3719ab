import { describe, expect, it } from 'vitest';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { inferCause } from '../../lib/analyst/infer-cause.ts';
import { boardFrom, pointsBetween, series, step } from './board-builder.ts';

const START = '2026-09-15T12:00:00.000Z';
const blue = { LoadBalancer: 'app/shop/1', TargetGroup: 'targetgroup/shop-blue/1' };
const green = { LoadBalancer: 'app/shop/1', TargetGroup: 'targetgroup/shop-green/2' };

/** Requests switched from the blue target group to the green one at minute 60; the blue hosts retired at minute 90. */
const switched = (greenAfter: number) =>
  boardFrom({
    brief: 'A scheduled health sweep: look for anything quietly going wrong.',
    services: [
      { name: 'shop-alb', kind: 'elb', dependsOn: ['shop-web'] },
      { name: 'shop-web', kind: 'ecs', dependsOn: ['catalog'] },
      { name: 'catalog', kind: 'ecs' },
    ],
    metrics: [
      // A count CloudWatch stops publishing once no requests reach it.
      { service: 'shop-alb', name: 'RequestCount', dimensions: blue, points: pointsBetween(START, 0, 60, 1, () => 4000) },
      { service: 'shop-alb', name: 'RequestCount', dimensions: green, points: series(START, 120, step(60, 10, greenAfter)) },
      { service: 'shop-web', name: 'HealthyHostCount', dimensions: blue, points: series(START, 120, step(90, 6, 0)) },
      { service: 'shop-web', name: 'HealthyHostCount', dimensions: green, points: series(START, 120, () => 6) },
    ],
  });

describe('a blue/green switch moves requests and retires the old targets', () => {
  it('requests moved onto the green target group are no surge, and the emptied blue group is retired', () => {
    const board = switched(4000);
    const signals = collectSignals(board);
    expect(signals.filter((signal) => signal.kind === 'demand' && signal.substantial)).toEqual([]);
    expect(signals.filter((signal) => signal.service === 'shop-web' && /HealthyHostCount/.test(signal.text))).toEqual([]);
    expect(inferCause(board).verdict).toBe('healthy');
  });

  it('the green group sent several times what both took before is a surge', () => {
    const signals = collectSignals(switched(20000));
    expect(signals.some((signal) => signal.kind === 'demand' && signal.substantial && signal.service === 'shop-alb')).toBe(true);
  });

  it('hosts lost while their target group still serves are lost capacity', () => {
    const board = boardFrom({
      brief: 'A scheduled health sweep: look for anything quietly going wrong.',
      services: [{ name: 'shop-web', kind: 'ecs' }, { name: 'shop-alb', kind: 'elb', dependsOn: ['shop-web'] }],
      metrics: [
        { service: 'shop-alb', name: 'RequestCount', dimensions: blue, points: series(START, 120, () => 4000) },
        { service: 'shop-web', name: 'HealthyHostCount', dimensions: blue, points: series(START, 120, step(90, 6, 0)) },
      ],
    });
    expect(collectSignals(board).some((signal) => signal.service === 'shop-web' && /HealthyHostCount/.test(signal.text) && signal.substantial)).toBe(true);
  });
});
