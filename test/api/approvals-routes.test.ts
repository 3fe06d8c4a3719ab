import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { approvalsRoutes } from '../../lib/api/approvals-routes.ts';
import type { TaskCallbacks } from '../../lib/approval/task-callbacks.ts';
import { DynamoDbApprovalStore } from '../../lib/store/dynamodb-approval-store.ts';
import { freshStore } from '../support/dynamodb.ts';

const TOKEN = 'AQCEAAAAKgAAAAMAAAAAAAAAAbcdef-the-task-token';

const setUp = async (approvers?: string[]) => {
  const { client, tableName } = await freshStore();
  const approvals = new DynamoDbApprovalStore({ client, tableName });
  const sent: string[] = [];
  const callbacks: TaskCallbacks = { succeed: async () => void sent.push('success'), fail: async (_, error) => void sent.push(error) };
  const now = Date.now();
  for (const id of ['apr-a', 'apr-b']) {
    await approvals.requestApproval(
      {
        id,
        investigationId: 'inv-1',
        toolCallId: `call-${id}`,
        action: 'lambda_rollback_alias',
        target: 'Lambda alias live of function billing',
        summary: 'Point the alias at the previous version.',
        arguments: { functionName: 'billing', alias: 'live' },
        reason: 'v8 throws on every request',
        previousValue: 'version 8 (would become 7)',
        actionHash: 'hash',
        status: 'pending',
        requestedAt: new Date(now).toISOString(),
        expiresAt: new Date(now + 60_000).toISOString(),
        callback: 'none',
      },
      TOKEN,
    );
  }
  const app = new Hono().route(
    '/approvals',
    approvalsRoutes({ approvals, callbacks, ...(approvers ? { approvers } : {}), callerIdentity: (c) => c.req.header('x-test-caller') }),
  );
  const responses: string[] = [];
  const call = async (method: string, path: string, body?: unknown, caller = 'arn:aws:iam::123456789012:user/alice') => {
    const response = await app.request(path, { method, headers: { 'x-test-caller': caller, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const text = await response.text();
    responses.push(text);
    return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
  };
  return { call, sent, responses };
};

describe('approval routes', () => {
  it('lists pending approvals, decides one once (then 409), and 404s an unknown id; no response carries the token', async () => {
    const { call, sent, responses } = await setUp();
    const listed = await call('GET', '/approvals?status=pending');
    expect(listed.status).toBe(200);
    expect((listed.body.items as { id: string }[]).map((item) => item.id).sort()).toEqual(['apr-a', 'apr-b']);
    expect(listed.body.items).toContainEqual(expect.objectContaining({ investigationId: 'inv-1', action: 'lambda_rollback_alias', target: expect.any(String), status: 'pending', expiresAt: expect.any(String) }));
    const approved = await call('POST', '/approvals/apr-a', { decision: 'approve', comment: 'go' });
    expect(approved).toMatchObject({ status: 200, body: { status: 'approved', decidedBy: 'arn:aws:iam::123456789012:user/alice', comment: 'go' } });
    expect((await call('POST', '/approvals/apr-a', { decision: 'reject' }, 'arn:aws:iam::123456789012:user/bob')).status).toBe(409);
    expect((await call('POST', '/approvals/apr-zzz', { decision: 'approve' })).status).toBe(404);
    expect((await call('POST', '/approvals/apr-b', { decision: 'maybe' })).status).toBe(400);
    expect(sent).toEqual(['success']);
    expect(((await call('GET', '/approvals?status=pending')).body.items as unknown[])).toHaveLength(1);
    for (const text of responses) expect(text).not.toContain(TOKEN);
  });

  it('refuses a caller not on the allow-list with 403, and a request with no identity', async () => {
    const { call, sent } = await setUp(['arn:aws:iam::123456789012:role/oncall']);
    expect((await call('POST', '/approvals/apr-a', { decision: 'approve' }, 'arn:aws:iam::123456789012:user/mallory')).status).toBe(403);
    expect((await call('POST', '/approvals/apr-a', { decision: 'approve' }, '')).status).toBe(403);
    expect((await call('POST', '/approvals/apr-a', { decision: 'reject' }, 'arn:aws:iam::123456789012:role/oncall')).status).toBe(200);
    expect(sent).toEqual(['ApprovalRejected']);
  });
});

describe('approval routes redeliver', () => {
  it('a decision whose callback failed is sent again on the next request to the approvals', async () => {
    const { client, tableName } = await freshStore();
    const approvals = new DynamoDbApprovalStore({ client, tableName });
    let down = true;
    const sent: string[] = [];
    const callbacks: TaskCallbacks = {
      succeed: async () => {
        if (down) throw new Error('Step Functions unavailable');
        sent.push('success');
      },
      fail: async () => undefined,
    };
    const now = Date.now();
    await approvals.requestApproval(
      {
        id: 'apr-r', investigationId: 'inv-1', toolCallId: 'c', action: 'ecs_set_desired_count', target: 't', summary: 's', arguments: {}, reason: 'r',
        previousValue: null, actionHash: 'h', status: 'pending', requestedAt: new Date(now).toISOString(), expiresAt: new Date(now + 60_000).toISOString(), callback: 'none',
      },
      TOKEN,
    );
    const app = new Hono().route('/approvals', approvalsRoutes({ approvals, callbacks, callerIdentity: () => 'alice' }));
    const decided = await app.request('/approvals/apr-r', { method: 'POST', body: JSON.stringify({ decision: 'approve' }) });
    expect(decided.status).toBe(200);
    expect(sent).toEqual([]);
    down = false;
    expect((await app.request('/approvals')).status).toBe(200);
    expect(sent).toEqual(['success']);
    expect((await approvals.getApproval('apr-r'))?.callback).toBe('delivered');
  });
});
