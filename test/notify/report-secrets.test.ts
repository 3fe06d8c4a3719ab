import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Finding } from '../../lib/domain/finding.ts';
import type { Trigger } from '../../lib/domain/trigger.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import { ReportChannelsNotifier } from '../../lib/notify/report-channels.ts';
import { reportSettings, ReportSecretError, secretsManagerReportSecret } from '../../lib/notify/report-secret.ts';
import { samples } from '../api/support.ts';

const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:sre-agent/report-AbCdEf';
const client = new SecretsManagerClient({ region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
const secretsManager = mockClient(client);

afterEach(() => {
  secretsManager.reset();
  vi.useRealTimers();
});

const finding: Finding = {
  incident: true,
  rootCause: { service: 'payment-service', category: 'dependency', summary: 'The card processor times out.' },
  confidence: 0.8,
  evidence: [],
  remediation: [],
  report: '# Incident report',
};
const pagerDutyTrigger = { pagerduty: samples.incidentTriggered() } as unknown as Trigger;

/** A local PagerDuty REST API that records the Authorization header of every note. */
const pagerDutyServer = async () => {
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    headers.push(request.headers);
    request.resume().on('end', () => response.writeHead(201, { 'content-type': 'application/json' }).end('{"note":{"id":"PNOTE"}}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { headers, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

describe('report channel tokens from Secrets Manager', () => {
  it('reads the JSON secret through Powertools, cached for maxAge, then the rotated value', async () => {
    secretsManager
      .on(GetSecretValueCommand, { SecretId: SECRET_ARN })
      .resolvesOnce({ SecretString: JSON.stringify({ PAGERDUTY_API_TOKEN: 'pd-first', SLACK_BOT_TOKEN: 'xoxb-first' }) })
      .resolves({ SecretString: JSON.stringify({ PAGERDUTY_API_TOKEN: 'pd-rotated' }) });
    vi.useFakeTimers({ toFake: ['Date'], now: 1_000_000 });
    const read = secretsManagerReportSecret(SECRET_ARN, { client, maxAgeSeconds: 60 });
    expect(await read()).toEqual({ PAGERDUTY_API_TOKEN: 'pd-first', SLACK_BOT_TOKEN: 'xoxb-first' });
    vi.advanceTimersByTime(59_000);
    expect(await read()).toEqual({ PAGERDUTY_API_TOKEN: 'pd-first', SLACK_BOT_TOKEN: 'xoxb-first' });
    vi.advanceTimersByTime(2_000);
    expect(await read()).toEqual({ PAGERDUTY_API_TOKEN: 'pd-rotated' });
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('says what is wrong with a bad secret without ever quoting its value', async () => {
    const value = 'xoxb-this-must-never-be-logged';
    const cases: [string, RegExp][] = [
      [value, /is not JSON; store a JSON object with any of PAGERDUTY_API_TOKEN, SLACK_BOT_TOKEN, SLACK_WEBHOOK_URL/],
      [JSON.stringify({ SLACK_BOT_TOKEN: { token: value } }), /\(wrong: SLACK_BOT_TOKEN\)/],
      [JSON.stringify([value]), /\(wrong: \(the whole value\)\)/],
    ];
    for (const [secretString, message] of cases) {
      secretsManager.reset();
      secretsManager.on(GetSecretValueCommand).resolves({ SecretString: secretString });
      const failure = await secretsManagerReportSecret(SECRET_ARN, { client, maxAgeSeconds: 0 })().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ReportSecretError);
      expect((failure as Error).message).toMatch(message);
      expect((failure as Error).message).not.toContain(value);
    }
  });

  it('takes the tokens only from the secret when there is one, the rest of the settings from the environment', async () => {
    const env = { PAGERDUTY_API_TOKEN: 'from-the-environment', PAGERDUTY_FROM: 'oncall@example.com', SLACK_CHANNEL: 'C0INCIDENTS' };
    expect(await reportSettings(env, async () => ({ SLACK_BOT_TOKEN: 'xoxb-secret' }))()).toEqual({
      PAGERDUTY_FROM: 'oncall@example.com',
      SLACK_CHANNEL: 'C0INCIDENTS',
      SLACK_BOT_TOKEN: 'xoxb-secret',
    });
    // Locally there is no secret: the environment's own variables.
    expect(await reportSettings(env, undefined)()).toEqual(env);
  });

  it('posts with the token of the moment, and still announces on the topic when the secret cannot be read', async () => {
    const pagerDuty = await pagerDutyServer();
    try {
      const tokens = ['pd-first', 'pd-rotated'];
      let unreadable = false;
      const settings = async () => {
        if (unreadable) throw new ReportSecretError(`could not read the report secret SRE_AGENT_REPORT_SECRET_ARN=${SECRET_ARN} (AccessDeniedException)`);
        return { PAGERDUTY_API_TOKEN: tokens.shift()!, PAGERDUTY_FROM: 'sre-agent@example.com', PAGERDUTY_API_URL: pagerDuty.url };
      };
      const primary = new RecordingNotifier();
      const failures: string[] = [];
      const notifier = new ReportChannelsNotifier(primary, settings, { getTrigger: async () => pagerDutyTrigger }, {
        retry: { attempts: 1, baseDelayMs: 0 },
        onFailure: (channel, error) => failures.push(`${channel}: ${error instanceof Error ? error.message : String(error)}`),
      });
      const notice = { investigationId: 'inv-1', subject: 'subject', finding };
      await notifier.publish(notice);
      await notifier.publish(notice);
      expect(pagerDuty.headers.map((headers) => headers.authorization)).toEqual(['Token token=pd-first', 'Token token=pd-rotated']);

      unreadable = true;
      await notifier.publish(notice);
      expect(primary.notices).toHaveLength(3);
      expect(pagerDuty.headers).toHaveLength(2);
      expect(failures).toEqual([expect.stringMatching(/^report channels: could not read the report secret/)]);
    } finally {
      await pagerDuty.close();
    }
  });
});
