import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-05-10T06:00:00.000Z';
const lines = linesFrom(START);

/** A portal whose report downloads fail from minute 60 on a key KMS reports disabled; the portal shipped a release at minute 58. */
const portal = ({ keyDisabledAt, release = 'portal v4.2.0 rolled out (report list paging)', throughBucket = false }: { keyDisabledAt?: number; release?: string; throughBucket?: boolean } = {}) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "portal-5xx" is in ALARM',
      services: [
        { name: 'portal', kind: 'ecs', dependsOn: throughBucket ? ['reports-bucket'] : ['reports-bucket', 'reports-key'] },
        { name: 'reports-bucket', kind: 's3', dependsOn: ['reports-key'] },
        { name: 'reports-key', kind: 'other', tags: { service: 'AWS KMS', alias: 'alias/reports' } },
      ],
      alarms: [{ name: 'portal-5xx', service: 'portal', state: 'ALARM', since: at(START, 70) }],
      changes: [
        ...(keyDisabledAt === undefined ? [] : [{ service: 'reports-key', timestamp: at(START, keyDisabledAt), kind: 'config', summary: 'CloudTrail kms:DisableKey (key rotation clean-up)' }]),
        { service: 'portal', timestamp: at(START, 58), kind: 'deploy', summary: release },
      ],
      metrics: [{ service: 'portal', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, (minute) => (minute < 60 ? 0 : 30)) }],
      logs: sorted([
        ...lines('portal', 0, 5, 24, 'INFO', (index) => `GET /reports/${index} 200`),
        ...lines('portal', 60, 4, 14, 'ERROR', (index) =>
          throughBucket
            ? `GetObject s3://reports-bucket/${index}.pdf failed: KMS.DisabledException: arn:aws:kms:eu-west-1:111122223333:key/1a2b3c4d-1111-2222-3333-444455556666 is disabled.`
            : `GET /reports/${index} failed: DisabledException: arn:aws:kms:eu-west-1:111122223333:key/1a2b3c4d-1111-2222-3333-444455556666 is disabled.`,
        ),
      ]),
    }),
  ).draft;

describe('a key its callers find disabled', () => {
  it('is where the fault is, though a caller released just before and the key was disabled the day before', () => {
    const draft = portal({ keyDisabledAt: -1560 });
    expect(draft.rootCause.service).toBe('reports-key');
    expect(draft.remediation[0]).toMatchObject({ action: 'revert-config', target: 'reports-key' });
  });

  it('is where the fault is when no change to it was recorded: its state is no load its callers put on it', () => {
    const draft = portal();
    expect(draft.rootCause.service).toBe('reports-key');
    expect(draft.rootCause.summary).toContain('reports-key, the KMS key its callers encrypt and decrypt with, is disabled');
  });

  it('is where the fault is when the caller reaches it only through the bucket that encrypts with it, and names the bucket', () => {
    expect(portal({ throughBucket: true }).rootCause.service).toBe('reports-key');
  });

  it('is the caller’s doing when its release moved it onto that key', () => {
    expect(portal({ release: 'portal v4.2.0 rolled out (reports now encrypted with alias/reports-v2)' }).rootCause.service).toBe('portal');
  });
});
