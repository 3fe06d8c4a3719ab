import { describe, expect, it } from 'vitest';
import type { FindingDraft } from '../../lib/domain/finding.ts';
import type { TranscriptEvent } from '../../lib/domain/transcript.ts';
import { reviewDraft } from '../../lib/workflow/reflection.ts';

const result = (seq: number, name: string, ref: string, data: unknown): TranscriptEvent => ({
  seq,
  type: 'tool.result',
  at: '2026-05-01T12:00:00Z',
  step: 'run-tools#1',
  payload: { toolCallId: `c${seq}`, name, ref, summary: name, data },
});

const events = (alarmState: 'ALARM' | 'OK'): TranscriptEvent[] => [
  result(1, 'list_alarms', 'E1', { available: true, alarms: [{ name: 'gateway-5xx', service: 'gateway', state: alarmState, since: '2026-05-01T11:40:00Z' }] }),
  result(2, 'query_logs', 'E2', {
    available: true,
    matched: 2,
    templates: [],
    lines: [
      { timestamp: '2026-05-01T11:30:00Z', service: 'gateway', level: 'INFO', message: 'ok' },
      { timestamp: '2026-05-01T11:58:00Z', service: 'gateway', level: 'ERROR', message: 'TLS handshake failed: certificate has expired' },
    ],
  }),
];

const healthy = (summary: string, refs: string[]): FindingDraft => ({
  incident: false,
  rootCause: { service: 'gateway', category: 'none', summary },
  confidence: 0.6,
  evidence: refs.map((ref) => ({ ref, summary: 'seen' })),
  remediation: [],
  timeline: [],
  impact: 'None found.',
  followUps: [],
});

describe('the review of a "no incident" draft', () => {
  it('rejects it while an alarm it does not account for is in ALARM', () => {
    const review = reviewDraft(healthy('No incident.', ['E1']), events('ALARM'));
    expect(review.passed).toBe(false);
    expect(review.problems.join(' ')).toMatch(/gateway-5xx/);
  });

  it('rejects it when its own cited evidence shows errors still occurring', () => {
    const review = reviewDraft(healthy('No incident: alarm gateway-5xx recovered.', ['E2']), events('OK'));
    expect(review.passed).toBe(false);
    expect(review.problems.join(' ')).toMatch(/errors still occurring/);
  });

  it('quotes the error still occurring with its cause, however much the logger wrote before it', () => {
    const line = `2026-05-01 11:58:00.123 ERROR 1 --- [nio-8080-exec-7] c.a.payments.ChargeController : POST /v1/charges failed for merchant m-4411 after 3 attempts: org.postgresql.util.PSQLException: Connection to payments-db.cluster-x.eu-west-1.rds.amazonaws.com:5432 refused`;
    const withLongLine = events('OK').map((event) =>
      event.seq === 2 ? { ...event, payload: { ...(event.payload as object), data: { available: true, matched: 1, templates: [], lines: [{ timestamp: '2026-05-01T11:58:00Z', service: 'gateway', level: 'ERROR', message: line }] } } } : event,
    );
    const problem = reviewDraft(healthy('No incident: alarm gateway-5xx recovered.', ['E2']), withLongLine).problems.join(' ');
    expect(problem).toMatch(/errors still occurring: "POST \/v1\/charges failed/);
    expect(problem).toMatch(/PSQLException: Connection to payments-db\S* refused"/);
  });

  it('rejects a summary that says there are no errors when its evidence holds some', () => {
    const review = reviewDraft(healthy('No incident: no service shows errors.', ['E2']), events('OK'));
    expect(review.problems.join(' ')).toMatch(/says there are no errors/);
  });

  it('passes a draft that explains each firing alarm and cites no current errors', () => {
    const review = reviewDraft(healthy('No incident. alarm gateway-5xx is explained: announced beforehand: "load test".', ['E1']), events('ALARM'));
    expect(review).toEqual({ passed: true, problems: [] });
  });
});
