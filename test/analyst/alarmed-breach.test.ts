import { describe, expect, it } from 'vitest';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom } from './board-builder.ts';

const START = '2026-04-22T14:05:00.000Z';

/** A synthetic probe read every 10 minutes: success at 100% until its newest datapoint. */
const probe = (values: number[], name = 'SuccessPercent') => ({
  service: 'tax-service',
  name,
  stat: 'Average',
  periodSeconds: 600,
  points: values.map((value, index): [string, number] => [at(START, index * 10), value]),
});
const alarm = (state: 'ALARM' | 'OK', reason: string) => ({ name: 'tax-quote-probe-failed', service: 'tax-service', state, since: at(START, 92), reason });
const breached = 'Threshold Crossed: 1 out of the last 1 datapoints [0.0 (22/04/26 15:35:00)] was less than the threshold (90.0) (minimum 1 datapoint for OK -> ALARM transition).';

const signalsAt = (metrics: ReturnType<typeof probe>[], alarms: ReturnType<typeof alarm>[]) =>
  collectSignals(boardFrom({ services: [{ name: 'tax-service', kind: 'other' }], metrics, alarms })).filter((signal) => signal.kind === 'metric');

const flatThenDown = [100, 100, 100, 100, 100, 100, 100, 100, 100, 0];

describe('a breach an alarm in ALARM saw at a series’ newest point', () => {
  it('is a failure from that point, though the series alone shows only one datapoint down', () => {
    const [breach] = signalsAt([probe(flatThenDown)], [alarm('ALARM', breached)]);
    expect(breach).toMatchObject({ service: 'tax-service', ongoing: true, substantial: true });
    expect(breach!.at).toBe(Date.parse(at(START, 90)));
    expect(breach!.description).toContain('below the threshold of alarm tax-quote-probe-failed (90)');
  });

  it('is nothing without the alarm in ALARM: one datapoint alone may be a partial period or noise', () => {
    expect(signalsAt([probe(flatThenDown)], [])).toEqual([]);
    expect(signalsAt([probe(flatThenDown)], [alarm('OK', breached.replace('was less than', 'was not less than'))])).toEqual([]);
  });

  it('is nothing when the reason states no threshold (a composite alarm)', () => {
    expect(signalsAt([probe(flatThenDown)], [alarm('ALARM', 'Composite: ALARM("probe-a") AND ALARM("probe-b")')])).toEqual([]);
  });

  it('needs the earlier points within the threshold: a series that crossed it before is not newly breached', () => {
    expect(signalsAt([probe([100, 100, 50, 100, 100, 100, 100, 100, 100, 0])], [alarm('ALARM', breached)])).toEqual([]);
  });

  it('is not read into one series when another at the service crossed the same threshold: the reason names no metric', () => {
    expect(signalsAt([probe(flatThenDown), probe(flatThenDown, 'LoginSuccessPercent')], [alarm('ALARM', breached)])).toEqual([]);
  });
});
