import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { explainingChange } from '../../lib/analyst/explaining-change.ts';
import { capacityBehind, tenantsOf } from '../../lib/analyst/load-source.ts';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom, series, step, type SyntheticEvidence } from './board-builder.ts';

const START = '2026-03-10T14:00:00.000Z';

/**
 * `quote` is a function behind an API that reads a table and calls a scoring service. From minute 90
 * Lambda refuses to invoke it (Throttles), its own concurrency falls and the account's rises to the
 * limit; `ingest`, another function of the account, runs nearly a thousand copies from minute 88.
 */
const starvedQuote = (extra: Partial<SyntheticEvidence> = {}): SyntheticEvidence => ({
  brief: 'CloudWatch alarm "quote-throttles" is in ALARM',
  services: [
    { name: 'quote-gateway', kind: 'apigateway', dependsOn: ['quote'] },
    { name: 'quote', kind: 'lambda', dependsOn: ['tariffs', 'scoring'] },
    { name: 'tariffs', kind: 'dynamodb' },
    { name: 'scoring', kind: 'ecs' },
    { name: 'uploads', kind: 's3', dependsOn: ['ingest'] },
    { name: 'ingest', kind: 'lambda', dependsOn: ['uploads'] },
    ...(extra.services ?? []),
  ],
  alarms: [{ name: 'quote-throttles', service: 'quote', state: 'ALARM', since: at(START, 92) }],
  changes: extra.changes ?? [],
  logs: extra.logs ?? [],
  metrics: [
    { service: 'quote-gateway', name: 'Count', points: series(START, 120, () => 4000) },
    { service: 'quote-gateway', name: '5XXError', points: series(START, 120, step(90, 0, 2800)) },
    { service: 'quote', name: 'Throttles', dimensions: { FunctionName: 'quote' }, points: series(START, 120, step(90, 0, 2800)) },
    { service: 'quote', name: 'Invocations', dimensions: { FunctionName: 'quote' }, points: series(START, 120, step(90, 4000, 1300)) },
    { service: 'quote', name: 'ConcurrentExecutions', dimensions: { FunctionName: 'quote' }, points: series(START, 120, step(90, 30, 10)) },
    // Published without FunctionName: every function of the account together, filed under the function it was read for.
    { service: 'quote', name: 'ConcurrentExecutions', namespace: 'AWS/Lambda', dimensions: {}, points: series(START, 120, step(89, 110, 1000)) },
    // The table is read less because its reader is refused: a drop, not a fault.
    { service: 'tariffs', name: 'ConsumedReadCapacityUnits', points: series(START, 120, step(90, 16000, 5700)) },
    { service: 'ingest', name: 'ConcurrentExecutions', dimensions: { FunctionName: 'ingest' }, points: series(START, 120, step(88, 4, 920)) },
    ...(extra.metrics ?? []),
  ],
});

describe('a function Lambda refuses to invoke lacks concurrency', () => {
  it('no table it calls gives it any: the co-tenant that took the account\'s pool is the cause', () => {
    const diagnosis = diagnose(boardFrom(starvedQuote()));
    expect(diagnosis.draft.rootCause.service).toBe('ingest');
    expect(diagnosis.draft.rootCause.summary).toMatch(/unreserved pool/);
  });

  it('a change at a service it calls, just before, does not explain refusals that come before its code runs', () => {
    const diagnosis = diagnose(
      boardFrom(
        starvedQuote({
          changes: [{ service: 'scoring', timestamp: at(START, 72), kind: 'config', summary: 'model v7 promoted to production (feature cache reload)' }],
          logs: [
            ...[74, 78, 82].map((minute) => ({ service: 'scoring', timestamp: at(START, minute), level: 'WARN', message: `score request took ${900 + minute}ms: model cache reload in progress` })),
            ...[75, 77, 79, 83].map((minute) => ({ service: 'quote', timestamp: at(START, minute), level: 'WARN', message: `scoring /v1/score slow: ${950 + minute}ms` })),
          ],
          metrics: [
            { service: 'scoring', name: 'TargetResponseTime', points: series(START, 120, (minute) => (minute >= 73 && minute < 85 ? 1.1 : 0.15)) },
            { service: 'quote', name: 'Duration', dimensions: { FunctionName: 'quote' }, points: series(START, 120, (minute) => (minute >= 74 && minute < 85 ? 1200 : 390)) },
          ],
        }),
      ),
    );
    expect(diagnosis.draft.rootCause.service).toBe('ingest');
  });

  it('work launched on the bucket that feeds a function (a batch copy) runs in that function, which holds the concurrency', () => {
    const diagnosis = diagnose(
      boardFrom(
        starvedQuote({
          changes: [{ service: 'uploads', timestamp: at(START, 87), kind: 'other', summary: 'S3 Batch Operations CreateJob: Copy 180,000 objects into uploads/backfill/' }],
          metrics: [{ service: 'uploads', name: 'PutRequests', points: series(START, 120, step(87, 40, 11000)) }],
        }),
      ),
    );
    expect(diagnosis.draft.rootCause.service).toBe('ingest');
    expect(diagnosis.draft.rootCause.summary).toMatch(/Batch Operations/);
  });

  it('a fault it recovered from before it was refused is not why: the function that reserved the pool away is', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "label-failures" is in ALARM',
        services: [
          { name: 'shipping', kind: 'ecs', dependsOn: ['rates', 'labels'] },
          { name: 'rates', kind: 'lambda', dependsOn: ['carrier'] },
          { name: 'labels', kind: 'lambda' },
          { name: 'carrier', kind: 'external' },
          { name: 'manifests', kind: 'lambda' },
        ],
        alarms: [{ name: 'label-failures', service: 'shipping', state: 'ALARM', since: at(START, 96) }],
        changes: [
          { service: 'rates', timestamp: at(START, 29), kind: 'network', summary: 'UpdateFunctionConfiguration rates: VpcConfig subnets moved to the new egress subnets' },
          {
            service: 'manifests',
            timestamp: at(START, 92),
            kind: 'config',
            summary: 'PutFunctionConcurrency manifests',
            details: { requestParameters: { functionName: 'manifests', reservedConcurrentExecutions: 800 }, previousValue: 50 },
          },
        ],
        logs: [
          ...[31, 33, 35].map((minute) => ({ service: 'rates', timestamp: at(START, minute), level: 'ERROR', message: 'carrier call failed: connect ETIMEDOUT 203.0.113.7:443' })),
          ...[50, 60, 70, 80].map((minute) => ({ service: 'rates', timestamp: at(START, minute), level: 'INFO', message: 'quoted shipment in 410ms' })),
        ],
        metrics: [
          { service: 'shipping', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, step(94, 1, 3700)) },
          { service: 'rates', name: 'Errors', dimensions: { FunctionName: 'rates' }, points: series(START, 120, (minute) => (minute >= 30 && minute < 40 ? 7 : 0)) },
          { service: 'rates', name: 'Throttles', dimensions: { FunctionName: 'rates' }, points: series(START, 120, step(95, 0, 1300)) },
          { service: 'labels', name: 'Throttles', dimensions: { FunctionName: 'labels' }, points: series(START, 120, step(94, 0, 11000)) },
          { service: 'labels', name: 'ConcurrentExecutions', dimensions: { FunctionName: 'labels' }, points: series(START, 120, step(94, 160, 70)) },
          { service: 'labels', name: 'UnreservedConcurrentExecutions', dimensions: {}, points: series(START, 120, step(94, 200, 100)) },
          { service: 'manifests', name: 'ConcurrentExecutions', dimensions: { FunctionName: 'manifests' }, points: series(START, 120, (minute) => (minute < 80 ? 26 : minute < 94 ? 50 : 210)) },
        ],
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('manifests');
    expect(diagnosis.draft.rootCause.category).toBe('config');
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'revert-config', target: 'manifests' });
  });

  it('one whose own concurrency rose to its limit after its own change is not starved by others: that change explains it', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "extractor-throttles" is in ALARM',
        services: [
          { name: 'documents', kind: 'sqs', dependsOn: ['extractor'] },
          { name: 'extractor', kind: 'lambda', dependsOn: ['claims-store'] },
          { name: 'claims-store', kind: 'rds' },
          { name: 'notifier', kind: 'lambda', dependsOn: ['claims-store'] },
        ],
        alarms: [{ name: 'extractor-throttles', service: 'extractor', state: 'ALARM', since: at(START, 100) }],
        changes: [{ service: 'extractor', timestamp: at(START, 78), kind: 'config', summary: 'UpdateFunctionConfiguration extractor (terraform apply: rightsize memory per Compute Optimizer findings)' }],
        metrics: [
          { service: 'extractor', name: 'Duration', dimensions: { FunctionName: 'extractor' }, points: series(START, 120, step(80, 8700, 28000)) },
          { service: 'extractor', name: 'ConcurrentExecutions', dimensions: { FunctionName: 'extractor' }, points: series(START, 120, (minute) => (minute < 80 ? 18 : Math.min(40, 18 + (minute - 80) * 2))) },
          { service: 'extractor', name: 'Throttles', dimensions: { FunctionName: 'extractor' }, points: series(START, 120, step(96, 0, 300)) },
          { service: 'extractor', name: 'Invocations', dimensions: { FunctionName: 'extractor' }, points: series(START, 120, () => 480) },
          { service: 'notifier', name: 'ConcurrentExecutions', dimensions: { FunctionName: 'notifier' }, points: series(START, 120, () => 5) },
        ],
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('extractor');
    expect(diagnosis.draft.rootCause.category).toBe('config');
  });
});

describe('what a function Lambda refuses to invoke is short of', () => {
  const T0 = Date.parse(START);
  const minutes = (minute: number) => T0 + minute * 60_000;
  const refused = (dependsOn: string[], kinds: Record<string, string>) =>
    boardFrom({
      services: [{ name: 'quote', kind: 'lambda', dependsOn }, ...Object.entries(kinds).map(([name, kind]) => ({ name, kind }))],
      metrics: [
        { service: 'quote', name: 'Throttles', dimensions: { FunctionName: 'quote' }, points: series(START, 120, step(90, 0, 2800)) },
        { service: 'quote', name: 'Invocations', dimensions: { FunctionName: 'quote' }, points: series(START, 120, step(90, 4000, 1300)) },
      ],
    });

  it('is no capacity of a table it calls, but may be the queue that brings it work', () => {
    const table = refused(['tariffs'], { tariffs: 'dynamodb' });
    expect(capacityBehind(table, 'quote', collectSignals(table))).toBeUndefined();
    const queue = refused(['jobs'], { jobs: 'sqs' });
    expect(capacityBehind(queue, 'quote', collectSignals(queue))).toBe('jobs');
  });

  it('is the account\'s concurrency, shared with its other functions, though it failed on its own earlier and recovered', () => {
    const board = boardFrom({
      services: [
        { name: 'rates', kind: 'lambda', dependsOn: ['carrier'] },
        { name: 'carrier', kind: 'external' },
        { name: 'labels', kind: 'lambda' },
      ],
      logs: [31, 33, 35].map((minute) => ({ service: 'rates', timestamp: at(START, minute), level: 'ERROR', message: 'carrier call failed: connect ETIMEDOUT 203.0.113.7:443' })),
      metrics: [
        { service: 'rates', name: 'Errors', dimensions: { FunctionName: 'rates' }, points: series(START, 120, (minute) => (minute >= 30 && minute < 40 ? 7 : 0)) },
        { service: 'rates', name: 'Throttles', dimensions: { FunctionName: 'rates' }, points: series(START, 120, step(95, 0, 1300)) },
      ],
    });
    const signals = collectSignals(board);
    expect(tenantsOf(board, 'rates', signals.filter((signal) => signal.service === 'rates'))).toEqual({ tenants: ['labels'], coTenants: true });
  });

  it('is not given by a service it calls: a change there explains nothing of it', () => {
    const board = boardFrom({
      services: [
        { name: 'quote', kind: 'lambda', dependsOn: ['scoring'] },
        { name: 'scoring', kind: 'ecs' },
      ],
      changes: [{ service: 'scoring', timestamp: at(START, 85), kind: 'deploy', summary: 'scoring v7 rolled out' }],
    });
    const context = (rootRefusedInvocations: boolean) => ({
      services: board.services!,
      changes: board.changes,
      chain: ['quote'],
      root: 'quote',
      rootOnset: minutes(90),
      onsetOf: () => minutes(90),
      usedOnPath: ['scoring'],
      failing: ['quote'],
      evidenceCategories: new Set(['deploy']),
      evidenceKinds: new Set<string>(),
      evidence: [],
      rootStarved: false,
      rootRefusedInvocations,
      starvedOfQuota: [],
      rootReportsOutage: false,
      callersStarvedByRoot: [],
      shownAt: (change: { at: number }) => change.at,
    });
    expect(explainingChange(context(false))?.link).toBe('scoring');
    expect(explainingChange(context(true))).toBeUndefined();
  });
});
