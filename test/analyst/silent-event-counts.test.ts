import { describe, expect, it } from 'vitest';
import { inferCause } from '../../lib/analyst/infer-cause.ts';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-03-10T02:00:00.000Z';

/** Invocations every minute for 80 minutes: the span the metrics read cover. */
const invocations = { service: 'export-fn', name: 'Invocations', periodSeconds: 60, points: series(START, 80, () => 40) };

/** An event count published only for the minutes in `[from, to)`, as CloudWatch publishes Errors or TargetErrorCount. */
const publishedOnly = (name: string, from: number, to: number, value: (minute: number) => number) => ({
  service: 'export-fn',
  name,
  periodSeconds: 60,
  points: Array.from({ length: to - from }, (_, index): [string, number] => [at(START, from + index), value(from + index)]),
});

const signalsOf = (metric: ReturnType<typeof publishedOnly>) => collectSignals(boardFrom({ services: [{ name: 'export-fn', kind: 'lambda' }], metrics: [invocations, metric] })).filter((signal) => signal.text.startsWith(metric.name));

describe('an event count that CloudWatch publishes only while events happen', () => {
  it('rises from zero where it starts: its silence before is the baseline', () => {
    const [errors] = signalsOf(publishedOnly('Errors', 60, 80, (minute) => 5 + (minute % 3)));
    expect(errors).toMatchObject({ kind: 'metric', ongoing: true, substantial: true });
    expect(errors!.at).toBe(Date.parse(at(START, 60)));
  });

  it('has stopped where it goes silent before the other metrics end', () => {
    const signals = signalsOf(publishedOnly('TargetErrorCount', 20, 30, () => 6));
    expect(signals.length).toBeGreaterThan(0);
    expect(signals.every((signal) => !signal.ongoing)).toBe(true);
  });

  it('reads a gap between bursts as zeros, so a second burst rises again from nothing', () => {
    const bursts = publishedOnly('Throttles', 10, 80, (minute) => (minute < 15 || minute >= 65 ? 30 : 0));
    const [throttles] = signalsOf({ ...bursts, points: bursts.points.filter(([, value]) => value > 0) });
    expect(throttles).toMatchObject({ ongoing: true });
    expect(throttles!.at).toBe(Date.parse(at(START, 65)));
  });

  it("reads silence only over the span its own service's metrics were read: another service's longer query says nothing of it", () => {
    const other = { service: 'ledger-db', name: 'CPUUtilization', periodSeconds: 60, points: series(START, 80, () => 30) };
    const late = { ...publishedOnly('Errors', 60, 80, () => 6), service: 'report-fn' };
    const board = boardFrom({ services: [{ name: 'report-fn', kind: 'lambda' }, { name: 'ledger-db', kind: 'rds' }], metrics: [other, late] });
    expect(collectSignals(board).filter((signal) => signal.service === 'report-fn')).toEqual([]);
  });

  it('leaves demand counts as published: requests seen from the first point on did not surge from zero', () => {
    expect(signalsOf(publishedOnly('RequestCount', 60, 80, () => 500))).toEqual([]);
  });

  it('is left as published when it reports zeros: its silence is then missing data, not zero', () => {
    const signals = signalsOf(publishedOnly('Errors', 0, 40, (minute) => (minute >= 30 ? 7 : 0)));
    expect(signals.length).toBeGreaterThan(0);
    expect(signals.every((signal) => signal.at === Date.parse(at(START, 30)) && signal.ongoing)).toBe(true);
  });
});

describe('a nightly burst of an event count', () => {
  const night = (day: number, minute: number) => at('2026-03-07T02:00:00.000Z', day * 24 * 60 + minute);
  // Throttles published only during the sweep, read at five minutes tonight and at a quarter hour over four nights.
  const tonight: [string, number][] = [311, 1024, 1210, 980, 674, 418, 96].map((value, index) => [night(3, index * 5), value]);
  const nights = (from: number): [string, number][] => Array.from({ length: 4 - from }, (_, index) => [2079, 1746, 305].map((value, quarter): [string, number] => [night(from + index, quarter * 15), value + index * 50])).flat();
  const board = (firstNight: number) =>
    boardFrom({
      brief: 'CloudWatch alarm ledger-write-throttles is in ALARM',
      services: [{ name: 'ledger', kind: 'dynamodb' }],
      alarms: [{ name: 'ledger-write-throttles', service: 'ledger', state: 'ALARM', since: night(3, 10) }],
      metrics: [
        { service: 'ledger', name: 'WriteThrottleEvents', periodSeconds: 900, points: nights(firstNight) },
        { service: 'ledger', name: 'WriteThrottleEvents', periodSeconds: 300, points: tonight },
        { service: 'ledger', name: 'ConsumedWriteCapacityUnits', periodSeconds: 300, points: Array.from({ length: 25 }, (_, index): [string, number] => [night(3, index * 5 - 90), index >= 18 ? 1000 : 100]) },
      ],
    });

  it('that came the same way on earlier nights is the schedule, even when its onset is dated a period into the rise', () => {
    expect(inferCause(board(0)).verdict).toBe('healthy');
  });

  it('that is new tonight is an incident', () => {
    expect(inferCause(board(3)).verdict).toBe('incident');
  });
});
