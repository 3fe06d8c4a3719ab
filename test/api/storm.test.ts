import { describe, expect, it } from 'vitest';
import { investigationEnded } from '../../lib/triggers/admit.ts';
import { apiOnFreshTable, samples } from './support.ts';

const SERVICES = Array.from({ length: 10 }, (_, index) => `service-${index}`);
const ALARMS = ['5xx', 'p99-latency', 'error-rate', 'unhealthy-hosts'];

/** Alarm `alarm` on `service`'s target group entering ALARM at `stateAt`: a real event, renamed. */
const alarmEvent = (service: string, alarm: string, stateAt: Date, deliveryId: string) => {
  const event = structuredClone(samples.singleMetricAlarm());
  const name = `${service}-${alarm}`;
  event.id = deliveryId;
  event.time = stateAt.toISOString();
  event.resources = [`arn:aws:cloudwatch:us-east-1:123456789012:alarm:${name}`];
  event.detail.alarmName = name;
  event.detail.state.timestamp = stateAt.toISOString().replace('Z', '+0000');
  event.detail.configuration.metrics[0].metricStat.metric.dimensions = {
    LoadBalancer: 'app/prod-public/7f3c9a21b4e6d580',
    TargetGroup: `targetgroup/${service}/3d8e1f6a9c2b4701`,
  };
  return event;
};

const post = (app: { request: (path: string, init: RequestInit) => Response | Promise<Response> }, event: unknown) =>
  app.request('/events', { method: 'POST', body: JSON.stringify(event), headers: { 'content-type': 'application/json' } });

describe('alarm storms', () => {
  it('1,000 alarm events for 10 services start at most 10 investigations, and every event is attached to one', async () => {
    let now = Date.parse('2026-04-06T04:00:00Z');
    const clock = () => new Date(now);
    const { app, starter } = await apiOnFreshTable({ maxRunning: 20 }, clock);
    const events = Array.from({ length: 1000 }, (_, index) =>
      alarmEvent(SERVICES[index % SERVICES.length]!, ALARMS[Math.floor(index / 10) % ALARMS.length]!, new Date(now + index * 150), `delivery-${index}`),
    );
    const ids: string[] = [];
    // Deliveries arrive 25 at a time over about four minutes.
    for (let start = 0; start < events.length; start += 25) {
      const batch = events.slice(start, start + 25);
      const responses = await Promise.all(batch.map((event) => post(app, event)));
      for (const response of responses) {
        expect(response.status).toBe(202);
        const body = (await response.json()) as { id: string; outcome: string };
        expect(['started', 'joined']).toContain(body.outcome);
        ids.push(body.id);
      }
      now += 6_000;
    }
    const startedIds = starter.started.map((start) => start.investigationId);
    expect(startedIds.length).toBeLessThanOrEqual(10);
    expect(new Set(startedIds).size).toBe(startedIds.length);
    expect(ids.every((id) => startedIds.includes(id))).toBe(true);

    const counts = await Promise.all(
      startedIds.map(async (id) => ((await (await app.request(`/investigations/${id}`)).json()) as { triggerCount: number; service: string }).triggerCount),
    );
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1000);

    const redelivered = await post(app, events[500]);
    expect(await redelivered.json()).toEqual({ id: ids[500], outcome: 'duplicate' });
    const sameAlarmStateNewDelivery = await post(app, { ...events[700], id: 'another-delivery-id' });
    expect(((await sameAlarmStateNewDelivery.json()) as { outcome: string }).outcome).toBe('duplicate');
    expect(starter.started).toHaveLength(startedIds.length);
    const after = await Promise.all(
      startedIds.map(async (id) => ((await (await app.request(`/investigations/${id}`)).json()) as { triggerCount: number }).triggerCount),
    );
    expect(after.reduce((sum, count) => sum + count, 0)).toBe(1000);
  }, 300_000);

  it('a re-firing after the window starts a new investigation; within it, one that ended records it', async () => {
    let now = Date.parse('2026-04-06T04:00:00Z');
    const { app, starter } = await apiOnFreshTable({ groupWindowMs: 30 * 60_000 }, () => new Date(now));
    const first = (await (await post(app, alarmEvent('orders', '5xx', new Date(now), 'd1'))).json()) as { id: string };
    now += 29 * 60_000;
    const refire = (await (await post(app, alarmEvent('orders', '5xx', new Date(now), 'd2'))).json()) as { id: string; outcome: string };
    expect(refire).toEqual({ id: first.id, outcome: 'joined' });
    // The window slides from the group's last trigger: 29 more minutes still joins.
    now += 29 * 60_000;
    const later = (await (await post(app, alarmEvent('orders', 'p99-latency', new Date(now), 'd3'))).json()) as { id: string; outcome: string };
    expect(later).toEqual({ id: first.id, outcome: 'joined' });
    now += 31 * 60_000;
    const afterWindow = (await (await post(app, alarmEvent('orders', '5xx', new Date(now), 'd4'))).json()) as { id: string; outcome: string };
    expect(afterWindow.outcome).toBe('started');
    expect(afterWindow.id).not.toBe(first.id);
    expect(starter.started.map((start) => start.investigationId)).toEqual([first.id, afterWindow.id]);
    const view = (await (await app.request(`/investigations/${first.id}`)).json()) as { triggerCount: number; joinedTriggers: unknown[] };
    expect(view.triggerCount).toBe(3);
    expect(view.joinedTriggers).toHaveLength(2);
  });

  it('a cap on running investigations queues the rest and starts them as slots free up; nothing is dropped', async () => {
    const { app, ports, starter } = await apiOnFreshTable({ maxRunning: 3 });
    const responses = await Promise.all(
      SERVICES.map(async (service, index) => (await post(app, alarmEvent(service, '5xx', new Date(Date.parse('2026-04-06T04:00:00Z') + index), `d-${service}`))).json()),
    );
    const outcomes = (responses as { outcome: string }[]).map((response) => response.outcome);
    expect(outcomes.filter((outcome) => outcome === 'started')).toHaveLength(3);
    expect(outcomes.filter((outcome) => outcome === 'queued')).toHaveLength(7);
    const queuedList = (await (await app.request('/investigations?status=queued')).json()) as { items: unknown[] };
    expect(queuedList.items).toHaveLength(7);
    while (starter.started.length < SERVICES.length) {
      const running = starter.started.length;
      await investigationEnded(ports, starter.started[running - 1]!.investigationId);
      expect(starter.started.length).toBe(running + 1);
    }
    expect(new Set(starter.started.map((start) => start.investigationId)).size).toBe(SERVICES.length);
  });
});
