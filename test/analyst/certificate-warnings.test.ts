import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, type SyntheticEvidence } from './board-builder.ts';

const START = '2026-01-21T09:00:00.000Z';
const lines = linesFrom(START);

/** A release of `api` at minute 60 breaks its requests from minute 62; the evidence runs to minute 120. */
const release = (extra: { alarms?: SyntheticEvidence['alarms']; logs?: SyntheticEvidence['logs'] }) =>
  diagnose(
    boardFrom({
      brief: `CloudWatch alarm "api-5xx" changed to ALARM at ${at(START, 66)}.`,
      services: [
        { name: 'web', kind: 'ecs', dependsOn: ['api'] },
        { name: 'api', kind: 'ecs' },
      ],
      alarms: [{ name: 'api-5xx', service: 'api', state: 'ALARM', since: at(START, 66) }, ...(extra.alarms ?? [])],
      changes: [{ service: 'api', timestamp: at(START, 60), kind: 'deploy', summary: 'api v2.4.0 rolled out (task definition api:41 -> api:42)' }],
      metrics: [
        { service: 'api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, (minute) => (minute >= 62 ? 60 : 0)) },
        { service: 'api', name: 'RequestCount', points: series(START, 120, () => 900) },
      ],
      logs: sorted([
        ...lines('api', 0, 3, 40, 'INFO', (index) => `GET /v2/items/${index} 200 21ms`),
        ...lines('api', 62, 2, 29, 'ERROR', () => 'GET /v2/items 500 Internal Server Error: unexpected response shape from item store'),
        ...(extra.logs ?? []),
      ]),
    }),
  );

const daysLeft = (days: number) => [{ name: 'api-cert-days-to-expiry', service: 'api', state: 'ALARM' as const, since: at(START, -600), reason: `Threshold Crossed: 1 datapoint [${days}.0] was less than or equal to the threshold (45.0)` }];
const handshakes = (from: number) => lines('api', from, 10, 3, 'WARN', () => 'TLS handshake failed remote=10.4.7.21 err="remote error: tls: expired certificate"');

describe('what only warns of a certificate', () => {
  it('does not outweigh the release: days left before expiry, handshake failures first seen long after the trouble began', () => {
    expect(release({ alarms: daysLeft(45) }).category).toBe('deploy');
    expect(release({ logs: handshakes(100) }).category).toBe('deploy');
  });

  it('a certificate already expired, or handshakes failing from the start, still name the mechanism', () => {
    expect(release({ alarms: daysLeft(0) }).category).toBe('certificate');
    expect(release({ logs: handshakes(62) }).category).toBe('certificate');
  });
});
