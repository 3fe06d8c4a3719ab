import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signPagerDutyBody } from '../../lib/triggers/pagerduty-signature.ts';
import { incidentAnnotated } from './pagerduty-samples.ts';

const cli = fileURLToPath(new URL('../../bin/sre-agent.js', import.meta.url));
const scenarioFile = fileURLToPath(new URL('../../scenarios/payment-gateway-outage.json', import.meta.url));
const SECRET = 'e2e-webhook-secret';

interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP server that records every request and answers with `reply`. */
const recorder = async (reply: (request: Recorded) => { status: number; body: unknown }) => {
  const requests: Recorded[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const recorded = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body };
      requests.push(recorded);
      const { status, body: answer } = reply(recorded);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { requests, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

describe('sre-agent serve, end to end', () => {
  let child: ChildProcess;
  let baseUrl: string;
  let stderr = '';
  let pagerDuty: Awaited<ReturnType<typeof recorder>>;
  let slack: Awaited<ReturnType<typeof recorder>>;

  beforeAll(async () => {
    pagerDuty = await recorder(() => ({ status: 201, body: { note: { id: 'PNOTE1', content: '…' } } }));
    slack = await recorder(() => ({ status: 200, body: { ok: true, channel: 'C0INCIDENTS', ts: '1717000000.000100' } }));
    child = spawn(process.execPath, [cli, 'serve', '--scenario', scenarioFile, '--port', '0', '--data-dir', mkdtempSync(join(tmpdir(), 'sre-agent-serve-'))], {
      env: {
        ...process.env,
        SRE_AGENT_MODEL_PROVIDER: 'offline',
        PAGERDUTY_WEBHOOK_SECRET: SECRET,
        PAGERDUTY_API_TOKEN: 'pd-token',
        PAGERDUTY_FROM: 'sre-agent@example.com',
        PAGERDUTY_API_URL: pagerDuty.url,
        SLACK_BOT_TOKEN: 'xoxb-test',
        SLACK_CHANNEL: 'C0INCIDENTS',
        SLACK_API_URL: `${slack.url}/api/`,
        SRE_AGENT_PUBLIC_URL: 'https://sre-agent.example.com',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    baseUrl = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    });
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await pagerDuty?.close();
    await slack?.close();
  });

  it('a signed PagerDuty webhook starts an investigation whose finding, transcript, note and Slack message can be read', async () => {
    const scenario = JSON.parse(readFileSync(scenarioFile, 'utf8')) as { trigger: { pagerduty: { event: { data: { id: string } } } }; truth: { rootCause: { service: string } } };
    const webhook = scenario.trigger.pagerduty;
    const culprit = scenario.truth.rootCause.service;
    const raw = JSON.stringify(webhook);
    const delivered = await fetch(`${baseUrl}/webhooks/pagerduty`, {
      method: 'POST',
      body: raw,
      headers: { 'content-type': 'application/json', 'x-pagerduty-signature': signPagerDutyBody(raw, SECRET), 'x-webhook-id': 'e2e-delivery-1' },
    });
    expect(delivered.status).toBe(202);
    const { id } = (await delivered.json()) as { id: string };

    let investigation: { status: string; finding: { incident: boolean; rootCause: { service: string }; report: string } | null; triggerCount: number };
    const deadline = Date.now() + 120_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 500));
      investigation = (await (await fetch(`${baseUrl}/investigations/${id}`)).json()) as typeof investigation;
    } while (['queued', 'running'].includes(investigation.status) && Date.now() < deadline);
    expect(investigation.status).toBe('succeeded');
    expect(investigation.triggerCount).toBe(1);
    expect(investigation.finding?.incident).toBe(true);
    expect(investigation.finding?.rootCause.service).toBe(culprit);

    const transcript = (await (await fetch(`${baseUrl}/investigations/${id}/transcript?limit=500`)).json()) as { events: { type: string }[] };
    const types = transcript.events.map((event) => event.type);
    expect(types[0]).toBe('plan');
    expect(types).toContain('tool.result');
    expect(types.at(-1)).toBe('notification');

    // The investigation reads succeeded once the notification is committed; the sends follow it.
    await vi.waitFor(() => expect(pagerDuty.requests.length + slack.requests.length).toBeGreaterThanOrEqual(2), { timeout: 30_000, interval: 100 });
    expect(pagerDuty.requests).toHaveLength(1);
    const note = pagerDuty.requests[0]!;
    expect(note.method).toBe('POST');
    expect(note.path).toBe(`/incidents/${webhook.event.data.id}/notes`);
    expect(note.headers.from).toBe('sre-agent@example.com');
    expect(note.headers.authorization).toBe('Token token=pd-token');
    const content = (JSON.parse(note.body) as { note: { content: string } }).note.content;
    expect(content).toContain(`[sre-agent] Investigation finished: root cause ${culprit}`);
    expect(content).toContain(`https://sre-agent.example.com/investigations/${id}`);

    expect(slack.requests).toHaveLength(1);
    expect(slack.requests[0]!.path).toBe('/api/chat.postMessage');
    const message = new URLSearchParams(slack.requests[0]!.body);
    expect(message.get('channel')).toBe('C0INCIDENTS');
    expect(message.get('text')).toContain(`*${culprit}*`);

    const redelivered = await fetch(`${baseUrl}/webhooks/pagerduty`, {
      method: 'POST',
      body: raw,
      headers: { 'content-type': 'application/json', 'x-pagerduty-signature': signPagerDutyBody(raw, SECRET), 'x-webhook-id': 'e2e-delivery-1' },
    });
    expect(await redelivered.json()).toEqual({ id, outcome: 'duplicate' });
    const ownNote = JSON.stringify(incidentAnnotated(webhook.event.data.id, content));
    const annotated = await fetch(`${baseUrl}/webhooks/pagerduty`, {
      method: 'POST',
      body: ownNote,
      headers: { 'content-type': 'application/json', 'x-pagerduty-signature': signPagerDutyBody(ownNote, SECRET) },
    });
    expect(await annotated.json()).toEqual({ ignored: 'a note sre-agent wrote itself' });
    expect(pagerDuty.requests).toHaveLength(1);

    expect(stderr).toMatch(/POST \/webhooks\/pagerduty 202 \d+ms/);
    expect(stderr).toMatch(new RegExp(`investigation ${id} started`));
    expect(stderr).toMatch(new RegExp(`investigation ${id} succeeded`));
  }, 180_000);

  it('refuses other web pages in the browser (a cross-site POST, a foreign Origin, a rebound DNS name) and starts nothing', async () => {
    const post = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = httpRequest(`${baseUrl}/investigations`, { method: 'POST', headers: { 'content-type': 'text/plain', ...headers } }, (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        });
        request.on('error', reject);
        request.end(JSON.stringify({ question: 'restart everything?' }));
      });
    const listed = async () => ((await (await fetch(`${baseUrl}/investigations`)).json()) as { items: unknown[] }).items.length;
    const before = await listed();

    const crossSite = await post({ 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(JSON.parse(crossSite.body).issues[0].path).toBe('header.sec-fetch-site');
    const foreignOrigin = await post({ origin: 'https://attacker.example' });
    expect(foreignOrigin.status).toBe(403);
    expect(JSON.parse(foreignOrigin.body).issues[0].path).toBe('header.origin');
    const rebound = await post({ host: `attacker.example:${new URL(baseUrl).port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).issues[0].path).toBe('header.host');

    expect(await listed()).toBe(before);
  }, 60_000);
});
