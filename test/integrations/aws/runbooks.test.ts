import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../../integrations/aws/clients.ts';
import type { ServiceCatalog } from '../../../integrations/aws/catalog.ts';
import { scenarioEmulations } from '../../../integrations/aws/emulation/index.ts';
import { parseRunbook } from '../../../integrations/aws/runbooks/runbook-markdown.ts';
import { searchRunbooks } from '../../../integrations/aws/runbooks/search-runbooks.ts';
import { awsToolSettings } from '../../../integrations/aws/settings.ts';
import { scenarioTools } from '../../../integrations/scenario/index.ts';
import { RecordedEnvironment } from '../../../integrations/scenario/recorded-environment.ts';
import type { Scenario } from '../../../lib/domain/scenario.ts';
import { Toolbox } from '../../../lib/tools/toolbox.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../../local/scenario-files.ts';

const s3 = mockClient(S3Client);
const now = new Date('2026-04-06T04:10:00Z');
const projectRunbooks = fileURLToPath(new URL('../../../runbooks/', import.meta.url));
const noCatalog: ServiceCatalog = { services: async () => [], serviceOfArn: async () => undefined, serviceOfDimensions: async () => undefined, serviceOfLogGroup: async () => undefined };

const search = async (settings: Record<string, unknown>, args: Record<string, unknown>, clients = new AwsClients('us-east-1', { kind: 'live' })) => {
  const box = new Toolbox([searchRunbooks({ clients, catalog: noCatalog, settings: awsToolSettings.parse({ runbooks: settings }) })]);
  const outcome = await box.execute({ id: 'c', name: 'search_runbooks', arguments: args }, { now });
  if (!outcome.ok) throw new Error(outcome.error);
  return { summary: outcome.summary, data: outcome.data as Record<string, any> };
};

/** A response body as the SDK hands it over: a stream with readers mixed in. */
const body = (text: string) => ({ transformToString: async () => text });

describe('search_runbooks', () => {
  afterEach(() => s3.reset());

  it('reads the project runbooks folder and matches an error message to its runbook', async () => {
    const { data } = await search({ directory: projectRunbooks }, { query: 'FATAL: remaining connection slots are reserved for superuser', limit: 2 });
    expect(data.runbooks[0]).toMatchObject({ id: 'db-connection-pool-exhausted', title: 'Database connection pool exhausted' });
    expect(data.runbooks[0].steps).toHaveLength(5);
    const throttled = await search({ directory: projectRunbooks }, { query: 'TooManyRequestsException: Rate Exceeded' });
    expect(throttled.data.runbooks.map((book: { id: string }) => book.id)).toEqual(['lambda-throttling']);
  });

  it('lists every page of an S3 prefix and reads each runbook', async () => {
    s3.on(ListObjectsV2Command, { ContinuationToken: undefined })
      .resolves({ IsTruncated: true, NextContinuationToken: 't2', Contents: [{ Key: 'ops/runbooks/README.md' }, { Key: 'ops/runbooks/cache/redis-full.md' }] })
      .on(ListObjectsV2Command, { ContinuationToken: 't2' })
      .resolves({ IsTruncated: false, Contents: [{ Key: 'ops/runbooks/notes.txt' }] });
    s3.on(GetObjectCommand, { Key: 'ops/runbooks/cache/redis-full.md' }).resolves({
      Body: body('# Redis out of memory\n\nservice: api-edge\nmatch: OOM command not allowed, used_memory\n\n## Steps\n- Check evictions\n- Raise maxmemory\n') as never,
    });
    const { data } = await search({ s3Uri: 's3://acme-ops/ops/runbooks/' }, { query: 'OOM command not allowed when used memory > maxmemory', service: 'api-edge' });
    expect(s3.commandCalls(ListObjectsV2Command)).toHaveLength(2);
    expect(s3.commandCalls(GetObjectCommand)).toHaveLength(1);
    expect(data.runbooks).toEqual([
      { id: 'cache/redis-full', title: 'Redis out of memory', service: 'api-edge', match: ['OOM command not allowed', 'used_memory'], steps: ['Check evictions', 'Raise maxmemory'], score: 11 },
    ]);
  });

  it('reports a denied listing naming the actions, and no data when nothing is configured', async () => {
    s3.on(ListObjectsV2Command).rejects(Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }));
    const denied = await search({ s3Uri: 's3://acme-ops/runbooks/' }, { query: 'anything' });
    expect(denied.data).toEqual({ available: false, reason: expect.stringMatching(/s3:ListBucket/) });
    const none = await search({}, { query: 'anything' });
    expect(none.data).toEqual({ available: false, reason: expect.stringMatching(/settings.runbooks/) });
  });
});

describe('runbook markdown', () => {
  it('takes headings as match phrases and every list item as a step when there is no front matter or steps heading', () => {
    expect(parseRunbook('# Disk full\n\n## EBS volume at 100%\n\n* Extend the volume\n* Resize the filesystem\n', 'storage/disk-full')).toEqual({
      id: 'storage/disk-full',
      title: 'Disk full',
      match: ['EBS volume at 100%'],
      steps: ['Extend the volume', 'Resize the filesystem'],
    });
  });
});

const scenariosIn = (directory: string): Scenario[] =>
  readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => parseScenarioText(readFileSync(join(directory, file), 'utf8'), file));

describe('search_runbooks through the S3 emulation matches the replay tool', () => {
  beforeAll(() => s3.restore());
  for (const scenario of [...scenariosIn(BUNDLED_SCENARIOS_DIR), ...scenariosIn(join(BUNDLED_SCENARIOS_DIR, 'holdout'))].filter((scenario) => scenario.environment.runbooks)) {
    it(scenario.id, async () => {
      const at = new Date(scenario.now);
      const clients = new AwsClients('us-east-1', { kind: 'emulated', environment: new RecordedEnvironment(scenario.environment, at), emulations: scenarioEmulations });
      const replay = new Toolbox(scenarioTools(scenario.environment, at));
      for (const book of scenario.environment.runbooks ?? []) {
        const args = { query: `${book.title} ${(book.match ?? []).slice(0, 1).join(' ')}`, ...(book.service ? { service: book.service } : {}), limit: 5 };
        const aws = await search({ s3Uri: 's3://team-runbooks/runbooks/' }, args, clients);
        const replayed = await replay.execute({ id: 'c', name: 'search_runbooks', arguments: args }, { now: at });
        expect(aws.data).toEqual(replayed.ok ? replayed.data : undefined);
      }
    });
  }
});
