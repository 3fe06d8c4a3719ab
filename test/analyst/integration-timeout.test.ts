import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-06-03T13:00:00.000Z';
const lines = linesFrom(START);

/**
 * A REST API in front of two functions answers 504s from minute 40, its execution log saying it
 * gave up on the integration. The fleet function's runs take `fleetMs` from then on (1.2 s before);
 * `vehiclesAfter` is the number of vehicles in each schedule it prices (60 before), `invocationsAfter`
 * how often it runs a minute (4 before); its rating cache hits halve then. The API's web ACL changed
 * at minute 10.
 */
const gatewayTimeouts = ({ fleetMs, vehiclesAfter, invocationsAfter = 4 }: { fleetMs: number; vehiclesAfter: number; invocationsAfter?: number }) =>
  boardFrom({
    brief: 'CloudWatch alarm "broker-quotes-fleet-5xx" is in ALARM',
    services: [
      { name: 'broker-quotes-api', kind: 'apigateway', dependsOn: ['fleet-quote-fn', 'home-quote-fn'] },
      { name: 'fleet-quote-fn', kind: 'lambda' },
      { name: 'home-quote-fn', kind: 'lambda' },
    ],
    alarms: [{ name: 'broker-quotes-fleet-5xx', service: 'broker-quotes-api', state: 'ALARM', since: at(START, 45) }],
    changes: [{ service: 'broker-quotes-api', timestamp: at(START, 10), kind: 'config', summary: 'WAF web ACL broker-quotes-acl: managed rule set switched to default version' }],
    metrics: [
      { service: 'broker-quotes-api', name: '5XXError', points: series(START, 80, (minute) => (minute < 40 ? 0 : 3)) },
      { service: 'fleet-quote-fn', name: 'Duration', points: series(START, 80, (minute) => (minute < 40 ? 1200 : fleetMs)) },
      { service: 'fleet-quote-fn', name: 'Invocations', points: series(START, 80, (minute) => (minute < 40 ? 4 : invocationsAfter)) },
      { service: 'fleet-quote-fn', name: 'RatingCacheHits', points: series(START, 80, (minute) => (minute < 40 ? 100 : 50)) },
      { service: 'fleet-quote-fn', name: 'ScheduleVehicles', dimensions: { Partner: 'meridian' }, points: series(START, 80, (minute) => (minute < 40 ? 60 : vehiclesAfter)) },
      { service: 'home-quote-fn', name: 'Duration', points: series(START, 80, () => 900) },
    ],
    logs: sorted([
      ...lines('broker-quotes-api', 0, 5, 16, 'INFO', (index) => `(${index}) Method completed with status: 200`),
      ...lines('broker-quotes-api', 40, 4, 9, 'ERROR', (index) => `(${index}f3) Execution failed due to a timeout error`),
    ]),
  });

describe('a gateway that gave up waiting for its integration', () => {
  it('is not the fault: the backend whose runs passed its 29 s is, and what each run works on grew', () => {
    const diagnosis = diagnose(gatewayTimeouts({ fleetMs: 34_000, vehiclesAfter: 1_200 }));
    expect(diagnosis.root).toBe('fleet-quote-fn');
    expect(diagnosis.principles).toContain('integration-timed-out');
    expect(diagnosis.category).toBe('data');
    expect(diagnosis.draft.rootCause.summary).toContain('ScheduleVehicles (Partner=meridian) went up from 60 to 1200');
    expect(diagnosis.draft.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['apply-fix fleet-quote-fn']);
  });

  it('names no grown work when the runs grew but what they work on did not', () => {
    const diagnosis = diagnose(gatewayTimeouts({ fleetMs: 34_000, vehiclesAfter: 60 }));
    expect(diagnosis.root).toBe('fleet-quote-fn');
    expect(diagnosis.draft.rootCause.summary).not.toContain('What each run works on grew');
  });

  it('names no grown work when the runs grew with how often it is called: that is more requests, not bigger ones', () => {
    const diagnosis = diagnose(gatewayTimeouts({ fleetMs: 34_000, vehiclesAfter: 1_200, invocationsAfter: 40 }));
    expect(diagnosis.root).toBe('fleet-quote-fn');
    expect(diagnosis.draft.rootCause.summary).not.toContain('What each run works on grew');
  });

  it('blames no backend whose runs stay well inside the limit', () => {
    const diagnosis = diagnose(gatewayTimeouts({ fleetMs: 5_000, vehiclesAfter: 60 }));
    expect(diagnosis.principles).not.toContain('integration-timed-out');
  });
});
