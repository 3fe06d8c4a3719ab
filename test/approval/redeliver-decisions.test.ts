import { SendTaskFailureCommand, SendTaskSuccessCommand, SFNClient, SFNServiceException, TaskTimedOut } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { decideApproval, redeliverDecisions } from '../../lib/approval/decide.ts';
import { SfnTaskCallbacks } from '../../lib/approval/sfn-task-callbacks.ts';
import type { Approval } from '../../lib/domain/approval.ts';
import { DynamoDbApprovalStore } from '../../lib/store/dynamodb-approval-store.ts';
import { freshStore } from '../support/dynamodb.ts';

const sfn = mockClient(SFNClient);
const unavailable = () => new SFNServiceException({ name: 'ServiceUnavailable', $fault: 'server', $metadata: { httpStatusCode: 503 }, message: 'Service Unavailable' });

const pending = (id: string): Approval => {
  const now = Date.now();
  return {
    id, investigationId: 'inv-1', toolCallId: `call-${id}`, action: 'ecs_set_desired_count', target: 'ECS service orders in cluster prod', summary: 'Set the desired count to 8.',
    arguments: { cluster: 'prod', service: 'orders', desiredCount: 8 }, reason: 'queue backlog', previousValue: '4', actionHash: 'hash', status: 'pending',
    requestedAt: new Date(now).toISOString(), expiresAt: new Date(now + 60_000).toISOString(), callback: 'none',
  };
};

/** Two decisions recorded while Step Functions was down: their callbacks are pending. */
const setUp = async () => {
  const { client, tableName } = await freshStore();
  const approvals = new DynamoDbApprovalStore({ client, tableName });
  const ports = { approvals, callbacks: new SfnTaskCallbacks(new SFNClient({ region: 'us-east-1', maxAttempts: 1 })), log: (line: string) => lines.push(line) };
  const lines: string[] = [];
  await approvals.requestApproval(pending('apr-approved'), 'token-approved');
  await approvals.requestApproval(pending('apr-rejected'), 'token-rejected');
  sfn.on(SendTaskSuccessCommand).rejects(unavailable()).on(SendTaskFailureCommand).rejects(unavailable());
  expect((await decideApproval(ports, 'apr-approved', { decision: 'approve' }, 'alice')).status).toBe(200);
  expect((await decideApproval(ports, 'apr-rejected', { decision: 'reject', comment: 'not now' }, 'bob')).status).toBe(200);
  sfn.reset();
  return { approvals, ports, lines };
};

beforeEach(() => sfn.reset());

describe('redelivering decisions whose callback failed', () => {
  it('sends each again until Step Functions answers, then marks it delivered and sends it no more', async () => {
    const { approvals, ports } = await setUp();
    expect((await approvals.undeliveredDecisions()).map((approval) => approval.id).sort()).toEqual(['apr-approved', 'apr-rejected']);
    sfn.on(SendTaskSuccessCommand).resolves({}).on(SendTaskFailureCommand).resolves({});
    expect(await redeliverDecisions(ports)).toBe(2);
    expect(sfn.commandCalls(SendTaskSuccessCommand).map((call) => call.args[0].input)).toEqual([{ taskToken: 'token-approved', output: JSON.stringify({ approvalId: 'apr-approved', decision: 'approve' }) }]);
    expect(sfn.commandCalls(SendTaskFailureCommand).map((call) => call.args[0].input)).toEqual([{ taskToken: 'token-rejected', error: 'ApprovalRejected', cause: 'approval apr-rejected was rejected by bob' }]);
    expect((await approvals.getApproval('apr-approved'))?.callback).toBe('delivered');
    expect(await approvals.undeliveredDecisions()).toEqual([]);
    expect(await redeliverDecisions(ports)).toBe(0);
    expect(sfn.calls()).toHaveLength(2);
  });

  it('keeps a decision pending while Step Functions still fails, without saying the token', async () => {
    const { approvals, ports, lines } = await setUp();
    sfn.on(SendTaskSuccessCommand).rejects(unavailable()).on(SendTaskFailureCommand).resolves({});
    expect(await redeliverDecisions(ports)).toBe(1);
    expect((await approvals.getApproval('apr-approved'))?.callback).toBe('pending');
    expect(lines.join('\n')).toMatch(/apr-approved: callback still failing \(ServiceUnavailable\)/);
    expect(lines.join('\n')).not.toContain('token-approved');
    sfn.reset();
    sfn.on(SendTaskSuccessCommand).resolves({});
    expect(await redeliverDecisions(ports)).toBe(1);
    expect((await approvals.getApproval('apr-approved'))?.callback).toBe('delivered');
  });

  it('records a task Step Functions already timed out as closed, and never retries it', async () => {
    const { approvals, ports } = await setUp();
    sfn.on(SendTaskSuccessCommand).rejects(new TaskTimedOut({ $metadata: {}, message: 'Task Timed Out' })).on(SendTaskFailureCommand).resolves({});
    expect(await redeliverDecisions(ports)).toBe(2);
    expect((await approvals.getApproval('apr-approved'))?.callback).toBe('task-timed-out');
    expect((await approvals.getApproval('apr-approved'))?.status).toBe('approved');
    sfn.resetHistory();
    expect(await redeliverDecisions(ports)).toBe(0);
    expect(sfn.calls()).toHaveLength(0);
  });

  it('keeps the first answer when the API and the redelivery send one decision at once', async () => {
    const { approvals } = await setUp();
    await approvals.markCallback('apr-approved', 'delivered');
    await approvals.markCallback('apr-approved', 'task-timed-out');
    expect((await approvals.getApproval('apr-approved'))?.callback).toBe('delivered');
    expect((await approvals.undeliveredDecisions()).map((approval) => approval.id)).toEqual(['apr-rejected']);
  });
});
