import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-06-30T23:00:00.000Z';
const lines = linesFrom(START);

/** A mail sender consuming a queue, and a second sender, both calling a third-party relay whose certificate expired at minute 60. */
const relayCertificateExpired = (fate: string) =>
  boardFrom({
    brief: 'CloudWatch alarm "receipts-dlq-depth" is in ALARM',
    services: [
      { name: 'receipt-queue', kind: 'sqs' },
      { name: 'receipt-mailer', kind: 'lambda', dependsOn: ['receipt-queue', 'mail-relay'] },
      { name: 'signup-mailer', kind: 'lambda', dependsOn: ['mail-relay'] },
      { name: 'mail-relay', kind: 'external' },
    ],
    alarms: [{ name: 'receipts-dlq-depth', service: 'receipt-queue', state: 'ALARM', since: at(START, 75) }],
    metrics: [{ service: 'receipt-queue', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, (minute) => (minute < 60 ? 2 : 2 + (minute - 60) * 3)) }],
    logs: sorted([
      ...lines('receipt-mailer', 0, 5, 12, 'INFO', (index) => `receipt R-${index} sent`),
      ...lines('receipt-mailer', 60, 2, 30, 'ERROR', (index) => `send failed for receipt R-${100 + index}: certificate has expired (CERT_HAS_EXPIRED) connecting to https://relay.mailvendor.example:587; ${fate}`),
      ...lines('signup-mailer', 62, 6, 10, 'ERROR', () => 'welcome email failed: certificate has expired (CERT_HAS_EXPIRED) https://relay.mailvendor.example:587'),
    ]),
  });

describe('what became of a message says nothing against its queue', () => {
  it('a send that failed on the relay’s expired certificate, its message returned to the queue, is the relay’s fault: its provider renews it', () => {
    const diagnosis = diagnose(relayCertificateExpired('message returned to queue (receive 2/3)'));
    expect(diagnosis.root).toBe('mail-relay');
    expect(diagnosis.draft.rootCause.category).toBe('certificate');
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'escalate', target: 'mail-relay' });
    expect(diagnosis.draft.remediation.map((step) => step.action)).not.toContain('renew-certificate');
  });

  it('as when the line does not say what became of the message', () => {
    expect(diagnose(relayCertificateExpired('will retry')).root).toBe('mail-relay');
  });
});
