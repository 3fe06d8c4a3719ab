import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const lines = linesFrom(START);

/** Five-minute points, 0 until `from` minutes in, then `level`: the reading dates the trouble to the start of its period. */
const fiveMinute = (from: number, level: number): [string, number][] =>
  series(START, 24, (index) => (index * 5 >= from ? level : 0)).map(([, value], index) => [at(START, index * 5), value]);

describe('a change is measured against the first sign of the failure it can produce', () => {
  /** search fails with `message` from minute 63; a metric period opening at minute 60 dates the trouble; the rule on the index changed at minute 62. */
  const timeoutsAfterRuleChange = (message: string) =>
    diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "search-5xx" is in ALARM',
        services: [
          { name: 'web', kind: 'ecs', dependsOn: ['search'] },
          { name: 'search', kind: 'ecs', dependsOn: ['index'] },
          { name: 'index', kind: 'other' },
        ],
        alarms: [{ name: 'search-5xx', service: 'search', state: 'ALARM', since: at(START, 70) }],
        changes: [
          { service: 'index', timestamp: at(START, 62), kind: 'network', summary: 'RevokeSecurityGroupIngress sg-1: removed tcp/443 from 10.0.32.0/20' },
          { service: 'search', timestamp: at(START, 64), kind: 'deploy', summary: 'search 2.1.0: client library upgrade' },
        ],
        metrics: [{ service: 'search', name: 'HTTPCode_Target_5XX_Count', points: fiveMinute(60, 400) }],
        logs: sorted([...lines('search', 0, 5, 12, 'INFO', (index) => `query ${index} answered`), ...lines('search', 63, 2, 20, 'ERROR', () => message)]),
      }),
    );

  it('a security-group revoke inside the period that dated the trouble, before the first connect timeout, explains the timeouts', () => {
    const diagnosis = timeoutsAfterRuleChange("query failed: ConnectionTimeout: Connection to 10.0.40.7:443 timed out (connect timeout=1)");
    expect(diagnosis.root).toBe('index');
    expect(diagnosis.category).toBe('network');
    expect(diagnosis.principles).toEqual(expect.arrayContaining(['change-effect-matches', 'failure-dated-by-its-kind']));
  });

  it('errors a network change cannot produce leave it unblamed, however close it came', () => {
    const diagnosis = timeoutsAfterRuleChange("query failed: TypeError: Cannot read properties of undefined (reading 'hits')");
    expect(diagnosis.root).not.toBe('index');
    expect(diagnosis.principles).not.toContain('failure-dated-by-its-kind');
  });
});

describe('a credential mapped only to what manages it', () => {
  const uploadsRefused = (message: string) =>
    diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "uploader-errors" is in ALARM',
        services: [
          { name: 'rotator', kind: 'lambda', dependsOn: ['uploader-key'] },
          { name: 'uploader-key', kind: 'other' },
          { name: 'uploader', kind: 'ec2', dependsOn: ['exchange'] },
          { name: 'exchange', kind: 's3' },
        ],
        alarms: [{ name: 'uploader-errors', service: 'uploader', state: 'ALARM', since: at(START, 70) }],
        changes: [
          { service: 'exchange', timestamp: at(START, 10), kind: 'iam', summary: 'PutBucketPolicy exchange: grant portal read on outbound/*' },
          { service: 'uploader-key', timestamp: at(START, 55), kind: 'other', summary: 'UpdateAccessKey for IAM user uploader: AKIAOLD -> Inactive' },
        ],
        logs: sorted([...lines('uploader', 0, 5, 12, 'INFO', (index) => `batch ${index} uploaded`), ...lines('uploader', 60, 3, 15, 'ERROR', () => message)]),
      }),
    );

  it('is still the change the refusals of its key point to, over a policy change of the bucket they were sent to', () => {
    const diagnosis = uploadsRefused('upload failed: An error occurred (InvalidAccessKeyId) when calling the PutObject operation: The AWS Access Key Id you provided does not exist in our records.');
    expect(diagnosis.root).toBe('uploader-key');
    expect(diagnosis.category).toBe('permissions');
  });

  it('is not blamed for failures a key cannot cause', () => {
    const diagnosis = uploadsRefused('upload failed: TypeError: Cannot read properties of undefined (reading "etag")');
    expect(diagnosis.root).not.toBe('uploader-key');
  });
});

describe('a change whose kind names no category is the kind of cause it can only be', () => {
  const refusalsAfter = (summary: string) =>
    diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "partner-api-4xx" is in ALARM',
        services: [
          { name: 'partner-api', kind: 'apigateway', dependsOn: ['partner-keys', 'intake'] },
          { name: 'partner-keys', kind: 'other' },
          { name: 'intake', kind: 'lambda' },
        ],
        alarms: [{ name: 'partner-api-4xx', service: 'partner-api', state: 'ALARM', since: at(START, 70) }],
        changes: [{ service: 'partner-keys', timestamp: at(START, 58), kind: 'other', summary }],
        metrics: [{ service: 'partner-api', name: '4XXError', points: series(START, 120, (minute) => (minute >= 60 ? 200 : 4 + (minute % 3))) }],
      }),
    );

  it('deleting the API keys callers present explains a 4XX rise as a permissions cause, undone by a revert', () => {
    const diagnosis = refusalsAfter('DeleteApiKey partner-2025q4 (quarterly key rotation)');
    expect(diagnosis.root).toBe('partner-keys');
    expect(diagnosis.category).toBe('permissions');
    expect(diagnosis.principles).toContain('category-from-change-effect');
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'revert-config', target: 'partner-keys' });
  });

  it('a change that says nothing it could break gives no category of its own', () => {
    const diagnosis = refusalsAfter('renamed stage variable');
    expect(diagnosis.principles).not.toContain('category-from-change-effect');
  });
});

describe('a service failing on a defect of its own code', () => {
  const quoteFails = (ownError: string) =>
    diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "quotes-5xx" is in ALARM',
        services: [
          { name: 'quotes', kind: 'apigateway', dependsOn: ['pricing'] },
          { name: 'pricing', kind: 'lambda', dependsOn: ['fx'] },
          { name: 'fx', kind: 'external' },
        ],
        alarms: [{ name: 'quotes-5xx', service: 'quotes', state: 'ALARM', since: at(START, 70) }],
        changes: [{ service: 'pricing', timestamp: at(START, 58), kind: 'deploy', summary: 'pricing 3.9.0: surcharge for large parcels' }],
        logs: sorted([
          ...lines('pricing', 0, 5, 24, 'INFO', (index) => `quote ${index} priced`),
          ...lines('pricing', 30, 3, 30, 'WARN', (index) => `fx GET /latest took ${1000 + index * 20} ms (cached rate used)`),
          ...lines('pricing', 60, 3, 15, 'ERROR', () => ownError),
        ]),
      }),
    );

  it('is not explained by slow calls to a provider it logged since long before, answered from a cache', () => {
    const diagnosis = quoteFails("TypeError: unsupported operand type(s) for *: 'decimal.Decimal' and 'float'");
    expect(diagnosis.root).toBe('pricing');
    expect(diagnosis.category).toBe('deploy');
    expect(diagnosis.principles).toContain('own-defect-first');
  });

  it('without a defect of its own, the same complaints still point at the provider', () => {
    const diagnosis = quoteFails('fx GET /latest failed: upstream fx returned 503 Service Unavailable');
    expect(diagnosis.root).toBe('fx');
    expect(diagnosis.principles).not.toContain('own-defect-first');
  });
});
