import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step, type SyntheticEvidence } from './board-builder.ts';

const START = '2026-05-01T01:00:00.000Z';
const lines = linesFrom(START);

/**
 * A tokenizer that calls one KMS key is refused; a batch job that uses another key was launched
 * just before. Both keys draw on the account's one KMS request rate.
 */
const evidence = (refusal: string, jobAwsService = 'kms'): SyntheticEvidence => ({
  brief: 'CloudWatch alarm "tokenizer-errors" is in ALARM',
  services: [
    { name: 'auth-api', kind: 'ecs', dependsOn: ['tokenizer'] },
    { name: 'tokenizer', kind: 'lambda', dependsOn: ['vault', 'card-key'] },
    { name: 'vault', kind: 'dynamodb' },
    { name: 'card-key', kind: 'other', awsService: 'kms' },
    { name: 'reencrypt-job', kind: 'ecs', dependsOn: ['archive', 'archive-key'] },
    { name: 'archive', kind: 's3' },
    { name: 'archive-key', kind: 'other', awsService: jobAwsService },
  ],
  alarms: [{ name: 'tokenizer-errors', service: 'tokenizer', state: 'ALARM', since: at(START, 95) }],
  changes: [{ service: 'reencrypt-job', timestamp: at(START, 88), kind: 'other', summary: 'RunTask reencrypt-job x64: re-encrypt 2019-2024 archive under the new key' }],
  metrics: [
    { service: 'tokenizer', name: 'Invocations', points: series(START, 120, () => 900) },
    { service: 'tokenizer', name: 'Errors', points: series(START, 120, step(91, 0, 120)) },
  ],
  logs: sorted([
    ...lines('tokenizer', 0, 5, 24, 'INFO', (index) => `tokenized card ${index}`),
    ...lines('tokenizer', 91, 2, 12, 'ERROR', () => refusal),
    ...lines('auth-api', 92, 2, 12, 'ERROR', (index) => `authorization ${index} declined: tokenizer unavailable after 1500ms`),
    ...lines('reencrypt-job', 88, 4, 8, 'INFO', (index) => `worker ${index}: copied 5,000 objects`),
  ]),
});

describe('an account-wide request quota is shared by every resource of its AWS service', () => {
  it('a throttling that names KMS is the KMS quota, held by whoever uses any key: the job launched just before is blamed', () => {
    const diagnosis = diagnose(boardFrom(evidence('tokenize failed: ThrottlingException: You have exceeded the rate at which you may call KMS. Reduce the frequency of your calls.')));
    expect(diagnosis.root).toBe('reencrypt-job');
    expect(diagnosis.principles).toContain('co-tenant-took-quota');
    // The tokenizer's callers are not "separately" in trouble: they call a link of the chain.
    expect(diagnosis.draft.rootCause.summary).not.toMatch(/Separately/);
  });

  it('a throttling that names the table is not the KMS quota', () => {
    const diagnosis = diagnose(boardFrom(evidence('tokenize failed: ProvisionedThroughputExceededException: Rate of requests exceeds the allowed throughput (GetItem vault)')));
    expect(diagnosis.root).not.toBe('reencrypt-job');
  });

  it('a job using a resource of another AWS service does not share the quota', () => {
    const diagnosis = diagnose(boardFrom(evidence('tokenize failed: ThrottlingException: You have exceeded the rate at which you may call KMS. Reduce the frequency of your calls.', 'secretsmanager')));
    expect(diagnosis.root).not.toBe('reencrypt-job');
  });
});
