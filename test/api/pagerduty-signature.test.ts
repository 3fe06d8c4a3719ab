import { describe, expect, it } from 'vitest';
import { signPagerDutyBody, verifyPagerDutySignature } from '../../lib/triggers/pagerduty-signature.ts';
import { apiOnFreshTable, samples, WEBHOOK_SECRET } from './support.ts';

const body = JSON.stringify(samples.incidentTriggered());

describe('PagerDuty webhook signatures', () => {
  it('accepts a valid signature', () => {
    expect(verifyPagerDutySignature(body, signPagerDutyBody(body, WEBHOOK_SECRET), WEBHOOK_SECRET)).toEqual({ valid: true });
  });

  it('refuses a tampered body', () => {
    const signature = signPagerDutyBody(body, WEBHOOK_SECRET);
    const tampered = body.replace('"urgency":"high"', '"urgency":"low"');
    expect(tampered).not.toBe(body);
    expect(verifyPagerDutySignature(tampered, signature, WEBHOOK_SECRET).valid).toBe(false);
  });

  it('refuses a signature made with another secret', () => {
    expect(verifyPagerDutySignature(body, signPagerDutyBody(body, 'another-secret'), WEBHOOK_SECRET)).toEqual({
      valid: false,
      reason: 'no X-PagerDuty-Signature signature matches the body',
    });
  });

  it('accepts either of two signatures during a secret rotation, in any order', () => {
    const header = `${signPagerDutyBody(body, 'old-secret')},${signPagerDutyBody(body, 'new-secret')}`;
    expect(verifyPagerDutySignature(body, header, 'old-secret').valid).toBe(true);
    expect(verifyPagerDutySignature(body, header, 'new-secret').valid).toBe(true);
    expect(verifyPagerDutySignature(body, header, 'third-secret').valid).toBe(false);
  });

  it('refuses a missing or malformed header', () => {
    expect(verifyPagerDutySignature(body, undefined, WEBHOOK_SECRET)).toEqual({ valid: false, reason: 'the X-PagerDuty-Signature header is missing' });
    expect(verifyPagerDutySignature(body, 'sha256=abc', WEBHOOK_SECRET)).toEqual({ valid: false, reason: 'the X-PagerDuty-Signature header has no v1= signature' });
  });

  it('the route answers 401 for a bad or missing signature and starts nothing', async () => {
    const { app, starter } = await apiOnFreshTable();
    const missing = await app.request('/webhooks/pagerduty', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      error: 'the webhook signature is not valid',
      issues: [{ path: 'header.x-pagerduty-signature', message: 'the X-PagerDuty-Signature header is missing' }],
    });
    const wrong = await app.request('/webhooks/pagerduty', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-pagerduty-signature': signPagerDutyBody(body, 'another-secret') },
    });
    expect(wrong.status).toBe(401);
    const good = await app.request('/webhooks/pagerduty', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-pagerduty-signature': signPagerDutyBody(body, WEBHOOK_SECRET) },
    });
    expect(good.status).toBe(202);
    expect(starter.started).toHaveLength(1);
  });
});
