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

/**
 * A mail queue backs up: its handler's sends are refused by SES's daily quota, days after a bulk
 * newsletter was launched on another sending identity of the same account; the handler was itself
 * released just before its refusals began.
 */
const mailQueue = (refusal: string): SyntheticEvidence => ({
  brief: 'CloudWatch alarm "mail-queue-oldest-message" is in ALARM',
  services: [
    { name: 'signup-api', kind: 'ecs', dependsOn: ['mail-queue'] },
    { name: 'mail-queue', kind: 'sqs' },
    { name: 'mailer', kind: 'ecs', dependsOn: ['mail-queue', 'mail-identity'] },
    { name: 'mail-identity', kind: 'other', awsService: 'ses' },
    { name: 'newsletter-job', kind: 'lambda', dependsOn: ['promo-identity'] },
    { name: 'promo-identity', kind: 'other', awsService: 'ses' },
  ],
  alarms: [{ name: 'mail-queue-oldest-message', service: 'mail-queue', state: 'ALARM', since: at(START, 96) }],
  changes: [
    { service: 'newsletter-job', timestamp: at(START, 30), kind: 'other', summary: 'StartExecution newsletter-send: audience 380,000 recipients' },
    { service: 'mailer', timestamp: at(START, 84), kind: 'deploy', summary: 'mailer 3.2.0 rolled out (templated sends)' },
  ],
  metrics: [
    { service: 'mail-queue', name: 'ApproximateAgeOfOldestMessage', points: series(START, 120, (minute) => (minute < 91 ? 4 : (minute - 90) * 60)) },
    { service: 'mail-queue', name: 'NumberOfMessagesSent', points: series(START, 120, () => 40) },
    { service: 'newsletter-job', name: 'Invocations', points: series(START, 120, step(30, 0, 500)) },
  ],
  logs: sorted([
    ...lines('mailer', 0, 5, 18, 'INFO', (index) => `sent template=welcome message ${index}`),
    ...lines('mailer', 91, 2, 12, 'ERROR', () => refusal),
    ...lines('newsletter-job', 30, 6, 10, 'INFO', (index) => `batch ${index}: 50/50 accepted`),
  ]),
});

describe('SES sending quota is one account-wide quota, shared by every sending identity', () => {
  it('a handler refused by the daily quota is starved, its own release just before explains nothing: the bulk sender launched on another identity took it', () => {
    const diagnosis = diagnose(boardFrom(mailQueue('send failed template=reset: Throttling: Daily message quota exceeded.')));
    expect(diagnosis.root).toBe('newsletter-job');
    expect(diagnosis.principles).toContain('co-tenant-took-quota');
  });

  it('a handler failing on something else is its own release\'s doing', () => {
    const diagnosis = diagnose(boardFrom(mailQueue('send failed template=reset: TemplateDoesNotExist: Template reset-v2 does not exist')));
    expect(diagnosis.root).toBe('mailer');
  });
});
