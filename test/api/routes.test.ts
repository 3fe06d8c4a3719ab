import { describe, expect, it } from 'vitest';
import type { Investigation } from '../../lib/domain/investigation.ts';
import { emptyUsage } from '../../lib/domain/usage.ts';
import { signPagerDutyBody } from '../../lib/triggers/pagerduty-signature.ts';
import { SRE_AGENT_NOTE_MARKER } from '../../lib/triggers/pagerduty-note.ts';
import { incidentAnnotated, incidentTriggered } from './pagerduty-samples.ts';
import { apiOnFreshTable, samples, WEBHOOK_SECRET } from './support.ts';

const json = { 'content-type': 'application/json' };

const signed = (body: unknown, webhookId?: string) => {
  const raw = JSON.stringify(body);
  return {
    method: 'POST',
    body: raw,
    headers: { ...json, 'x-pagerduty-signature': signPagerDutyBody(raw, WEBHOOK_SECRET), ...(webhookId ? { 'x-webhook-id': webhookId } : {}) },
  };
};

/** What the workflow's StartInvestigation step would have written for an admitted investigation. */
const runningHead = (id: string, service?: string): Investigation => ({
  id,
  triggerKind: 'question',
  triggerSummary: 'Question: why?',
  status: 'running',
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  eventCount: 0,
  iterations: 0,
  usage: emptyUsage(),
  modelName: 'offline-analyst',
  toolSource: { kind: 'none' },
  ...(service ? { service } : {}),
});

describe('investigation routes', () => {
  it('POST /investigations starts a question and GET shows it, queued until its workflow writes it', async () => {
    const { app, starter, store } = await apiOnFreshTable();
    const response = await app.request('/investigations', {
      method: 'POST',
      body: JSON.stringify({ question: 'Why is checkout slow?', service: 'checkout', since: '2026-04-06T03:00:00Z' }),
      headers: json,
    });
    expect(response.status).toBe(202);
    const { id } = (await response.json()) as { id: string };
    expect(starter.started).toEqual([
      { investigationId: id, input: { investigationId: id, trigger: { question: { text: 'Why is checkout slow?', service: 'checkout', since: '2026-04-06T03:00:00Z' } } } },
    ]);
    expect(await (await app.request(`/investigations/${id}`)).json()).toMatchObject({ id, status: 'running', service: 'checkout', triggerCount: 1, finding: null });
    await store.create({ investigation: runningHead(id, 'checkout'), trigger: { question: { text: 'Why is checkout slow?' } } });
    expect(await (await app.request(`/investigations/${id}`)).json()).toMatchObject({ id, status: 'running', triggerSummary: 'Question: why?', usage: emptyUsage() });
  });

  it('GET /investigations filters by status and service, newest first, and pages', async () => {
    const { app, store } = await apiOnFreshTable();
    // Recent times: DynamoDB Local deletes items whose TTL (creation + retention) has passed.
    const base = Date.now() - 60_000;
    for (const [index, service] of ['a', 'b', 'a', 'a'].entries()) {
      const head = { ...runningHead(`inv-${index}`, service), createdAt: new Date(base + index * 1000).toISOString() };
      await store.create({ investigation: index === 1 ? { ...head, status: 'succeeded' } : head, trigger: { question: { text: 'q' } } });
    }
    const all = (await (await app.request('/investigations')).json()) as { items: { id: string }[] };
    expect(all.items.map((item) => item.id)).toEqual(['inv-3', 'inv-2', 'inv-1', 'inv-0']);
    const serviceA = (await (await app.request('/investigations?service=a&status=running')).json()) as { items: { id: string }[] };
    expect(serviceA.items.map((item) => item.id)).toEqual(['inv-3', 'inv-2', 'inv-0']);
    const succeeded = (await (await app.request('/investigations?status=succeeded')).json()) as { items: { id: string }[] };
    expect(succeeded.items.map((item) => item.id)).toEqual(['inv-1']);
    const first = (await (await app.request('/investigations?limit=2')).json()) as { items: { id: string }[]; nextCursor: string };
    expect(first.items.map((item) => item.id)).toEqual(['inv-3', 'inv-2']);
    const second = (await (await app.request(`/investigations?limit=2&cursor=${first.nextCursor}`)).json()) as { items: { id: string }[] };
    expect(second.items.map((item) => item.id)).toEqual(['inv-1', 'inv-0']);
  });

  it('the transcript pages by sequence number', async () => {
    const { app, store } = await apiOnFreshTable();
    const head = runningHead('inv-t');
    await store.create({ investigation: head, trigger: { question: { text: 'q' } } });
    await store.commitStep('inv-t', {
      step: 'plan',
      expectedEventCount: 0,
      events: [1, 2, 3].map((n) => ({ type: 'plan' as const, payload: { n } })),
      head: { ...head, eventCount: 3 },
      outcome: {},
    });
    const page1 = (await (await app.request('/investigations/inv-t/transcript?limit=2')).json()) as { events: { seq: number }[]; nextCursor: string };
    expect(page1.events.map((event) => event.seq)).toEqual([1, 2]);
    const page2 = (await (await app.request(`/investigations/inv-t/transcript?limit=2&cursor=${page1.nextCursor}`)).json()) as { events: { seq: number }[]; nextCursor?: string };
    expect(page2.events.map((event) => event.seq)).toEqual([3]);
    expect(page2.nextCursor).toBeUndefined();
    expect((await app.request('/investigations/inv-missing/transcript')).status).toBe(404);
  });

  it('cancel stops a running investigation, keeps its finding, and answers 409 once it ended', async () => {
    const { app, starter, store } = await apiOnFreshTable();
    const { id } = (await (await app.request('/investigations', { method: 'POST', body: JSON.stringify({ question: 'q?' }), headers: json })).json()) as { id: string };
    await store.create({ investigation: runningHead(id), trigger: { question: { text: 'q?' } } });
    const cancelled = await app.request(`/investigations/${id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(202);
    expect(starter.stopped).toEqual([id]);
    expect(await (await app.request(`/investigations/${id}`)).json()).toMatchObject({ status: 'cancelled' });
    const again = await app.request(`/investigations/${id}/cancel`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: `investigation ${id} already ended as cancelled`, issues: [{ path: 'path.id' }] });
    expect((await app.request('/investigations/inv-nope/cancel', { method: 'POST' })).status).toBe(404);
  });

  it('cancel takes a queued investigation off the queue, so it never starts', async () => {
    const { app, starter } = await apiOnFreshTable({ maxRunning: 1 });
    await app.request('/investigations', { method: 'POST', body: JSON.stringify({ question: 'first?' }), headers: json });
    const { id } = (await (await app.request('/investigations', { method: 'POST', body: JSON.stringify({ question: 'second?' }), headers: json })).json()) as { id: string };
    expect(await (await app.request(`/investigations/${id}`)).json()).toMatchObject({ status: 'queued' });
    expect((await app.request(`/investigations/${id}/cancel`, { method: 'POST' })).status).toBe(202);
    expect(await (await app.request(`/investigations/${id}`)).json()).toMatchObject({ status: 'cancelled' });
    expect(starter.started).toHaveLength(1);
    expect(starter.stopped).toEqual([]);
  });

  it('POST /events starts on ALARM and ignores other states', async () => {
    const { app, starter } = await apiOnFreshTable();
    const ok = structuredClone(samples.singleMetricAlarm());
    ok.detail.state.value = 'OK';
    const ignored = await app.request('/events', { method: 'POST', body: JSON.stringify(ok), headers: json });
    expect(ignored.status).toBe(202);
    expect(await ignored.json()).toEqual({ ignored: 'alarm storefront-web-alb-target-5xx changed to OK; only ALARM starts an investigation' });
    const started = await app.request('/events', { method: 'POST', body: JSON.stringify(samples.singleMetricAlarm()), headers: json });
    expect(await started.json()).toMatchObject({ outcome: 'started' });
    expect(starter.started).toHaveLength(1);
    expect(starter.started[0]!.input.trigger).toMatchObject({ cloudwatchAlarm: { detail: { alarmName: 'storefront-web-alb-target-5xx' } } });
  });
});

describe('PagerDuty webhook route', () => {
  it('starts on incident.triggered and deduplicates by webhook id, event id and incident id', async () => {
    const { app, starter } = await apiOnFreshTable();
    const sample = samples.incidentTriggered();
    const first = await app.request('/webhooks/pagerduty', signed(sample, 'webhook-1'));
    expect(first.status).toBe(202);
    const { id } = (await first.json()) as { id: string };
    expect(await (await app.request('/webhooks/pagerduty', signed(sample, 'webhook-1'))).json()).toEqual({ id, outcome: 'duplicate' });
    expect(await (await app.request('/webhooks/pagerduty', signed(sample, 'webhook-2'))).json()).toEqual({ id, outcome: 'duplicate' });
    const sameIncident = incidentTriggered(sample, sample.event.data.id, 'another-event-id');
    expect(await (await app.request('/webhooks/pagerduty', signed(sameIncident, 'webhook-3'))).json()).toEqual({ id, outcome: 'duplicate' });
    expect(starter.started.map((start) => start.investigationId)).toEqual([id]);
    const another = incidentTriggered(sample, 'Q2OTHER', 'event-4');
    expect(await (await app.request('/webhooks/pagerduty', signed(another, 'webhook-4'))).json()).toMatchObject({ outcome: 'started' });
    expect(starter.started).toHaveLength(2);
  });

  it('ignores annotations with 202, including the notes sre-agent wrote itself', async () => {
    const { app, starter } = await apiOnFreshTable();
    const human = await app.request('/webhooks/pagerduty', signed(incidentAnnotated('QMQUHVBJ2QTZ50', 'Restarted the pods')));
    expect(human.status).toBe(202);
    expect(await human.json()).toEqual({ ignored: 'event type incident.annotated starts nothing' });
    const own = await app.request('/webhooks/pagerduty', signed(incidentAnnotated('QMQUHVBJ2QTZ50', `${SRE_AGENT_NOTE_MARKER} Investigation finished`)));
    expect(await own.json()).toEqual({ ignored: 'a note sre-agent wrote itself' });
    expect(starter.started).toHaveLength(0);
  });

  it('answers 400 naming the field for a signed but malformed body', async () => {
    const { app, starter } = await apiOnFreshTable();
    const body = structuredClone(samples.incidentTriggered());
    delete body.event.occurred_at;
    const response = await app.request('/webhooks/pagerduty', signed(body));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'the request body is not valid', issues: [{ path: 'body.event.occurred_at', message: 'Invalid input: expected string, received undefined' }] });
    expect(starter.started).toHaveLength(0);
  });
});
