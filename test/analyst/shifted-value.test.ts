import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { factorWords, shiftedValueOf } from '../../lib/analyst/shifted-value.ts';
import { dataSourcesOf } from '../../lib/analyst/service-map.ts';
import { at, boardFrom, linesFrom, pointsBetween, series, sorted, step } from './board-builder.ts';

const START = '2026-03-02T00:00:00.000Z';
/** The nightly load runs at minute 1440 (the second midnight); orders alarm an hour later. */
const LOAD = 1440;
const lines = linesFrom(START);

const services = [
  { name: 'shop-web', kind: 'ecs', dependsOn: ['quote-api', 'basket-api'] },
  { name: 'quote-api', kind: 'ecs', dependsOn: ['rates-table'] },
  { name: 'basket-api', kind: 'ecs', dependsOn: ['quote-api', 'orders-db'] },
  { name: 'rates-loader', kind: 'lambda', dependsOn: ['rates-table'] },
  { name: 'rates-table', kind: 'dynamodb' },
  { name: 'orders-db', kind: 'rds' },
];

/** The loader writes each rate once a night; the quote service reads the table every half hour and quotes with it. */
const ratesStory = ({ after, loaderChange }: { after: string; loaderChange?: boolean }) =>
  boardFrom({
    brief: 'CloudWatch alarm "shop-orders-anomaly" is in ALARM',
    services,
    alarms: [
      { name: 'shop-orders-anomaly', service: 'shop-web', state: 'ALARM', since: at(START, LOAD + 60) },
      { name: 'basket-fraud-review-backlog', service: 'basket-api', state: 'ALARM', since: at(START, LOAD + 70) },
    ],
    changes: [
      { service: 'shop-web', timestamp: at(START, LOAD + 20), kind: 'deploy', summary: 'shop-web v8.1.0 rolled out (price formatting)' },
      ...(loaderChange ? [{ service: 'rates-loader', timestamp: at(START, LOAD - 600), kind: 'config', summary: 'SSM parameter /rates-loader/SOURCE changed feed-a -> feed-b' }] : []),
    ],
    logs: sorted([
      ...lines('rates-loader', 0, 1440, 1, 'INFO', () => 'upsert rates ccy=CHF base=EUR rate=0.9611'),
      ...lines('rates-loader', 0, 1440, 1, 'INFO', () => 'upsert rates ccy=SEK base=EUR rate=11.2740'),
      ...lines('rates-loader', LOAD, 1440, 1, 'INFO', () => 'upsert rates ccy=CHF base=EUR rate=0.9604'),
      ...lines('rates-loader', LOAD, 1440, 1, 'INFO', () => `upsert rates ccy=SEK base=EUR rate=${after}`),
      ...lines('quote-api', 5, 30, 96, 'INFO', (index) => `rates refreshed table=rates-table CHF=${index < 48 ? '0.9611' : '0.9604'} SEK=${index < 48 ? '11.2740' : after}`),
      ...lines('shop-web', 30, 40, 70, 'INFO', () => 'GET /se/checkout 200 84ms'),
      ...lines('shop-web', LOAD + 40, 12, 10, 'WARN', () => 'hydration mismatch on price element (route /se/product)'),
    ]),
    metrics: [{ service: 'shop-web', name: 'RequestCount', stat: 'Sum', points: series(START, 2880, step(LOAD + 50, 100, 260)).filter((_, minute) => minute % 10 === 0) }],
  });

describe('a value written an order of magnitude off', () => {
  it('is the fault of the writer that logged the new value first (data), with the value, its old level and the factor in the summary', () => {
    const draft = diagnose(ratesStory({ after: '0.1127' })).draft;
    expect(draft.rootCause).toMatchObject({ service: 'rates-loader', category: 'data' });
    expect(draft.rootCause.summary).toContain('0.1127');
    expect(draft.rootCause.summary).toContain('a hundredth (1/100) of the 11.274');
    expect(draft.rootCause.summary).toContain('quote-api used the new value');
    // basket-api quotes through quote-api, which reads what the loader wrote: it is affected, not separately in trouble.
    expect(draft.rootCause.summary).not.toContain('Separately');
    expect(draft.remediation.map((item) => `${item.action} ${item.target}`)).toEqual(['apply-fix rates-loader']);
  });

  it('reverts the setting at the writer that made it read its source wrong, then repairs the records', () => {
    const draft = diagnose(ratesStory({ after: '0.1127', loaderChange: true })).draft;
    expect(draft.rootCause).toMatchObject({ service: 'rates-loader', category: 'data' });
    expect(draft.remediation.map((item) => `${item.action} ${item.target}`)).toEqual(['revert-config rates-loader', 'apply-fix rates-loader']);
  });

  it('is not a value that moved a few percent', () => {
    expect(shiftedValueOf(ratesStory({ after: '11.0120' }))).toBeUndefined();
    expect(diagnose(ratesStory({ after: '11.0120' })).draft.rootCause.service).not.toBe('rates-loader');
  });

  it('is not a value that never held a level before it moved', () => {
    const board = boardFrom({
      services,
      logs: lines('quote-api', 0, 30, 8, 'INFO', (index) => `rates refreshed table=rates-table SEK=${[11.2, 0.9, 48.1, 11.3, 0.11, 0.12, 0.11, 0.11][index]}`),
    });
    expect(shiftedValueOf(board)).toBeUndefined();
  });

  it('is not a measure that varies by nature (a duration, a count), however far it moves', () => {
    const board = boardFrom({
      services,
      logs: lines('quote-api', 0, 30, 8, 'INFO', (index) => `rates refreshed table=rates-table duration_ms=${index < 4 ? 40 : 4000} rows=${index < 4 ? 30 : 3000}`),
    });
    expect(shiftedValueOf(board)).toBeUndefined();
  });

  it('is read from a writer that states the previous value, or a guard that states the move in percent', () => {
    const stated = boardFrom({ services, logs: [{ service: 'rates-loader', timestamp: at(START, LOAD), level: 'INFO', message: 'upsert rates EUR/NOK=0.086205 prev=11.600200 delta=-99.26%' }] });
    expect(shiftedValueOf(stated)).toMatchObject({ origin: 'rates-loader', what: 'EUR/NOK', before: 11.6002, after: 0.086205 });
    const guard = boardFrom({ services, logs: [{ service: 'rates-loader', timestamp: at(START, LOAD), level: 'WARN', message: 'market=PL delta check: 2100 of 2200 prices changed (median change -99.0%); continuing' }] });
    expect(shiftedValueOf(guard)).toMatchObject({ origin: 'rates-loader', percent: -99 });
    const ordinary = boardFrom({ services, logs: [{ service: 'rates-loader', timestamp: at(START, LOAD), level: 'INFO', message: 'upsert rates EUR/NOK=11.6100 prev=11.600200 delta=+0.08%' }] });
    expect(shiftedValueOf(ordinary)).toBeUndefined();
  });
});

describe('how far off, in words', () => {
  it('names the reciprocal, a hundredth and a thousand times', () => {
    expect(factorWords(11.6002, 0.086205)).toBe('the reciprocal (1/x) of');
    expect(factorWords(5699, 56.99)).toBe('a hundredth (1/100) of');
    expect(factorWords(1.2, 1200)).toBe('a thousand times (1000x)');
    expect(factorWords(3, 75)).toBe('25 times');
  });
});

describe('where the data a service shows comes from', () => {
  it('is what it calls, further on, and the code that writes what they read', () => {
    expect(dataSourcesOf(boardFrom({ services }), 'shop-web').sort()).toEqual(['basket-api', 'quote-api', 'rates-loader']);
  });
});

describe('a value shifted, read from its metrics', () => {
  const guarded = (movedPercent: number) =>
    boardFrom({
      services,
      metrics: [{ service: 'rates-loader', name: 'MedianRateChangePct', dimensions: { Feed: 'treasury' }, periodSeconds: 300, points: [[at(START, LOAD), movedPercent], [at(START, LOAD + 5), 0.4]] }],
    });

  it('is a guard\'s percentage published as a metric, an order of magnitude off, at the service that publishes it', () => {
    expect(shiftedValueOf(guarded(-99))).toMatchObject({ origin: 'rates-loader', percent: -99, what: 'MedianRateChangePct of Feed=treasury' });
    expect(shiftedValueOf(guarded(9900))).toMatchObject({ origin: 'rates-loader', percent: 9900 });
    expect(shiftedValueOf(guarded(-40))).toBeUndefined();
  });

  it('is a writer\'s before and after with the move it computed from them, not a percentage that is another figure', () => {
    const arrow = (message: string) => shiftedValueOf(boardFrom({ services, logs: [{ service: 'rates-loader', timestamp: at(START, LOAD), level: 'WARN', message }] }));
    expect(arrow('guard: SEK per_unit 0.0947 -> 9.4412 (+9869.6%) over limit 10%; accepted')).toMatchObject({ origin: 'rates-loader', what: 'SEK per_unit', before: 0.0947, after: 9.4412 });
    expect(arrow('guard: SEK per_unit 0.0947 -> 9.4412 (+12.0%) over limit 10%; accepted')).toBeUndefined();
    expect(arrow('guard: SEK per_unit 0.0947 -> 0.1041 (+9.9%) within limit')).toBeUndefined();
  });
});

describe('a sum of money recorded an order of magnitude off while as much was recorded', () => {
  const START_SUM = '2026-03-02T10:00:00.000Z';
  const STEP = 60;
  const every5 = (valueAt: (minute: number) => number) => pointsBetween(START_SUM, 0, 120, 5, valueAt);
  /** A ledger function records what orders the checkout publishes through a topic into its queue; checkout released at STEP - 3. */
  const ledgerStory = ({ sumName = 'CreditedAmountEUR', volumeAfter = 200, senderRelease = true }: { sumName?: string; volumeAfter?: number; senderRelease?: boolean } = {}) =>
    boardFrom({
      brief: 'CloudWatch alarm "ledger-credits-anomaly" is in ALARM',
      services: [
        { name: 'checkout', kind: 'ecs', dependsOn: ['order-topic', 'payments'] },
        { name: 'payments', kind: 'ecs' },
        { name: 'order-topic', kind: 'sns', dependsOn: ['ledger-queue'] },
        { name: 'ledger-queue', kind: 'sqs' },
        { name: 'ledger', kind: 'lambda', dependsOn: ['ledger-queue', 'ledger-store'] },
        { name: 'ledger-store', kind: 'rds' },
      ],
      alarms: [{ name: 'ledger-credits-anomaly', service: 'ledger', state: 'ALARM', since: at(START_SUM, STEP + 12) }],
      changes: [
        { service: 'ledger', timestamp: at(START_SUM, STEP - 40), kind: 'deploy', summary: 'ledger 3.1.4 rolled out (structured logging)' },
        ...(senderRelease ? [{ service: 'checkout', timestamp: at(START_SUM, STEP - 3), kind: 'deploy', summary: 'checkout 9.0.0 rolled out (shared money library)' }] : []),
      ],
      metrics: [
        { service: 'ledger', name: sumName, periodSeconds: 300, points: every5((minute) => (minute < STEP ? 4100 + (minute % 3) * 90 : 410_000 + (minute % 3) * 9000)) },
        { service: 'ledger', name: 'Invocations', periodSeconds: 300, points: every5((minute) => (minute < STEP ? 200 : volumeAfter) + (minute % 2)) },
      ],
    });

  it('was sent that way by the code it records from that was released just before: roll that back, repair the records where they were recorded', () => {
    const shift = shiftedValueOf(ledgerStory());
    expect(shift).toMatchObject({ origin: 'checkout', recordedBy: 'ledger', change: { service: 'checkout', kind: 'deploy' } });
    const draft = diagnose(ledgerStory()).draft;
    expect(draft.rootCause).toMatchObject({ service: 'checkout', category: 'data' });
    expect(draft.rootCause.summary).toContain('a hundred times (100x)');
    expect(draft.remediation.map((item) => `${item.action} ${item.target}`)).toEqual(['rollback checkout', 'apply-fix ledger']);
  });

  it('was written by the recorder itself when nothing it records from changed shortly before', () => {
    expect(shiftedValueOf(ledgerStory({ senderRelease: false }))).toMatchObject({ origin: 'ledger' });
  });

  it('is no shift when the count stepped with it (more of the same work), nor when what stepped is itself a count', () => {
    expect(shiftedValueOf(ledgerStory({ volumeAfter: 20_000 }))).toBeUndefined();
    expect(shiftedValueOf(ledgerStory({ sumName: 'MessagesProcessed' }))).toBeUndefined();
  });
});

describe('a metered shift against a symptom read on coarse points', () => {
  it('is the writer\'s when the symptom, read on five-minute points, is dated within the period of the writer\'s point', () => {
    const board = boardFrom({
      brief: 'CloudWatch alarm "shop-orders-anomaly" is in ALARM',
      services,
      alarms: [{ name: 'shop-orders-anomaly', service: 'shop-web', state: 'ALARM', since: at(START, LOAD + 15) }],
      metrics: [
        { service: 'rates-loader', name: 'MedianRateChangePct', periodSeconds: 900, points: [[at(START, LOAD), -99], [at(START, LOAD + 60), 0.3]] },
        { service: 'shop-web', name: 'CheckoutRejections', periodSeconds: 300, points: pointsBetween(START, LOAD - 85, LOAD + 30, 5, (minute) => [6, 6, 8, 2, 1, 3, 4, 6, 7, 4, 7, 1, 5, 6, 6, 6, 3, 32, 146, 125, 141, 121, 130][(minute - LOAD + 85) / 5]!) },
      ],
    });
    expect(diagnose(board).root).toBe('rates-loader');
  });
});
