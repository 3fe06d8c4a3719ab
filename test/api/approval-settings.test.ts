import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { approversFromEnv, iamCallerIdentity } from '../../lib/api/approval-settings.ts';
import { principalAllowed } from '../../lib/approval/decide.ts';

describe('approver identity', () => {
  it('reads the allow-list from SRE_AGENT_APPROVERS, and none when unset', () => {
    expect(approversFromEnv({ SRE_AGENT_APPROVERS: ' arn:aws:iam::123456789012:role/oncall , arn:aws:iam::123456789012:user/alice,' })).toEqual({
      approvers: ['arn:aws:iam::123456789012:role/oncall', 'arn:aws:iam::123456789012:user/alice'],
    });
    expect(approversFromEnv({})).toEqual({});
  });

  it('admits sessions of a listed role, and no other role or account', () => {
    const listed = ['arn:aws:iam::123456789012:role/oncall'];
    expect(principalAllowed(listed, 'arn:aws:sts::123456789012:assumed-role/oncall/alice')).toBe(true);
    expect(principalAllowed(listed, 'arn:aws:sts::123456789012:assumed-role/oncall-admin/alice')).toBe(false);
    expect(principalAllowed(listed, 'arn:aws:sts::999999999999:assumed-role/oncall/alice')).toBe(false);
    expect(principalAllowed(listed, 'arn:aws:iam::123456789012:user/oncall')).toBe(false);
  });

  it('takes the caller from the API Gateway request context, never from a header', async () => {
    const app = new Hono().get('/', (c) => c.text(iamCallerIdentity(c) ?? 'none'));
    const env = { event: { requestContext: { identity: { userArn: 'arn:aws:sts::123456789012:assumed-role/oncall/alice' } } } };
    expect(await (await app.request('/', {}, env)).text()).toBe('arn:aws:sts::123456789012:assumed-role/oncall/alice');
    expect(await (await app.request('/', { headers: { 'x-caller': 'arn:aws:iam::123456789012:user/mallory' } })).text()).toBe('none');
  });
});
