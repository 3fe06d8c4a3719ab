import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const quiet = (service: string) => Array.from({ length: 12 }, (_, index) => ({ service, timestamp: at(START, index * 5), level: 'INFO', message: `run ${index} done` }));

describe('a rejection of the caller\'s own identity is not a failure of the callee', () => {
  const services = [
    { name: 'payer', kind: 'lambda', dependsOn: ['bank'] },
    { name: 'bank', kind: 'external' },
    { name: 'web', kind: 'ecs', dependsOn: ['payer'] },
    { name: 'ledger', kind: 'ecs' },
  ];

  /** payer's calls to bank fail with `message` after an hour of quiet runs, and its alarm fires. */
  const payerCallsFailWith = (message: string, changes: { service: string; timestamp: string; kind: string; summary: string }[] = []) =>
    diagnose(
      boardFrom({
        brief: 'PagerDuty event: payer runs failing',
        services,
        changes,
        alarms: [{ name: 'payer-errors', service: 'payer', state: 'ALARM', since: at(START, 70) }],
        logs: [
          ...quiet('payer'),
          ...Array.from({ length: 4 }, (_, index) => ({ service: 'payer', timestamp: at(START, 62 + index * 15), level: 'ERROR', message })),
        ],
      }),
    );

  it('a peer that refuses our expired client certificate leaves the certificate with us', () => {
    const diagnosis = payerCallsFailWith(
      'POST https://bank.example/v1/transfers failed: sslv3 alert certificate expired (SSL alert number 45); client certificate notAfter=2026-05-01T11:00:00Z',
    );
    expect(diagnosis.draft.rootCause.service).toBe('payer');
    expect(diagnosis.draft.rootCause.category).toBe('certificate');
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'renew-certificate', target: 'payer' });
  });

  it('a change that took away the authority the peer trusts is put back; a certificate replaced by the wrong one is replaced again', () => {
    const changed = (summary: string) =>
      payerCallsFailWith('POST https://bank.example/v1/transfers failed: sslv3 alert bad certificate (SSL alert number 42)', [{ service: 'payer', timestamp: at(START, 58), kind: 'certificate', summary }]);
    const removed = changed('Client certificate bundle regenerated: removed the intermediate CA the bank trusts');
    expect(removed.draft.rootCause).toMatchObject({ service: 'payer', category: 'certificate' });
    expect(removed.draft.remediation[0]).toMatchObject({ action: 'revert-config', target: 'payer' });
    expect(changed('Client certificate for bank.example re-imported (ACM ImportCertificate)').draft.remediation[0]).toMatchObject({ action: 'renew-certificate', target: 'payer' });
  });

  it('an expired certificate the peer presents is the peer\'s', () => {
    const diagnosis = payerCallsFailWith('POST https://bank.example/v1/transfers failed: certificate has expired (CERT_HAS_EXPIRED)');
    expect(diagnosis.draft.rootCause.service).toBe('bank');
    expect(diagnosis.draft.rootCause.category).toBe('certificate');
  });

  it('"<our role> is not authorized" names no failing callee: the permission change on the caller explains it', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "writer-errors" is in ALARM',
        services: [
          { name: 'writer', kind: 'lambda', dependsOn: ['files'] },
          { name: 'files', kind: 's3' },
          { name: 'reader', kind: 'ecs', dependsOn: ['files'] },
          { name: 'web', kind: 'ecs', dependsOn: ['writer'] },
        ],
        alarms: [{ name: 'writer-errors', service: 'writer', state: 'ALARM', since: at(START, 66) }],
        changes: [{ service: 'writer', timestamp: at(START, 58), kind: 'iam', summary: 'writer-role policy updated' }],
        logs: [
          ...quiet('writer'),
          ...Array.from({ length: 8 }, (_, index) => ({
            service: 'writer',
            timestamp: at(START, 61 + index * 3),
            level: 'ERROR',
            message: 'AccessDenied: User: arn:aws:sts::123456789012:assumed-role/writer-role/writer is not authorized to perform: s3:PutObject on files',
          })),
        ],
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('writer');
    expect(diagnosis.draft.rootCause.category).toBe('permissions');
  });
});
