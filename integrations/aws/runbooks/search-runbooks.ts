import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { searchRunbooksContract } from '../../../lib/tools/contracts/search-runbooks.ts';
import { noData } from '../../../lib/tools/contracts/shared-inputs.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import { deniedReason, isAccessDenied } from '../api-errors.ts';
import type { AwsClients } from '../clients.ts';
import type { AwsToolDependencies } from '../tools.ts';
import { rankRunbooks } from '../../../lib/tools/runbook-ranking.ts';
import { parseRunbook, type Runbook } from './runbook-markdown.ts';

/** The format's own description, kept beside the runbooks, is not a runbook. */
const isRunbookFile = (path: string) => path.toLowerCase().endsWith('.md') && !/(^|\/)readme\.md$/i.test(path);
const withoutExtension = (path: string) => path.replace(/\.md$/i, '');

const fromDirectory = async (directory: string): Promise<Runbook[]> => {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .filter(isRunbookFile)
    .sort();
  return Promise.all(files.map(async (file) => parseRunbook(await readFile(join(directory, file), 'utf8'), withoutExtension(file))));
};

const fromS3 = async (clients: AwsClients, uri: string): Promise<Runbook[]> => {
  const [, bucket = '', prefix = ''] = /^s3:\/\/([^/]+)\/?(.*)$/.exec(uri) ?? [];
  const s3 = clients.get(S3Client);
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
    keys.push(...(page.Contents ?? []).map((object) => object.Key ?? '').filter(isRunbookFile));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return Promise.all(
    keys.sort().map(async (key) => {
      const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return parseRunbook((await object.Body?.transformToString('utf-8')) ?? '', withoutExtension(key.slice(prefix.length)));
    }),
  );
};

/**
 * search_runbooks over the team's markdown runbooks: a folder deployed with the stack
 * (`settings.runbooks.directory`) or an S3 prefix (`settings.runbooks.s3Uri`), read once per step.
 */
export const searchRunbooks = ({ clients, settings }: AwsToolDependencies) => {
  const { directory, s3Uri } = settings.runbooks;
  let loaded: Promise<Runbook[]> | undefined;
  const load = () => {
    loaded ??= Promise.all([directory ? fromDirectory(directory) : [], s3Uri ? fromS3(clients, s3Uri) : []]).then((sources) => sources.flat());
    return loaded;
  };
  return implementTool(searchRunbooksContract, {
    sideEffect: 'read-only',
    iamActions: s3Uri ? ['s3:ListBucket', 's3:GetObject'] : [],
    run: async (input) => {
      if (!directory && !s3Uri) return noData('no runbooks are configured', 'set settings.runbooks.directory or settings.runbooks.s3Uri');
      let runbooks: Runbook[];
      try {
        runbooks = await load();
      } catch (error) {
        loaded = undefined;
        if (isAccessDenied(error)) return noData('the runbooks could not be read', deniedReason('s3:ListBucket and s3:GetObject', error));
        if ((error as { code?: string })?.code === 'ENOENT') return noData('the runbooks folder does not exist', `settings.runbooks.directory is ${directory}`);
        if ((error as { name?: string })?.name === 'NoSuchBucket') return noData('the runbooks bucket does not exist', `settings.runbooks.s3Uri is ${s3Uri}`);
        throw error;
      }
      const matches = rankRunbooks(runbooks, input.query, input.service, input.limit);
      return { summary: `${matches.length} of ${runbooks.length} runbooks matched`, data: { available: true, runbooks: matches } };
    },
  });
};
