import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioReplaySource } from '../../integrations/scenario/replay-source.ts';
import { alarmView } from '../../lib/api/alarm-view.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import type { Trigger } from '../../lib/domain/trigger.ts';
import { runWorkflowLocally } from '../../local/run-workflow.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { apiOnFreshTable, samples } from '../api/support.ts';
import { ScriptedModel, finalAnswer } from '../support/scripted-model.ts';

const scenario = parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, 'bad-deploy-cascade.json'), 'utf8'), 'bad-deploy-cascade.json');

/** One investigation of the bundled scenario, run to the end by a model that reads the alarm's metric. */
const investigated = async () => {
  const api = await apiOnFreshTable();
  await api.store.putSnapshot('env', { now: scenario.now, environment: scenario.environment });
  const model = new ScriptedModel((_, turn) =>
    turn === 1 ? { toolCalls: [{ id: 'metrics', name: 'get_metrics', arguments: { service: 'storefront-web', name: '5XX' } }] } : { text: finalAnswer('inventory-api') },
  );
  const investigationId = `inv-${Math.random().toString(36).slice(2)}`;
  await runWorkflowLocally({
    dependencies: { store: api.store, model, tools: new ScenarioReplaySource(api.store), notifier: new RecordingNotifier() },
    input: { trigger: scenario.trigger, investigationId, toolSource: { kind: 'scenario-replay', snapshot: 'env' } },
  });
  return { ...api, investigationId };
};

const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as Record<string, any> });

describe('console routes', () => {
  it('GET /investigations/{id}/alarm gives the threshold, the onset, the metric and the evaluated datapoints', async () => {
    const { app, investigationId } = await investigated();
    const { status, body } = await json(await app.request(`/investigations/${investigationId}/alarm`));
    expect(status).toBe(200);
    expect(body.alarm).toMatchObject({
      name: 'storefront-web-alb-target-5xx',
      state: 'ALARM',
      onsetAt: '2026-03-10T14:17:31.841Z',
      threshold: 25,
      comparison: 'greater than or equal to',
      statistic: 'Sum',
      periodSeconds: 60,
      metric: { namespace: 'AWS/ApplicationELB', name: 'HTTPCode_Target_5XX_Count' },
      evaluatedPoints: [
        ['2026-03-10T14:14:00.000Z', 81],
        ['2026-03-10T14:15:00.000Z', 53],
        ['2026-03-10T14:16:00.000Z', 78],
      ],
    });
  });

  it('GET /investigations/{id}/transcript/unmasked resolves the placeholders the model saw, page by page', async () => {
    const { app, investigationId } = await investigated();
    const masked = await json(await app.request(`/investigations/${investigationId}/transcript?limit=500`));
    const unmasked = await json(await app.request(`/investigations/${investigationId}/transcript/unmasked?limit=500`));
    expect(unmasked.status).toBe(200);
    expect(JSON.stringify(masked.body)).toContain('<LOAD_BALANCER_1>');
    expect(JSON.stringify(unmasked.body)).not.toContain('<LOAD_BALANCER_1>');
    expect(JSON.stringify(unmasked.body)).toContain('app/prod-shop-public/7f3c9a21b4e6d580');
    expect(unmasked.body.events.map((event: { seq: number }) => event.seq)).toEqual(masked.body.events.map((event: { seq: number }) => event.seq));
    const first = await json(await app.request(`/investigations/${investigationId}/transcript/unmasked?limit=2`));
    expect(first.body.events.map((event: { seq: number }) => event.seq)).toEqual([1, 2]);
    const second = await json(await app.request(`/investigations/${investigationId}/transcript/unmasked?limit=2&cursor=${first.body.nextCursor}`));
    expect(second.body.events[0].seq).toBe(3);
  });

  it('answers 404 for an unknown investigation and 400 naming the field for a bad id or query', async () => {
    const { app } = await apiOnFreshTable();
    expect((await json(await app.request('/investigations/inv-unknown/alarm'))).status).toBe(404);
    const badId = await json(await app.request('/investigations/bad%20id/transcript/unmasked'));
    expect(badId).toMatchObject({ status: 400, body: { issues: [{ path: 'path.id' }] } });
    const badQuery = await json(await app.request('/investigations/inv-1/alarm?view=raw'));
    expect(badQuery.status).toBe(400);
  });
});

describe('the alarm view', () => {
  it('a metric-math alarm has no single metric but its label, threshold and datapoints', () => {
    const view = alarmView({ cloudwatchAlarm: samples.metricMathAlarm() } as Trigger);
    expect(view).toMatchObject({ metric: null, label: 'Throttled invocations (%)', threshold: 5, comparison: 'greater than' });
    expect(view?.evaluatedPoints).toHaveLength(2);
  });

  it('a composite alarm has its rule and no threshold; a question has no alarm', () => {
    expect(alarmView({ cloudwatchAlarm: samples.compositeAlarm() } as Trigger)).toMatchObject({ threshold: null, metric: null, rule: expect.stringContaining('ALARM("cart-api-p99-latency")') });
    expect(alarmView({ question: { text: 'why?' } })).toBeNull();
  });
});
