import { describe, expect, it } from 'vitest';
import { severityOf } from '../../lib/analysis/log-templates.ts';
import { inferCause } from '../../lib/analyst/infer-cause.ts';
import { severityOfLine } from '../../lib/analyst/signals.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-08-29T05:30:00.000Z';

describe('a log line whose words state a failure', () => {
  it('is an error whatever level it was logged at, when it names a cause', () => {
    expect(severityOfLine({ level: 'INFO', message: 'http: TLS handshake error from 10.60.50.186:41698: remote error: tls: expired certificate' })).toBe(severityOf('ERROR'));
    expect(severityOfLine({ level: 'WARN', message: 'connect ETIMEDOUT 10.2.3.4:5432 after 10000 ms: unable to reach orders-db' })).toBe(severityOf('ERROR'));
  });

  it('keeps its level when it names a cause without a failure, or a failure without a cause', () => {
    expect(severityOfLine({ level: 'INFO', message: 'Renewing an existing certificate for pos.example.com' })).toBe(severityOf('INFO'));
    expect(severityOfLine({ level: 'INFO', message: 'batch done: 412 synced, 0 failed' })).toBe(severityOf('INFO'));
    expect(severityOfLine({ level: 'FATAL', message: 'x509: certificate has expired' })).toBe(severityOf('FATAL'));
  });

  it('keeps its level when it says the work went on past the failure it reports', () => {
    expect(severityOfLine({ level: 'WARN', message: 'bulk index: 3 documents rejected (mapper_parsing_exception: failed to parse field [width] of type [float]); continuing' })).toBe(severityOf('WARN'));
    expect(severityOfLine({ level: 'WARN', message: 'bulk index: 3 documents rejected (mapper_parsing_exception: failed to parse field [width] of type [float])' })).toBe(severityOf('ERROR'));
  });

  it('keeps its level when it is an access log line of a request answered as the client\'s fault, whatever words the log adds', () => {
    const refused = '1790193137.804\t203.0.113.7\t0.051\t403\t1135\tGET\thttps\twww.example.org\t/backup.zip\tCPH50-C2\t5BE9B427==\tError\tMozilla/5.0';
    expect(severityOfLine({ level: 'INFO', message: refused })).toBe(severityOf('INFO'));
    expect(severityOfLine({ level: 'INFO', message: refused.replace('\t403\t', '\t503\t').replace('/backup.zip', '/checkout: connect ETIMEDOUT') })).toBe(severityOf('ERROR'));
  });

  it('is no trouble when a warning says its reading is within what is allowed, and still a warning when it is not', () => {
    expect(severityOfLine({ level: 'WARN', message: 'Stripe webhook timestamp skew 11s within tolerance (300s), accepting' })).toBe(severityOf('INFO'));
    expect(severityOfLine({ level: 'WARN', message: 'model endpoint p95 58ms above 50ms budget; scores still within SLA' })).toBe(severityOf('INFO'));
    expect(severityOfLine({ level: 'WARN', message: 'clock skew 412s not within tolerance (300s)' })).toBe(severityOf('WARN'));
    expect(severityOfLine({ level: 'ERROR', message: 'batch 7 failed after 3 retries; error budget still within SLO' })).toBe(severityOf('ERROR'));
  });
});

/** A service behind a load balancer whose certificate expired at minute 45, after its own scheduled scale-out at minute 30. */
const expiredBehindScaleOut = (handshakeLevel: string) =>
  boardFrom({
    brief: 'CloudWatch alarm pos-syncs-low is in ALARM',
    services: [
      { name: 'pos-nlb', kind: 'elb', dependsOn: ['pos-api'] },
      { name: 'pos-api', kind: 'ecs' },
    ],
    alarms: [{ name: 'pos-syncs-low', service: 'pos-api', state: 'ALARM', since: at(START, 52) }],
    changes: [{ service: 'pos-api', timestamp: at(START, 30), kind: 'scaling', summary: 'pos-api desired count 4 -> 10 (scheduled action store-opening)' }],
    logs: [
      ...Array.from({ length: 40 }, (_, index) => ({ service: 'pos-api', timestamp: at(START, index), level: 'INFO', message: `sync store ${index} ok` })),
      ...Array.from({ length: 12 }, (_, index) => ({ service: 'pos-api', timestamp: at(START, 45 + index), level: handshakeLevel, message: `http: TLS handshake error from 10.60.1.${index}:41698: remote error: tls: expired certificate` })),
    ],
    metrics: [{ service: 'pos-api', name: 'StoreSyncs', periodSeconds: 60, points: series(START, 60, (minute) => (minute < 45 ? 400 : 2)) }],
  });

describe('an alarm after a scheduled scaling action, with handshakes failing on an expired certificate', () => {
  it('is an incident with a certificate cause, even when the server logs the handshake errors at INFO', () => {
    for (const level of ['INFO', 'ERROR']) {
      expect(inferCause(expiredBehindScaleOut(level)), level).toMatchObject({ verdict: 'incident', root: 'pos-api', category: 'certificate' });
    }
  });
});

describe('a scheduled scaling action', () => {
  const latencyAfter = (summary: string) =>
    inferCause(
      boardFrom({
        brief: 'CloudWatch alarm pos-latency-high is in ALARM',
        services: [{ name: 'pos-api', kind: 'ecs' }],
        alarms: [{ name: 'pos-latency-high', service: 'pos-api', state: 'ALARM', since: at(START, 52) }],
        changes: [{ service: 'pos-api', timestamp: at(START, 30), kind: 'scaling', summary }],
        metrics: [{ service: 'pos-api', name: 'TargetResponseTime', periodSeconds: 60, points: series(START, 60, (minute) => (minute < 45 ? 0.2 : 2.5)) }],
      }),
    ).verdict;

  it('sets capacity and announces no work: it does not explain an alarm as planned load', () => {
    expect(latencyAfter('pos-api desired count 4 -> 10 (scheduled action store-opening)')).toBe('incident');
    expect(latencyAfter('pos-api desired count 4 -> 10 ahead of the scheduled load test')).toBe('healthy');
  });
});
