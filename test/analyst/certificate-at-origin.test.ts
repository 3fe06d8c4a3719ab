import { describe, expect, it } from 'vitest';
import { causesIn } from '../../lib/analyst/cause-signals.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-06-14T10:00:00.000Z';
const lines = linesFrom(START);
const labels = (text: string) => causesIn(text).map((hit) => hit.label);

describe('a certificate failing at an origin is its own, whatever its caller changed just before', () => {
  it('reads TLS negotiation errors as a certificate failure, and a field or connection descriptor that names SSL as nothing', () => {
    expect(labels('ClientTLSNegotiationErrorCount')).toContain('certificate');
    expect(labels('{"sc-status":"200","cs-protocol":"https","ssl-protocol":"TLSv1.3","ssl-cipher":"TLS_AES_128_GCM_SHA256"}')).not.toContain('certificate');
    expect(labels("ClientConnectorError: Cannot connect to host api.example.com:443 ssl:default [Connect call failed ('203.0.113.48', 443)]")).not.toContain('certificate');
    expect(labels('LOG:  connection authorized: user=web database=shop SSL enabled (protocol=TLSv1.2, cipher=ECDHE-RSA-AES128-GCM-SHA256, bits=128)')).not.toContain('certificate');
    expect(labels('SSL error: certificate verify failed: unable to get local issuer certificate')).toContain('certificate');
    expect(labels('[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: certificate has expired')).toContain('certificate');
  });

  it("a CDN's cache-behaviour change minutes before its origin's TLS negotiation failed does not take the blame", () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "edge-5xx-rate" is in ALARM',
        services: [
          { name: 'edge-cdn', kind: 'cloudfront', dependsOn: ['origin-alb'] },
          { name: 'origin-alb', kind: 'elb', dependsOn: ['api'] },
          { name: 'api', kind: 'ecs' },
        ],
        alarms: [{ name: 'edge-5xx-rate', service: 'edge-cdn', state: 'ALARM', since: at(START, 63) }],
        changes: [{ service: 'edge-cdn', timestamp: at(START, 50), kind: 'config', summary: 'distribution updated: added cache behavior /v2/leaderboards/* (TTL 60s)' }],
        metrics: [
          { service: 'edge-cdn', name: '5xxErrorRate', points: series(START, 90, step(60, 0.05, 90)) },
          { service: 'origin-alb', name: 'ClientTLSNegotiationErrorCount', points: series(START, 90, step(60, 0, 800)) },
          { service: 'origin-alb', name: 'RequestCount', points: series(START, 90, step(60, 900, 20)) },
        ],
        logs: sorted([
          ...lines('api', 0, 5, 18, 'INFO', (index) => `GET /v2/activities/${index} 200 80ms`),
          ...lines('edge-cdn', 61, 3, 9, 'ERROR', () => '502 ERROR The request could not be satisfied. CloudFront wasn\'t able to connect to the origin.'),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('origin-alb');
    expect(diagnosis.category).toBe('certificate');
    expect(diagnosis.principles).not.toContain('caller-change');
  });
});
