import { describe, expect, it } from 'vitest';
import { blameChainTraced } from '../../lib/analyst/blame-chain.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const lines = linesFrom(START);

describe('a callee\'s trouble its caller recovered from', () => {
  /** orders, whose calls to orders-db fail at minute 20 and which then fails itself at minute 90; what lies between and what it logs then vary. */
  const board = ({ between, failing, change, blipTrace = true }: { between: (index: number) => [string, string]; failing: string; change: { minute: number; summary: string }; blipTrace?: boolean }) =>
    boardFrom({
      brief: 'CloudWatch alarm "orders-5xx" is in ALARM',
      services: [{ name: 'orders', kind: 'ecs', dependsOn: ['orders-db'] }, { name: 'orders-db', kind: 'rds' }],
      alarms: [{ name: 'orders-5xx', service: 'orders', state: 'ALARM', since: at(START, 92) }],
      changes: [{ service: 'orders-db', timestamp: at(START, change.minute), kind: 'infrastructure', summary: change.summary }],
      logs: sorted([
        ...lines('orders', 0, 3, 6, 'INFO', (index) => `order ${1000 + index} placed`),
        ...lines('orders', 25, 3, 20, 'INFO', (index) => `order ${2000 + index} placed`).map((line, index) => ({ ...line, level: between(index)[0], message: between(index)[1] })),
        ...lines('orders', 90, 2, 10, 'ERROR', () => failing),
      ]),
      metrics: [{ service: 'orders', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, step(90, 0, 40)) }],
      ...(blipTrace ? { traces: [{ service: 'orders', requests: 40, faults: 1, firstFault: at(START, 20), downstream: [{ service: 'orders-db', calls: 5, p95Ms: 30000, errors: 1, sampleError: 'connection timeout' }] }] } : {}),
    });
  const upgrade = { minute: 19, summary: 'orders-db minor version upgrade (auto minor version upgrade)' };
  const clean = (index: number): [string, string] => ['INFO', `order ${2000 + index} placed`];

  it('does not explain the caller\'s later failure once its work ran clean after that trouble ended', () => {
    const diagnosis = diagnose(board({ between: clean, failing: 'POST /orders 500 Internal Server Error', change: upgrade }));
    expect(diagnosis.root).toBe('orders');
    expect(diagnosis.suspectChange).toBeUndefined();
  });

  it('still does while the caller kept complaining about it up to its failure', () => {
    expect(diagnose(board({ between: () => ['WARN', 'query on orders-db slow: retrying'], failing: 'POST /orders 500 Internal Server Error', change: upgrade })).root).toBe('orders-db');
  });

  it('is not read from a warning about something else: a callee failing from the caller\'s onset on is followed', () => {
    const diagnosis = diagnose(
      board({
        between: (index) => (index === 0 ? ['WARN', 'card challenge abandoned for order 1017'] : clean(index)),
        failing: 'query on orders-db failed: Communications link failure',
        change: { minute: 89, summary: 'orders-db instance class modified (apply immediately)' },
        blipTrace: false,
      }),
    );
    expect(diagnosis.root).toBe('orders-db');
  });
});

describe('complaints that do not point at the callee they name', () => {
  it('a wait for a connection from the caller\'s own pool blames the caller (and its release), not the provider the connection is for', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "checkout-latency" is in ALARM',
        services: [{ name: 'checkout', kind: 'ecs', dependsOn: ['verify'] }, { name: 'verify', kind: 'ecs', dependsOn: ['lookup'] }, { name: 'lookup', kind: 'external' }],
        alarms: [{ name: 'checkout-latency', service: 'checkout', state: 'ALARM', since: at(START, 95) }],
        changes: [{ service: 'verify', timestamp: at(START, 70), kind: 'deploy', summary: 'verify 3.0.0 (HTTP client upgrade)' }],
        metrics: [{ service: 'verify', name: 'ProviderCallLatency', points: series(START, 120, () => 0.09) }],
        logs: sorted([
          ...lines('verify', 0, 5, 24, 'INFO', (index) => `address ${index} verified`),
          ...lines('verify', 90, 3, 10, 'ERROR', () => 'verify failed: DeadlineTimeoutException: connection request to pool route {s}->https://api.lookup.example:443 timed out'),
          ...lines('checkout', 91, 3, 10, 'ERROR', () => 'POST /address 504: verify did not answer within 3000ms'),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('verify');
    expect(diagnosis.suspectChange?.summary).toMatch(/3\.0\.0/);
  });

  /** Payouts' connect timeouts to its bank from minute 90, as the egress gateway both it and a reconciler launched at minute 80 use runs out of ports; `echoes` are its other lines about the bank. */
  const portsTakenOnTheWay = (echoes: ReturnType<typeof lines> = []) =>
    diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "payouts-failures" is in ALARM',
        services: [
          { name: 'payouts', kind: 'ecs', dependsOn: ['egress', 'bank'] },
          { name: 'reconciler', kind: 'ecs', dependsOn: ['egress', 'bank'] },
          { name: 'egress', kind: 'other' },
          { name: 'bank', kind: 'external' },
        ],
        alarms: [{ name: 'payouts-failures', service: 'payouts', state: 'ALARM', since: at(START, 95) }],
        changes: [{ service: 'reconciler', timestamp: at(START, 80), kind: 'other', summary: 'RunTask x12 reconciler (backfill 2025-h2)' }],
        metrics: [{ service: 'egress', name: 'ErrorPortAllocation', points: series(START, 120, step(90, 0, 4000)) }],
        logs: sorted([
          ...lines('payouts', 0, 5, 24, 'INFO', (index) => `transfer ${index} sent`),
          ...lines('payouts', 90, 3, 10, 'ERROR', (index) => `transfer ${index} to bank failed: connect ETIMEDOUT after 10000ms`),
          ...echoes,
        ]),
      }),
    );

  it('connect timeouts to a provider, while a gateway on the way fails at the same moment, blame the gateway and who took its capacity', () => {
    expect(portsTakenOnTheWay().root).toBe('reconciler');
  });

  it('what else the caller says of that provider beside its connect timeouts (a partial answer, a fallback) echoes the same calls: the gateway is still blamed', () => {
    const echoes = [
      ...lines('payouts', 91, 3, 10, 'ERROR', (index) => `batch ${index} settled partially: bank unavailable, ${index + 2} transfers held for the next window`),
      ...lines('payouts', 92, 3, 10, 'ERROR', (index) => `statement ${index} incomplete: bank balances missing, served from yesterday's snapshot`),
    ];
    expect(portsTakenOnTheWay(echoes).root).toBe('reconciler');
  });

  it('connect timeouts to a provider with nothing failing on the way still blame the provider', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "payouts-failures" is in ALARM',
        services: [{ name: 'payouts', kind: 'ecs', dependsOn: ['egress', 'bank'] }, { name: 'egress', kind: 'other' }, { name: 'bank', kind: 'external' }],
        alarms: [{ name: 'payouts-failures', service: 'payouts', state: 'ALARM', since: at(START, 95) }],
        logs: sorted([
          ...lines('payouts', 0, 5, 24, 'INFO', (index) => `transfer ${index} sent`),
          ...lines('payouts', 90, 3, 10, 'ERROR', (index) => `transfer ${index} to bank failed: connect ETIMEDOUT after 10000ms`),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('bank');
  });
});

describe('a callee read at a coarse period', () => {
  it('failed no later than its caller when its shift may have begun before the caller\'s errors: the point before it was the last at the old level', () => {
    const canary = (firstFailedMinute: number) => ({
      service: 'tax',
      name: 'SuccessPercent',
      stat: 'Average',
      periodSeconds: 300,
      points: Array.from({ length: 20 }, (_, index): [string, number] => [at(START, index * 5), index * 5 >= firstFailedMinute ? 0 : 100]),
    });
    const shape = (firstFailedMinute: number) =>
      boardFrom({
        brief: 'CloudWatch alarm "cart-5xx" is in ALARM',
        services: [{ name: 'cart', kind: 'ecs', dependsOn: ['tax'] }, { name: 'tax', kind: 'ecs' }],
        alarms: [{ name: 'cart-5xx', service: 'cart', state: 'ALARM', since: at(START, 92) }],
        changes: [{ service: 'cart', timestamp: at(START, 55), kind: 'deploy', summary: 'cart 3.22.0 rolled out' }],
        metrics: [canary(firstFailedMinute), { service: 'cart', name: 'HTTPCode_Target_5XX_Count', points: series(START, 100, step(86, 0, 40)) }],
        logs: sorted([...lines('cart', 0, 5, 17, 'INFO', () => 'GET /cart 200'), ...lines('cart', 86, 1, 14, 'ERROR', () => 'POST /v3/quote failed: 503 Service Unavailable (upstream connect error)')]),
      });
    // The canary's point at minute 90 is the first at 0: the one at 85 still passed, so tax may have failed from minute 85 on, before cart's errors at 86.
    expect(diagnose(shape(90)).draft.rootCause.service).toBe('tax');
  });
});

describe('calls that never got through past a gateway already in the chain', () => {
  /** Payouts reached the bank through an egress gateway; from minute 90 its transfers time out connecting, and it reports the bank unavailable. */
  const board = (gatewayFails: boolean) =>
    boardFrom({
      brief: 'CloudWatch alarm "payouts-failures" is in ALARM',
      services: [
        { name: 'payouts', kind: 'ecs', dependsOn: ['egress', 'bank'] },
        { name: 'reconciler', kind: 'ecs', dependsOn: ['egress'] },
        { name: 'egress', kind: 'other' },
        { name: 'bank', kind: 'external' },
      ],
      metrics: [{ service: 'egress', name: 'ErrorPortAllocation', points: series(START, 120, gatewayFails ? step(90, 0, 4000) : () => 0) }],
      logs: sorted([
        ...lines('payouts', 0, 5, 24, 'INFO', (index) => `transfer ${index} sent to bank`),
        ...lines('payouts', 90, 3, 10, 'WARN', (index) => `transfer ${index} to bank failed: connect ETIMEDOUT after 10000ms (attempt 1/2)`),
        ...lines('payouts', 91, 3, 10, 'ERROR', (index) => `payout ${index} failed: bank unavailable after 2 attempts; responding 503`),
      ]),
    });
  const chainFrom = (gatewayFails: boolean) => {
    const evidence = board(gatewayFails);
    const current = collectSignals(evidence).filter((signal) => signal.ongoing);
    const onsetOf = (service: string) => Math.min(Number.POSITIVE_INFINITY, ...current.filter((signal) => signal.service === service).map((signal) => signal.at));
    return blameChainTraced(evidence, current, 'payouts', onsetOf, ['egress']).links;
  };

  it('are the gateway\'s, with what else the caller says of the provider: the chain does not go on to the provider', () => {
    expect(chainFrom(true)).toEqual(['payouts']);
  });

  it('still point at the provider while the gateway shows no fault of its own', () => {
    expect(chainFrom(false)).toEqual(['payouts', 'bank']);
  });
});
