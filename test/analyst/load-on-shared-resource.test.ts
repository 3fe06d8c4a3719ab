import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { inferCause } from '../../lib/analyst/infer-cause.ts';
import { at, boardFrom, series, step } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

type ChangeRecord = { service: string; timestamp: string; kind: string; summary: string };

/** A table throttled from minute 90 while a job that was silent writes to it from minute 85; `changes` made before. */
const importSwampsTable = (changes: ChangeRecord[] = []) =>
  boardFrom({
    brief: 'CloudWatch alarm "api-5xx" is in ALARM',
    services: [{ name: 'api', kind: 'ecs', dependsOn: ['table'] }, { name: 'import-job', kind: 'lambda', dependsOn: ['table'] }, { name: 'table', kind: 'dynamodb' }],
    alarms: [{ name: 'api-5xx', service: 'api', state: 'ALARM', since: at(START, 95) }],
    changes,
    metrics: [
      { service: 'table', name: 'ReadThrottleEvents', points: series(START, 120, step(90, 0, 500)) },
      { service: 'table', name: 'ConsumedWriteCapacityUnits', points: series(START, 120, step(86, 800, 9000)) },
    ],
    logs: [
      ...Array.from({ length: 20 }, (_, index) => ({ service: 'api', timestamp: at(START, index * 6), level: 'INFO', message: `GET /items/${index} 200` })),
      ...Array.from({ length: 6 }, (_, index) => ({ service: 'import-job', timestamp: at(START, 85 + index * 5), level: 'INFO', message: `wrote ${(index + 1) * 50000} items to table` })),
      ...Array.from({ length: 8 }, (_, index) => ({ service: 'api', timestamp: at(START, 91 + index * 3), level: 'ERROR', message: 'GetItem table failed: ProvisionedThroughputExceededException, retrying' })),
    ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
  });

describe('who generates the load on a shared resource', () => {
  it('a job that was silent and started just before the load rose is its source, and is slowed down, not scaled', () => {
    const diagnosis = diagnose(importSwampsTable());
    expect(diagnosis.draft.rootCause.service).toBe('import-job');
    expect(diagnosis.draft.rootCause.category).toBe('traffic');
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'limit-traffic', target: 'import-job' });
    // How the loaded resource gives way is named from its own evidence.
    expect(diagnosis.draft.rootCause.summary).toMatch(/Under that load: table is throttled/);
  });

  it('a function whose invocations begin well after the resource\'s series, just before the load rose, started that load though its logs were not read', () => {
    const shape = (invokedFrom: number, release?: { service: string; timestamp: string; kind: string; summary: string }) =>
      boardFrom({
        changes: release ? [release] : [],
        brief: 'CloudWatch alarm "api-5xx" is in ALARM',
        services: [{ name: 'api', kind: 'ecs', dependsOn: ['table'] }, { name: 'report-fn', kind: 'lambda', dependsOn: ['table'] }, { name: 'table', kind: 'dynamodb' }],
        alarms: [{ name: 'api-5xx', service: 'api', state: 'ALARM', since: at(START, 95) }],
        metrics: [
          { service: 'table', name: 'ReadThrottleEvents', points: series(START, 120, step(90, 0, 500)) },
          { service: 'table', name: 'ConsumedReadCapacityUnits', points: series(START, 120, step(86, 800, 9000)) },
          { service: 'report-fn', name: 'Invocations', points: series(START, 120, () => 400).filter((_, minute) => minute >= invokedFrom) },
        ],
        logs: [
          ...Array.from({ length: 20 }, (_, index) => ({ service: 'api', timestamp: at(START, index * 6), level: 'INFO', message: `GET /items/${index} 200` })),
          ...Array.from({ length: 8 }, (_, index) => ({ service: 'api', timestamp: at(START, 91 + index * 3), level: 'ERROR', message: 'GetItem table failed: ProvisionedThroughputExceededException, retrying' })),
          ...Array.from({ length: 4 }, (_, index) => ({ service: 'report-fn', timestamp: at(START, 100 + index * 4), level: 'ERROR', message: 'Query table failed: ProvisionedThroughputExceededException' })),
        ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
      });
    const started = inferCause(shape(84));
    expect(started).toMatchObject({ verdict: 'incident', root: 'report-fn' });
    // The release that created it just before it started is what is undone.
    const released = inferCause(shape(84, { service: 'report-fn', timestamp: at(START, 80), kind: 'deploy', summary: 'New function report-fn created' }));
    expect(released).toMatchObject({ root: 'report-fn', suspectChange: { summary: 'New function report-fn created' } });
    expect(started.verdict === 'incident' && started.principles).toContain('work-launched-is-load');
    // Invoked all along, its demand is no job that started.
    const steady = inferCause(shape(0));
    expect(steady.verdict === 'incident' && steady.principles).not.toContain('work-launched-is-load');
  });

  it('a container service whose utilization is published from just before the load rose started that load, though its logs were not read', () => {
    const shape = (runningFrom: number) =>
      boardFrom({
        brief: 'CloudWatch alarm "payouts-failures" is in ALARM',
        services: [{ name: 'payouts', kind: 'ecs', dependsOn: ['egress-nat'] }, { name: 'backfill', kind: 'ecs', dependsOn: ['egress-nat'] }, { name: 'egress-nat', kind: 'other' }],
        alarms: [{ name: 'payouts-failures', service: 'payouts', state: 'ALARM', since: at(START, 95) }],
        metrics: [
          { service: 'egress-nat', name: 'ErrorPortAllocation', points: series(START, 120, step(90, 0, 4000)) },
          { service: 'backfill', name: 'CPUUtilization', points: series(START, 120, () => 45).filter((_, minute) => minute >= runningFrom) },
        ],
        logs: [
          ...Array.from({ length: 20 }, (_, index) => ({ service: 'payouts', timestamp: at(START, index * 6), level: 'INFO', message: `transfer ${index} sent` })),
          ...Array.from({ length: 8 }, (_, index) => ({ service: 'payouts', timestamp: at(START, 91 + index * 3), level: 'ERROR', message: `transfer ${100 + index} failed: connect ETIMEDOUT 52.20.114.37:443` })),
        ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
      });
    expect(inferCause(shape(88))).toMatchObject({ verdict: 'incident', root: 'backfill' });
    // Running all along, it is no job that started.
    expect(inferCause(shape(0))).not.toMatchObject({ root: 'backfill' });
  });

  it('a client scaled out by hand just before a shared resource ran out runs that load; a policy scaling it out answers load', () => {
    const shape = (scaling: string) =>
      boardFrom({
        brief: 'CloudWatch alarm "payouts-failures" is in ALARM',
        services: [{ name: 'payouts', kind: 'ecs', dependsOn: ['egress-nat'] }, { name: 'label-sync', kind: 'ecs', dependsOn: ['egress-nat'] }, { name: 'egress-nat', kind: 'other' }],
        alarms: [{ name: 'payouts-failures', service: 'payouts', state: 'ALARM', since: at(START, 95) }],
        changes: [{ service: 'label-sync', timestamp: at(START, 86), kind: 'scaling', summary: scaling }],
        metrics: [
          { service: 'egress-nat', name: 'ErrorPortAllocation', points: series(START, 120, step(90, 0, 4000)) },
          { service: 'label-sync', name: 'CPUUtilization', points: series(START, 120, () => 45) },
        ],
        logs: [
          ...Array.from({ length: 20 }, (_, index) => ({ service: 'payouts', timestamp: at(START, index * 6), level: 'INFO', message: `transfer ${index} sent` })),
          ...Array.from({ length: 20 }, (_, index) => ({ service: 'label-sync', timestamp: at(START, index * 6 + 1), level: 'INFO', message: `synced labels page ${index}` })),
          ...Array.from({ length: 8 }, (_, index) => ({ service: 'payouts', timestamp: at(START, 91 + index * 3), level: 'ERROR', message: `transfer ${100 + index} failed: connect ETIMEDOUT 52.20.114.37:443` })),
        ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
      });
    expect(inferCause(shape('desired count 2 -> 12 (manual, ahead of the evening peak)'))).toMatchObject({ verdict: 'incident', root: 'label-sync' });
    expect(inferCause(shape('desired count 2 -> 12 (target tracking policy cpu-60)'))).not.toMatchObject({ root: 'label-sync' });
    expect(inferCause(shape('Application Auto Scaling: desired count changed from 2 to 12'))).not.toMatchObject({ root: 'label-sync' });
    expect(inferCause(shape('desired count 12 -> 2 (manual, after the evening peak)'))).not.toMatchObject({ root: 'label-sync' });
  });

  it('a client throttled by the resource its own load swamps is not throttled by a limit of its own: the resource throttles it, and its demand says by how much', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "api-errors" is in ALARM',
        services: [{ name: 'api', kind: 'lambda', dependsOn: ['params'] }, { name: 'load-fleet', kind: 'ecs', dependsOn: ['params'] }, { name: 'params', kind: 'other' }],
        alarms: [{ name: 'api-errors', service: 'api', state: 'ALARM', since: at(START, 95) }],
        changes: [{ service: 'load-fleet', timestamp: at(START, 88), kind: 'scaling', summary: 'UpdateService load-fleet desiredCount 0 -> 300 (load test)' }],
        metrics: [
          { service: 'params', name: 'CallCount', points: series(START, 120, step(89, 200, 2300)) },
          { service: 'api', name: 'Errors', points: series(START, 120, step(91, 0, 250)) },
        ],
        logs: [
          ...Array.from({ length: 20 }, (_, index) => ({ service: 'api', timestamp: at(START, index * 4), level: 'INFO', message: `assigned order ${index}` })),
          ...Array.from({ length: 8 }, (_, index) => ({ service: 'load-fleet', timestamp: at(START, 90 + index * 3), level: 'WARN', message: `sim ${index}: config refresh ThrottlingException: Rate exceeded, backing off 200ms` })),
          ...Array.from({ length: 8 }, (_, index) => ({ service: 'api', timestamp: at(START, 92 + index * 3), level: 'ERROR', message: 'config unavailable (ThrottlingException: Rate exceeded), returning 503' })),
        ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('load-fleet');
    expect(diagnosis.draft.rootCause.summary).toMatch(/load-fleet sends params more than its capacity or rate limit takes, so params throttles the requests of load-fleet and of its other clients\. Its demand rose: CallCount at params went up/);
    expect(diagnosis.draft.rootCause.summary).not.toMatch(/load-fleet is throttled/);
  });

  it('a schedule created just before the load rose launches its target\'s runs: the target is the load, not a client released earlier', () => {
    const board = (scheduleSummary: string) =>
      boardFrom({
        brief: 'PagerDuty event: portal errors',
        services: [{ name: 'portal', kind: 'ecs', dependsOn: ['patients'] }, { name: 'digest', kind: 'lambda', dependsOn: ['patients'] }, { name: 'patients', kind: 'dynamodb' }],
        alarms: [{ name: 'patients-read-throttles', service: 'patients', state: 'ALARM', since: at(START, 92) }],
        changes: [
          { service: 'portal', timestamp: at(START, 60), kind: 'deploy', summary: 'portal 2.31.0 rolled out' },
          { service: 'digest', timestamp: at(START, 83), kind: 'other', summary: scheduleSummary },
        ],
        metrics: [{ service: 'patients', name: 'ReadThrottleEvents', points: series(START, 120, step(90, 0, 400)) }],
        logs: [
          ...Array.from({ length: 20 }, (_, index) => ({ service: 'portal', timestamp: at(START, index * 6), level: 'INFO', message: `GET /clinics/${index} 200` })),
          ...Array.from({ length: 12 }, (_, index) => ({ service: 'digest', timestamp: at(START, index * 10), level: 'INFO', message: `digest heartbeat ${index}` })),
          ...Array.from({ length: 8 }, (_, index) => ({ service: 'portal', timestamp: at(START, 91 + index * 3), level: 'ERROR', message: 'BatchGetItem patients: ProvisionedThroughputExceededException' })),
        ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
      });
    expect(diagnose(board('CreateSchedule reminders-15m rate(15 minutes) target digest, state ENABLED')).draft.rootCause.service).toBe('digest');
    expect(diagnose(board('UpdateFunctionConfiguration digest: memory 512 -> 1024')).draft.rootCause.service).not.toBe('digest');
  });

  it('a job that starts after the demand rose but before the resource ran out is the load, not the client whose ordinary traffic rose earlier', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "table-write-throttles" is in ALARM',
        services: [{ name: 'api', kind: 'ecs', dependsOn: ['table'] }, { name: 'import-worker', kind: 'ecs', dependsOn: ['table'] }, { name: 'table', kind: 'dynamodb' }],
        alarms: [{ name: 'table-write-throttles', service: 'table', state: 'ALARM', since: at(START, 92) }],
        metrics: [
          { service: 'api', name: 'RequestCount', points: series(START, 120, step(70, 1000, 2100)) },
          { service: 'table', name: 'ConsumedWriteCapacityUnits', points: series(START, 120, (minute) => (minute < 70 ? 2000 : minute < 90 ? 3800 : 6400)) },
          { service: 'table', name: 'WriteThrottleEvents', points: series(START, 120, step(90, 0, 3000)) },
        ],
        logs: [
          ...Array.from({ length: 20 }, (_, index) => ({ service: 'api', timestamp: at(START, index * 6), level: 'INFO', message: `PUT /entries/${index} 200` })),
          ...Array.from({ length: 6 }, (_, index) => ({ service: 'import-worker', timestamp: at(START, 82 + index * 5), level: 'INFO', message: `import job IMP-7 progress ${(index + 1) * 5000} rows` })),
          ...Array.from({ length: 8 }, (_, index) => ({ service: 'api', timestamp: at(START, 91 + index * 3), level: 'ERROR', message: 'PUT /entries failed: ProvisionedThroughputExceededException' })),
        ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('import-worker');
  });

  it('a lagging replica sends the search for the load to its source and the writers on it', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "replica-lag" is in ALARM',
        services: [
          { name: 'reader', kind: 'ecs', dependsOn: ['replica'] },
          { name: 'replica', kind: 'rds', dependsOn: ['primary'] },
          { name: 'primary', kind: 'rds' },
          { name: 'writer', kind: 'ecs', dependsOn: ['primary'] },
          { name: 'web', kind: 'ecs', dependsOn: ['primary'] },
        ],
        alarms: [{ name: 'replica-lag', service: 'replica', state: 'ALARM', since: at(START, 100) }],
        metrics: [
          { service: 'replica', name: 'ReplicaLag', points: series(START, 120, (minute) => (minute < 92 ? 0.5 : (minute - 92) * 30)) },
          { service: 'writer', name: 'RowsInsertedCount', points: series(START, 120, step(88, 0, 90000)) },
          { service: 'web', name: 'CPUUtilization', points: series(START, 120, () => 20) },
        ],
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('writer');
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'limit-traffic', target: 'writer' });
  });
});

describe('a release whose work swamps a shared resource', () => {
  const released = (summary: string) => diagnose(importSwampsTable([{ service: 'import-job', timestamp: at(START, 70), kind: 'deploy', summary }]));

  it('is rolled back when there is a version before it', () => {
    const diagnosis = released('import-job 4.2.0 rolled out (task definition import-job:41 -> import-job:42)');
    expect(diagnosis.draft.rootCause.service).toBe('import-job');
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'rollback', target: 'import-job' });
  });

  it('is paused when the release brought the work into being: there is no version before it', () => {
    const diagnosis = released('import-job 1.0.0: first release of the nightly import');
    expect(diagnosis.draft.rootCause.service).toBe('import-job');
    expect(diagnosis.draft.remediation.map((step) => step.action)).toEqual(['limit-traffic', 'apply-fix']);
  });
});
