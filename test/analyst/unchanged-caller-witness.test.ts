import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, sorted } from './board-builder.ts';

const START = '2026-11-24T13:00:00.000Z';
const lines = linesFrom(START);

/** Our API released at minute 58; from minute 62 its calls to the e-signature vendor fail, and so, optionally, do a probe's. */
const outage = ({ probeFails }: { probeFails: boolean }) =>
  boardFrom({
    brief: 'CloudWatch alarm agreements-api-5xx is in ALARM',
    services: [
      { name: 'agreements-api', kind: 'ecs', dependsOn: ['signvendor'] },
      { name: 'vendor-probe', kind: 'lambda', dependsOn: ['signvendor'] },
      { name: 'signvendor', kind: 'external' },
    ],
    alarms: [{ name: 'agreements-api-5xx', service: 'agreements-api', state: 'ALARM', since: at(START, 64) }],
    changes: [{ service: 'agreements-api', kind: 'deploy', summary: 'agreements-api 5.6.0 (guarantor flow v2)', timestamp: at(START, 58) }],
    logs: sorted([
      ...lines('agreements-api', 0, 2, 50, 'INFO', (index) => `POST /v1/agreements 201 AGR-${index}`),
      ...lines('agreements-api', 62, 3, 12, 'ERROR', (index) => `POST /v1/agreements/AGR-${500 + index} 502: signvendor POST /v2/envelopes responded 503 Service Unavailable`),
      ...lines('vendor-probe', 0, 10, 10, 'INFO', () => 'signvendor envelope probe ok'),
      ...(probeFails ? lines('vendor-probe', 63, 5, 7, 'ERROR', () => 'signvendor envelope probe failed: HTTP 503 from signvendor') : []),
    ]),
  });

describe('a dependency that also fails for a caller that did not change', () => {
  it('is failing on its own: the release of the caller that pages is not why', () => {
    const { draft } = diagnose(outage({ probeFails: true }));
    expect(draft.rootCause).toMatchObject({ service: 'signvendor', category: 'external' });
  });

  it('is blamed on that release when no other caller fails with it', () => {
    expect(diagnose(outage({ probeFails: false })).draft.rootCause).toMatchObject({ service: 'agreements-api', category: 'deploy' });
  });
});
