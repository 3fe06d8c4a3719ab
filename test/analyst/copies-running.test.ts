import { describe, expect, it } from 'vitest';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { boardFrom, series, step } from './board-builder.ts';

const START = '2026-10-06T08:00:00.000Z';

/** A worker scaled from 3 to 9 tasks at minute 60, while its queue's arrivals do `sentAfter`. */
const scaledOut = (sentAfter: number) =>
  boardFrom({
    brief: 'A scheduled health sweep: look for anything quietly going wrong.',
    services: [
      { name: 'render-queue', kind: 'sqs' },
      { name: 'renderer', kind: 'ecs', dependsOn: ['render-queue'] },
    ],
    metrics: [
      { service: 'renderer', name: 'RunningTaskCount', points: series(START, 120, step(60, 3, 9)) },
      { service: 'render-queue', name: 'NumberOfMessagesSent', points: series(START, 120, step(60, 500, sentAfter)) },
    ],
  });

describe('how many copies of a service run', () => {
  it('rising is a scaler answering the load, not a surge of demand', () => {
    const surges = collectSignals(scaledOut(520)).filter((signal) => signal.kind === 'demand');
    expect(surges).toEqual([]);
  });

  it('while the work arriving that tripled is one', () => {
    const surges = collectSignals(scaledOut(1500)).filter((signal) => signal.kind === 'demand' && signal.substantial);
    expect(surges.map((signal) => signal.service)).toEqual(['render-queue']);
  });
});
