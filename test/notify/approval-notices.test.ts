import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { approvalNotice } from '../../lib/approval/approval-notice.ts';
import type { Approval } from '../../lib/domain/approval.ts';
import type { Trigger } from '../../lib/domain/trigger.ts';
import { DeliveryError } from '../../lib/notify/delivery-error.ts';
import { FanOutNotifier } from '../../lib/notify/fan-out-notifier.ts';
import { PagerDutyNotifier } from '../../lib/notify/pagerduty-notifier.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import { ReportChannelsNotifier } from '../../lib/notify/report-channels.ts';
import { RetryingNotifier } from '../../lib/notify/retrying-notifier.ts';
import { SlackNotifier } from '../../lib/notify/slack-notifier.ts';
import { SnsNotifier } from '../../lib/notify/sns-notifier.ts';
import { samples } from '../api/support.ts';

const approval: Approval = {
  id: 'apr-0123456789abcdef01234567', investigationId: 'inv-1', toolCallId: 'call_1', action: 'lambda_rollback_alias', target: 'Lambda alias live of function billing',
  summary: 'Point alias live of billing back to the previous version.', arguments: { functionName: 'billing', alias: 'live' }, reason: 'v8 throws on every request since the deploy',
  previousValue: 'version 8 (would become 7)', actionHash: 'hash', status: 'pending', requestedAt: '2026-04-06T04:10:00.000Z', expiresAt: '2026-04-06T04:40:00.000Z', callback: 'none',
};
const notice = approvalNotice(approval);

/** A fetch that records each request body and answers with the given statuses in turn. */
const recordingFetch = (statuses: number[]) => {
  const bodies: { url: string; body: unknown }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    bodies.push({ url, body: JSON.parse(String(init.body)) });
    const status = statuses.shift() ?? 200;
    return new Response(JSON.stringify(status < 300 ? { note: { id: 'PN1' } } : { error: 'x' }), { status });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, bodies };
};

describe('approval notices on the report channels', () => {
  it('SNS publishes the notice with the approval id as a message attribute', async () => {
    const sns = mockClient(SNSClient);
    sns.on(PublishCommand).resolves({ MessageId: 'm-1' });
    expect(await new SnsNotifier(new SNSClient({ region: 'us-east-1' }), 'arn:aws:sns:us-east-1:123456789012:findings').announceApproval(notice)).toEqual({ messageId: 'm-1' });
    const input = sns.commandCalls(PublishCommand)[0]!.args[0].input;
    expect(input).toMatchObject({ Subject: notice.subject.slice(0, 100), Message: notice.text, MessageAttributes: { approvalId: { DataType: 'String', StringValue: approval.id } } });
    sns.restore();
  });

  it('Slack posts the subject and text; PagerDuty adds them as a note only on the incident that started the investigation', async () => {
    const slack = recordingFetch([200]);
    await new SlackNotifier({ target: { webhookUrl: 'http://127.0.0.1:9/hook' }, fetch: slack.fetch }).announceApproval(notice);
    const posted = slack.bodies[0]!.body as { text: string; blocks: { type: string; elements?: { action_id: string; value: string }[] }[] };
    expect(posted.text).toBe(`*${notice.subject}*\n${notice.text}`);
    // The buttons carry the approval id and nothing else.
    expect(posted.blocks.find((block) => block.type === 'actions')?.elements?.map(({ action_id, value }) => [action_id, value])).toEqual([
      ['sre_agent_approve', approval.id],
      ['sre_agent_reject', approval.id],
    ]);
    const pagerDuty = recordingFetch([201]);
    const trigger = { pagerduty: samples.incidentTriggered() } as unknown as Trigger;
    const options = { apiToken: 't', from: 'oncall@example.com', baseUrl: 'http://127.0.0.1:9', fetch: pagerDuty.fetch };
    await new PagerDutyNotifier({ ...options, store: { getTrigger: async () => trigger } }).announceApproval(notice);
    expect((pagerDuty.bodies[0]!.body as { note: { content: string } }).note.content).toBe(`${notice.subject}\n\n${notice.text}`);
    expect(await new PagerDutyNotifier({ ...options, store: { getTrigger: async () => undefined } }).announceApproval(notice)).toEqual({});
    expect(pagerDuty.bodies).toHaveLength(1);
  });

  it('fan-out and retries carry the notice to every channel that can ask; a channel that cannot is skipped', async () => {
    const recording = new RecordingNotifier();
    const findingsOnly = { channel: 'findings-only', publish: async () => ({}) };
    const slack = recordingFetch([503, 200]);
    const retried = new RetryingNotifier(new SlackNotifier({ target: { webhookUrl: 'http://127.0.0.1:9/hook' }, fetch: slack.fetch }), { attempts: 3, baseDelayMs: 0, sleep: async () => undefined });
    const result = await new FanOutNotifier([recording, findingsOnly, retried]).announceApproval(notice);
    expect(result.messageId).toBe('local:local-approval-1,slack:sent');
    expect(recording.approvalNotices).toEqual([notice]);
    expect(slack.bodies).toHaveLength(2);
    const refused = new RetryingNotifier({ channel: 'x', publish: async () => ({}), announceApproval: async () => Promise.reject(new DeliveryError('403', false)) }, { attempts: 3, baseDelayMs: 0 });
    await expect(refused.announceApproval(notice)).rejects.toThrow('403');
  });

  it('the report channels notifier asks on the primary channel when the channels\' settings cannot be read', async () => {
    const primary = new RecordingNotifier();
    const failures: string[] = [];
    const notifier = new ReportChannelsNotifier(primary, async () => Promise.reject(new Error('secret unreadable')), { getTrigger: async () => undefined }, { onFailure: (channel) => failures.push(channel) });
    await notifier.announceApproval(notice);
    expect(primary.approvalNotices).toEqual([notice]);
    expect(failures).toEqual(['report channels']);
  });
});
