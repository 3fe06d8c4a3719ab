import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-04-22T12:00:00.000Z';
const lines = linesFrom(START);

/**
 * A Step Functions workflow whose fetch step calls a document service: from minute 50 its
 * executions fail with States.DataLimitExceeded. The document service shipped a release at minute
 * 46; `bytesAfter` is what its balancer processes a minute from then on (40 000 before). The
 * workflow's own definition changed at minute 5 (a retry count).
 */
const dataLimit = (bytesAfter: number) =>
  boardFrom({
    brief: 'CloudWatch alarm "workflow-executions-failed" is in ALARM',
    services: [
      { name: 'application-workflow', kind: 'other', dependsOn: ['fetch-documents-fn'] },
      { name: 'fetch-documents-fn', kind: 'lambda', dependsOn: ['docintel-api'] },
      { name: 'docintel-api', kind: 'ecs' },
    ],
    alarms: [{ name: 'workflow-executions-failed', service: 'application-workflow', state: 'ALARM', since: at(START, 55) }],
    changes: [
      { service: 'application-workflow', timestamp: at(START, 5), kind: 'config', summary: 'State machine definition updated: CreditCheck retry MaxAttempts 3 -> 5' },
      { service: 'docintel-api', timestamp: at(START, 46), kind: 'deploy', summary: 'docintel-api 3.0.0 deployed', details: { changelog: ['Extraction responses include the full extracted text inline'] } },
    ],
    metrics: [
      { service: 'application-workflow', name: 'ExecutionsFailed', points: series(START, 80, (minute) => (minute < 50 ? 0 : 8)) },
      { service: 'docintel-api', name: 'ProcessedBytes', points: series(START, 80, (minute) => (minute < 47 ? 40_000 : bytesAfter)) },
    ],
    logs: sorted([
      ...lines('fetch-documents-fn', 0, 4, 20, 'INFO', (index) => `extractions fetched application=APP-${index} documents=5`),
      ...lines('application-workflow', 50, 2, 12, 'ERROR', (index) =>
        `{"type":"ExecutionFailed","details":{"cause":"The state/task 'fetch-documents-fn' returned a result with a size exceeding the maximum number of bytes service limit.","error":"States.DataLimitExceeded"},"execution":"APP-${index}"}`,
      ),
    ]),
  });

const plan = (draft: ReturnType<typeof diagnose>['draft']) => draft.remediation.map(({ action, target }) => `${action} ${target}`);

describe('a payload refused for its size', () => {
  it('is blamed on the service along the calls whose output grew, with its release, and the step that passes it on passes a reference', () => {
    const diagnosis = diagnose(dataLimit(400_000));
    expect(diagnosis.root).toBe('docintel-api');
    expect(diagnosis.principles).toContain('payload-outgrew-limit');
    expect(diagnosis.suspectChange?.summary).toBe('docintel-api 3.0.0 deployed');
    expect(diagnosis.draft.rootCause.summary).toContain('refuses it (size exceeding the maximum');
    expect(plan(diagnosis.draft)).toEqual(['rollback docintel-api', 'apply-fix fetch-documents-fn']);
  });

  it('is not blamed on a service whose output stayed about the same size', () => {
    const diagnosis = diagnose(dataLimit(50_000));
    expect(diagnosis.root).not.toBe('docintel-api');
    expect(diagnosis.principles).not.toContain('payload-outgrew-limit');
  });

  it('is not blamed on a queue whose message size grew: a queue carries what its producer gives it', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "print-outbox-depth" is in ALARM',
        services: [
          { name: 'order-service', kind: 'ecs', dependsOn: ['print-jobs-queue'] },
          { name: 'print-jobs-queue', kind: 'sqs' },
        ],
        alarms: [{ name: 'print-outbox-depth', service: 'order-service', state: 'ALARM', since: at(START, 55) }],
        changes: [{ service: 'order-service', timestamp: at(START, 46), kind: 'deploy', summary: 'order-service v3.12.0 rolled out' }],
        metrics: [{ service: 'print-jobs-queue', name: 'SentMessageSize', points: series(START, 80, (minute) => (minute < 47 ? 10_000 : 200_000)) }],
        logs: sorted([
          ...lines('order-service', 0, 4, 20, 'INFO', (index) => `order ORD-${index} queued for print`),
          ...lines('order-service', 50, 2, 12, 'ERROR', (index) => `send print job ORD-9${index} failed: InvalidParameterValue: Message must be shorter than 262144 bytes.`),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('order-service');
    expect(diagnosis.principles).not.toContain('payload-outgrew-limit');
  });
});
