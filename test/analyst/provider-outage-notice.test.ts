import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, sorted } from './board-builder.ts';

const START = '2026-11-24T13:00:00.000Z';
const lines = linesFrom(START);

/** Our API released at minute 58; from minute 62 its calls to the e-signature vendor fail; the vendor's status page posts `notice` at minute 66. */
const outage = (notice?: { level: string; message: string }) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm agreements-api-5xx is in ALARM',
      services: [
        { name: 'agreements-api', kind: 'ecs', dependsOn: ['signvendor'] },
        { name: 'signvendor', kind: 'external' },
      ],
      alarms: [{ name: 'agreements-api-5xx', service: 'agreements-api', state: 'ALARM', since: at(START, 64) }],
      changes: [{ service: 'agreements-api', kind: 'deploy', summary: 'agreements-api 5.6.0 (guarantor flow v2)', timestamp: at(START, 58) }],
      logs: sorted([
        ...lines('agreements-api', 0, 2, 50, 'INFO', (index) => `POST /v1/agreements 201 AGR-${index}: signvendor envelope sent`),
        ...lines('agreements-api', 62, 3, 12, 'ERROR', (index) => `POST /v1/agreements/AGR-${500 + index} 502: signvendor POST /v2/envelopes responded 503 Service Unavailable`),
        ...(notice ? lines('signvendor', 66, 10, 2, notice.level, () => notice.message) : []),
      ]),
    }),
  ).draft.rootCause;

describe('a provider that posts its own outage just after a caller released', () => {
  it('has a fault of its own: the caller that pages did not cause it', () => {
    expect(outage({ level: 'WARN', message: '[Investigating] Elevated error rates for the Envelopes API - we are investigating increased 503 responses' })).toMatchObject({
      service: 'signvendor',
      category: 'external',
    });
    expect(outage({ level: 'INFO', message: 'Components: Envelopes API=degraded_performance' }).service).toBe('signvendor');
  });

  it('is not heard in routine notices, nor without one: the release is blamed', () => {
    expect(outage({ level: 'INFO', message: '[Completed] Scheduled maintenance: Dashboard exports - the maintenance has been completed' })).toMatchObject({ service: 'agreements-api', category: 'deploy' });
    expect(outage()).toMatchObject({ service: 'agreements-api', category: 'deploy' });
  });
});
