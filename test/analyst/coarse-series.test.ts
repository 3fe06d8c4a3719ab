import { describe, expect, it } from 'vitest';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom } from './board-builder.ts';

const START = '2026-05-04T13:00:00.000Z';

/** Five half-hour readings, as a two-and-a-half-hour window comes back at a coarse period. */
const coarse = (name: string, stat: string, values: number[]) => ({
  service: 'order-topic',
  name,
  stat,
  periodSeconds: 1800,
  points: values.map((value, index): [string, number] => [at(START, index * 30), value]),
});

const signalsOf = (metric: ReturnType<typeof coarse>) =>
  collectSignals(boardFrom({ services: [{ name: 'order-topic', kind: 'sns' }], metrics: [metric] })).filter((signal) => signal.text.startsWith(metric.name));

describe('a series read at a coarse period', () => {
  it('still shows a failure that began partway through, from the period it began in', () => {
    const [failed] = signalsOf(coarse('NumberOfNotificationsFailed', 'Sum', [3, 2, 2078, 2079, 2101]));
    expect(failed).toMatchObject({ kind: 'metric', ongoing: true, substantial: true });
    expect(failed!.at).toBe(Date.parse(at(START, 60)));
  });

  it('reads a sum whose newest period reads low as still filling, not as recovering', () => {
    const [failed] = signalsOf(coarse('NumberOfNotificationsFailed', 'Sum', [3, 2, 2078, 2079, 958]));
    expect(failed).toMatchObject({ kind: 'metric', ongoing: true });
  });

  it('reads a peak that has already fallen back by more than half as passing, where the statistic is not a sum', () => {
    expect(signalsOf(coarse('AsyncEventAge', 'Maximum', [297, 281, 299, 317_000, 34_040])).filter((signal) => signal.kind === 'metric')).toEqual([]);
  });
});
