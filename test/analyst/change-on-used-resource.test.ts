import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

const failing = (service: string, message: string) => [
  ...Array.from({ length: 12 }, (_, index) => ({ service, timestamp: at(START, index * 5), level: 'INFO', message: `job ${index} done` })),
  ...Array.from({ length: 10 }, (_, index) => ({ service, timestamp: at(START, 62 + index * 3), level: 'ERROR', message })),
];

describe('a change to a resource the failing path uses, of the kind the errors complain about, explains them', () => {
  it('a key policy change behind a queue explains a producer\'s AccessDenied', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "producer-errors" is in ALARM',
        services: [
          { name: 'producer', kind: 'lambda', dependsOn: ['jobs'] },
          { name: 'jobs', kind: 'sqs', dependsOn: ['jobs-key'] },
          { name: 'jobs-key', kind: 'other' },
          { name: 'consumer', kind: 'ecs', dependsOn: ['jobs'] },
        ],
        alarms: [{ name: 'producer-errors', service: 'producer', state: 'ALARM', since: at(START, 66) }],
        changes: [
          { service: 'consumer', timestamp: at(START, 50), kind: 'deploy', summary: 'consumer v9 rolled out' },
          { service: 'jobs-key', timestamp: at(START, 60), kind: 'iam', summary: 'PutKeyPolicy: policy replaced' },
        ],
        logs: failing('producer', 'SendMessage to jobs failed: KMS.AccessDeniedException: User: arn:aws:sts::123456789012:assumed-role/producer is not authorized to perform: kms:GenerateDataKey'),
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('jobs-key');
    expect(diagnosis.draft.rootCause.category).toBe('permissions');
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'revert-config', target: 'jobs-key' });
  });

  /** uploader (using a bucket through a subnet whose ACL was just changed) fails with `message`. */
  const uploadsFailWith = (message: string) =>
    diagnose(
      boardFrom({
        brief: 'Question: why do uploads fail?',
        services: [
          { name: 'uploader', kind: 'lambda', dependsOn: ['bucket', 'subnet-acl'] },
          { name: 'bucket', kind: 's3' },
          { name: 'subnet-acl', kind: 'other' },
          { name: 'ui', kind: 'ecs', dependsOn: ['uploader'] },
        ],
        changes: [{ service: 'subnet-acl', timestamp: at(START, 59), kind: 'network', summary: 'ReplaceNetworkAclEntry egress 443 -> deny' }],
        logs: failing('uploader', message),
      }),
    );

  it('a network ACL change explains timeouts the errors pin on the bucket', () => {
    const diagnosis = uploadsFailWith('PutObject to bucket failed: connect ETIMEDOUT 52.95.160.9:443');
    expect(diagnosis.draft.rootCause.service).toBe('subnet-acl');
    expect(diagnosis.draft.rootCause.category).toBe('network');
  });

  it('a change to a used resource that the errors do not complain about is not blamed', () => {
    const diagnosis = uploadsFailWith('render failed: TypeError: Cannot read properties of undefined (reading "rows")');
    expect(diagnosis.draft.rootCause.service).not.toBe('subnet-acl');
  });
});
