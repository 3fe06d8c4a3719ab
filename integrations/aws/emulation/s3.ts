import type { GetObjectCommandInput, ListObjectsV2CommandInput, ListObjectsV2CommandOutput } from '@aws-sdk/client-s3';
import type { runbook } from '../../../lib/domain/scenario.ts';
import type { z } from 'zod';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { serviceException, type ServiceEmulation } from './emulator.ts';

/**
 * S3 holding the scenario's runbooks as a team would keep them: one markdown file each under
 * `runbooks/` in any bucket, in the format of runbooks/README.md. Small pages, so the listing's
 * continuation really runs.
 */
const KEYS_PER_PAGE = 2;
const RUNBOOK_PREFIX = 'runbooks/';
const LAST_MODIFIED = new Date('2026-01-01T00:00:00Z');

type Runbook = z.infer<typeof runbook>;

export const runbookMarkdown = (book: Runbook): string =>
  [
    '---',
    `id: ${book.id}`,
    ...(book.service ? [`service: ${book.service}`] : []),
    ...(book.match && book.match.length > 0 ? ['match:', ...book.match.map((phrase) => `  - ${phrase}`)] : []),
    '---',
    `# ${book.title}`,
    '',
    '## Steps',
    ...book.steps.map((step, index) => `${index + 1}. ${step}`),
    '',
  ].join('\n');

const objects = (environment: RecordedEnvironment): Map<string, string> =>
  new Map(environment.runbooks.map((book) => [`${RUNBOOK_PREFIX}${book.id.replace(/[^\w.-]+/g, '-')}.md`, runbookMarkdown(book)]));

const listObjectsV2 = (input: ListObjectsV2CommandInput, environment: RecordedEnvironment): Omit<ListObjectsV2CommandOutput, '$metadata'> => {
  if (!environment.has('runbooks')) throw serviceException('NoSuchBucket', `The specified bucket does not exist: ${input.Bucket}`, 404);
  const keys = [...objects(environment).entries()].filter(([key]) => key.startsWith(input.Prefix ?? '')).sort(([a], [b]) => a.localeCompare(b));
  const start = input.ContinuationToken ? Number(input.ContinuationToken) : 0;
  const pageSize = Math.min(input.MaxKeys ?? 1000, KEYS_PER_PAGE);
  const page = keys.slice(start, start + pageSize);
  const truncated = start + pageSize < keys.length;
  return {
    Name: input.Bucket,
    Prefix: input.Prefix ?? '',
    KeyCount: page.length,
    MaxKeys: input.MaxKeys ?? 1000,
    IsTruncated: truncated,
    ...(truncated ? { NextContinuationToken: String(start + pageSize) } : {}),
    Contents: page.map(([Key, body]) => ({ Key, Size: Buffer.byteLength(body), LastModified: LAST_MODIFIED, StorageClass: 'STANDARD' })),
  };
};

const getObject = (input: GetObjectCommandInput, environment: RecordedEnvironment) => {
  const body = objects(environment).get(input.Key ?? '');
  if (body === undefined) throw serviceException('NoSuchKey', 'The specified key does not exist.', 404);
  // The SDK mixes these readers into a real response's body stream.
  return {
    Body: { transformToString: async () => body, transformToByteArray: async () => new TextEncoder().encode(body) },
    ContentType: 'text/markdown',
    ContentLength: Buffer.byteLength(body),
    LastModified: LAST_MODIFIED,
  };
};

export const s3Emulation: ServiceEmulation = { ListObjectsV2Command: listObjectsV2, GetObjectCommand: getObject };
