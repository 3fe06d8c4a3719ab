import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, pointsBetween, sorted, step } from './board-builder.ts';

const START = '2026-05-19T13:00:00.000Z';
const lines = linesFrom(START);

const policyVersion = (service: string, minute: number, policy: string) => ({
  service,
  timestamp: at(START, minute),
  kind: 'iam',
  summary: `CreatePolicyVersion on ${policy} (setAsDefault=true)`,
  details: { eventSource: 'iam.amazonaws.com', eventName: 'CreatePolicyVersion', requestParameters: { policyArn: `arn:aws:iam::123456789012:policy/${policy}`, setAsDefault: true } },
});

/**
 * An API in front of two functions that write to a bucket. The gateway's 5xx count and the bucket's
 * 4xx count, read every five minutes, turn at minute 55. The download function's policy got a new version at minute 52 and it goes on working;
 * the upload function's policy got one at minute 58 and it is refused from minute 59.
 */
const twoPolicyChanges = (downloadRefused: boolean) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "files-api-5xx" is in ALARM',
      services: [
        { name: 'files-api', kind: 'apigateway', dependsOn: ['upload-fn', 'download-fn'] },
        { name: 'upload-fn', kind: 'lambda', dependsOn: ['files-bucket'] },
        { name: 'download-fn', kind: 'lambda', dependsOn: ['files-bucket'] },
        { name: 'files-bucket', kind: 's3' },
      ],
      alarms: [{ name: 'files-api-5xx', service: 'files-api', state: 'ALARM', since: at(START, 62) }],
      changes: [policyVersion('download-fn', 52.6, 'FilesReadOnly'), policyVersion('upload-fn', 58.1, 'FilesUploadAccess')],
      metrics: [
        { service: 'files-api', name: '5XXError', periodSeconds: 300, points: pointsBetween(START, 0, 90, 5, step(55, 0, 180)) },
        { service: 'files-bucket', name: '4xxErrors', periodSeconds: 300, points: pointsBetween(START, 0, 90, 5, step(55, 0, 175)) },
      ],
      logs: sorted([
        ...lines('download-fn', 1, 2, 44, 'INFO', (index) => `served thumbnail thumb_${index}.webp`),
        ...lines('upload-fn', 1, 2, 29, 'INFO', (index) => `wrote object uploads/${index}.bin`),
        ...lines('upload-fn', 59, 1, 30, 'ERROR', (index) => `PutObject uploads/u${index}.bin refused: AccessDenied: User is not authorized to perform: kms:GenerateDataKey on resource key/0f1e`),
        ...(downloadRefused ? lines('download-fn', 53, 1, 30, 'ERROR', (index) => `GetObject thumbs/${index}.webp refused: AccessDenied: User is not authorized to perform: s3:GetObject`) : []),
      ]),
    }),
  );

describe('a measure read every five minutes shows a failure by the end of its period, perhaps not before', () => {
  it('the change made inside the period the refusals first show in, just before the refusals, explains them, not one made before that period', () => {
    expect(twoPolicyChanges(false).suspectChange?.summary).toBe('CreatePolicyVersion on FilesUploadAccess (setAsDefault=true)');
  });

  it('a function refused right after its own policy changed, before the measures turned, is explained by that change', () => {
    expect(twoPolicyChanges(true).suspectChange?.summary).toBe('CreatePolicyVersion on FilesReadOnly (setAsDefault=true)');
  });
});
