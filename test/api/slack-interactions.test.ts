import { createHmac } from 'node:crypto';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { TaskCallbacks } from '../../lib/approval/task-callbacks.ts';
import { slackInteractionsRoute } from '../../lib/api/slack-interactions-route.ts';
import { DynamoDbApprovalStore } from '../../lib/store/dynamodb-approval-store.ts';
import { freshStore } from '../support/dynamodb.ts';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const TOKEN = 'AQCEAAAAKgAAAAMAAAAAAAAAA-the-task-token';
const ID = 'apr-0123456789abcdef01234567';
const NOW = new Date();
const seconds = (date: Date) => String(Math.floor(date.getTime() / 1000));

const signed = (body: string, timestamp = seconds(NOW), secret = SECRET) => ({
  'x-slack-request-timestamp': timestamp,
  'x-slack-signature': `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`,
  'content-type': 'application/x-www-form-urlencoded',
});
const click = (user: string, action: 'sre_agent_approve' | 'sre_agent_reject', value = ID) =>
  `payload=${encodeURIComponent(JSON.stringify({ type: 'block_actions', user: { id: user, username: 'someone' }, actions: [{ action_id: action, value, type: 'button' }], response_url: 'https://hooks.example/r' }))}`;

const setUp = async (approvers?: string[]) => {
  const { client, tableName } = await freshStore();
  const approvals = new DynamoDbApprovalStore({ client, tableName });
  await approvals.requestApproval(
    {
      id: ID, investigationId: 'inv-1', toolCallId: 'c', action: 'ecs_force_new_deployment', target: 'ECS service orders in cluster prod', summary: 'Restart orders.', arguments: {},
      reason: 'r', previousValue: null, actionHash: 'h', status: 'pending', requestedAt: NOW.toISOString(), expiresAt: new Date(NOW.getTime() + 60_000).toISOString(), callback: 'none',
    },
    TOKEN,
  );
  const sent: string[] = [];
  const callbacks: TaskCallbacks = { succeed: async () => void sent.push('success'), fail: async (_, error) => void sent.push(error) };
  const app = new Hono().route(
    '/webhooks/slack',
    slackInteractionsRoute({
      approvals, callbacks, clock: () => NOW, ...(approvers ? { approvers } : {}),
      slackSigningSecret: async () => SECRET,
      slackApprovers: { U0ALICE: 'arn:aws:iam::123456789012:user/alice', U0MALLORY: 'arn:aws:iam::123456789012:user/mallory' },
    }),
  );
  const post = async (body: string, headers: Record<string, string>) => {
    const response = await app.request('/webhooks/slack', { method: 'POST', headers, body });
    return { status: response.status, text: await response.text() };
  };
  return { approvals, post, sent };
};

describe('Slack approval buttons', () => {
  it('a signed, fresh click by a mapped user decides the approval as that user\'s principal, once', async () => {
    const { approvals, post, sent } = await setUp();
    const body = click('U0ALICE', 'sre_agent_approve');
    const answer = await post(body, signed(body));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ response_type: 'ephemeral', text: `Approval ${ID} approved by arn:aws:iam::123456789012:user/alice.` });
    expect(await approvals.getApproval(ID)).toMatchObject({ status: 'approved', decidedBy: 'arn:aws:iam::123456789012:user/alice' });
    expect(sent).toEqual(['success']);
    const again = click('U0ALICE', 'sre_agent_reject');
    expect(JSON.parse((await post(again, signed(again))).text).text).toMatch(/^Not decided: approval .* was already approved/);
    expect(answer.text).not.toContain(TOKEN);
  });

  it('refuses a bad signature, a request older than five minutes, and a replayed signature with a new timestamp; nothing is decided', async () => {
    const { approvals, post } = await setUp();
    const body = click('U0ALICE', 'sre_agent_approve');
    expect((await post(body, signed(body, seconds(NOW), 'not-the-secret'))).status).toBe(401);
    const old = seconds(new Date(NOW.getTime() - 5 * 60_000 - 1_000));
    expect(await post(body, signed(body, old))).toMatchObject({ status: 401, text: expect.stringContaining('more than 5 minutes old') });
    const replay = { ...signed(body, old), 'x-slack-request-timestamp': seconds(NOW) };
    expect((await post(body, replay)).status).toBe(401);
    expect((await post(body, { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(401);
    expect((await approvals.getApproval(ID))?.status).toBe('pending');
  });

  it('a Slack user with no mapping, or a mapped one not on the approvers list, decides nothing; a button must carry an approval id only', async () => {
    const { approvals, post } = await setUp(['arn:aws:iam::123456789012:user/alice']);
    const stranger = click('U0BOB', 'sre_agent_approve');
    expect(JSON.parse((await post(stranger, signed(stranger))).text).text).toBe('Slack user U0BOB is not mapped to an approver: nothing was decided.');
    const notAllowed = click('U0MALLORY', 'sre_agent_approve');
    expect(JSON.parse((await post(notAllowed, signed(notAllowed))).text).text).toMatch(/not on the approvers list/);
    const smuggled = click('U0ALICE', 'sre_agent_approve', `${ID} and restart everything`);
    expect((await post(smuggled, signed(smuggled))).status).toBe(400);
    expect((await approvals.getApproval(ID))?.status).toBe('pending');
  });
});

describe('SRE_AGENT_SLACK_APPROVERS', () => {
  it('maps Slack user ids to principals and names a malformed pair', async () => {
    const { slackApproversFromEnv } = await import('../../lib/api/approval-settings.ts');
    expect(slackApproversFromEnv({ SRE_AGENT_SLACK_APPROVERS: 'U0ALICE=arn:aws:iam::123456789012:user/alice, W0BOB=arn:aws:iam::123456789012:role/oncall' })).toEqual({
      U0ALICE: 'arn:aws:iam::123456789012:user/alice',
      W0BOB: 'arn:aws:iam::123456789012:role/oncall',
    });
    expect(slackApproversFromEnv({})).toEqual({});
    expect(() => slackApproversFromEnv({ SRE_AGENT_SLACK_APPROVERS: 'alice=arn:aws:iam::123456789012:user/alice' })).toThrow(/"alice=arn:aws:iam::123456789012:user\/alice" is not <Slack user id>=<principal ARN>/);
  });
});
