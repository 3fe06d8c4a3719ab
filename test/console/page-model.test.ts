import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioReplaySource } from '../../integrations/scenario/replay-source.ts';
import { alarmView } from '../../lib/api/alarm-view.ts';
import type { TranscriptEvent } from '../../lib/domain/transcript.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import { chartData } from '../../local/console/web/chart-data.ts';
import { evidenceEvents } from '../../local/console/web/evidence.ts';
import { parseMarkdown } from '../../local/console/web/markdown.ts';
import { timelineOf } from '../../local/console/web/timeline.ts';
import { routeOf } from '../../local/console/web/view.ts';
import { runWorkflowLocally } from '../../local/run-workflow.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { freshStore } from '../support/dynamodb.ts';
import { ScriptedModel, finalAnswer } from '../support/scripted-model.ts';

const scenario = parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, 'bad-deploy-cascade.json'), 'utf8'), 'bad-deploy-cascade.json');

/** The transcript of the bundled bad deploy, read by a model that looks at alarms, the alarm's metric, changes and logs. */
const transcript = async (): Promise<TranscriptEvent[]> => {
  const { store } = await freshStore();
  await store.putSnapshot('env', { now: scenario.now, environment: scenario.environment });
  const model = new ScriptedModel((_, turn) =>
    turn === 1
      ? {
          toolCalls: [
            { id: 'alarms', name: 'list_alarms', arguments: {} },
            { id: 'metric', name: 'get_metrics', arguments: { service: 'storefront-web', name: '5XX' } },
            { id: 'changes', name: 'list_changes', arguments: {} },
            { id: 'logs', name: 'query_logs', arguments: { service: 'inventory-api' } },
          ],
        }
      : { text: finalAnswer('inventory-api') },
  );
  const investigationId = `inv-${Math.random().toString(36).slice(2)}`;
  await runWorkflowLocally({
    dependencies: { store, model, tools: new ScenarioReplaySource(store), notifier: new RecordingNotifier() },
    input: { trigger: scenario.trigger, investigationId, toolSource: { kind: 'scenario-replay', snapshot: 'env' } },
  });
  return store.events(investigationId);
};

describe('what the console derives from an investigation', async () => {
  const events = await transcript();
  const alarm = alarmView(scenario.trigger);

  it('charts the alarm metric the model read, with the threshold, the onset and the changes inside its window', () => {
    const data = chartData({ service: 'storefront-web' }, alarm, events)!;
    expect(data.title).toBe('HTTPCode_Target_5XX_Count (storefront-web)');
    expect(data.threshold).toBe(25);
    expect(data.onset).toBe(Date.parse('2026-03-10T14:17:31.841Z') / 1000);
    expect(data.times.length).toBe(data.values.length);
    expect(data.times).toEqual([...data.times].sort((a, b) => a - b));
    expect(data.changes.map((change) => change.label)).toContainEqual(expect.stringContaining('inventory-api v2.14.0 rolled out'));
    // payments-api deployed at 11:40, before the series starts.
    expect(data.changes.map((change) => change.label)).not.toContainEqual(expect.stringContaining('payments-api'));
    expect(data.source).toBe(`get_metrics result ${[...evidenceEvents(events)].find(([, seq]) => seq === data.seq)?.[0]}`);
  });

  it('falls back to the datapoints the alarm evaluated when the model read no metric', () => {
    const data = chartData({ service: 'storefront-web' }, alarm, events.filter((event) => event.type !== 'tool.result'))!;
    expect(data.values).toEqual([81, 53, 78]);
    expect(data.source).toBe('the datapoints the alarm evaluated when it changed state');
  });

  it('orders the changes, the first errors, the onset and the symptoms in time, each tied to its event', () => {
    const entries = timelineOf(events, alarm, chartData({ service: 'storefront-web' }, alarm, events));
    expect(entries.map((entry) => entry.at)).toEqual(entries.map((entry) => entry.at).sort());
    const kinds = (kind: string) => entries.filter((entry) => entry.kind === kind);
    const deploy = kinds('change').find((entry) => entry.text.includes('inventory-api v2.14.0 rolled out'))!;
    const firstError = kinds('first error').find((entry) => entry.text.startsWith('inventory-api:'))!;
    const onset = kinds('alarm onset')[0]!;
    expect(deploy.at < firstError.at && firstError.at < onset.at).toBe(true);
    expect(firstError.text).toContain('BadSqlGrammarException');
    expect(onset).toMatchObject({ at: '2026-03-10T14:17:31.841Z', seq: null, text: 'alarm storefront-web-alb-target-5xx ALARM: greater than or equal to 25' });
    expect(kinds('symptom').map((entry) => entry.text)).toContainEqual('alarm checkout-api-target-5xx (checkout-api) in ALARM');
    for (const entry of entries.filter((candidate) => candidate.seq !== null)) expect(events.some((event) => event.seq === entry.seq)).toBe(true);
  });
});

describe('report markdown', () => {
  it('keeps markup as text: a tag in the report is a text run, never an element', () => {
    const blocks = parseMarkdown('## Root cause\nThe log says <img src=x onerror="alert(1)"> and **E2** shows _it_.\n\n- one `two`\n- three');
    expect(blocks).toEqual([
      { kind: 'heading', level: 2, inlines: [{ kind: 'text', text: 'Root cause' }] },
      {
        kind: 'paragraph',
        inlines: [
          { kind: 'text', text: 'The log says <img src=x onerror="alert(1)"> and ' },
          { kind: 'strong', children: [{ kind: 'text', text: 'E2' }] },
          { kind: 'text', text: ' shows ' },
          { kind: 'em', children: [{ kind: 'text', text: 'it' }] },
          { kind: 'text', text: '.' },
        ],
      },
      { kind: 'list', ordered: false, items: [[{ kind: 'text', text: 'one ' }, { kind: 'code', text: 'two' }], [{ kind: 'text', text: 'three' }]] },
    ]);
  });

  it('reads numbered lists and fenced code, and leaves snake_case names alone', () => {
    expect(parseMarkdown('1. **rollback** inventory-api\n2. ecs_set_desired_count\n```\n<b>raw</b>\n```')).toEqual([
      { kind: 'list', ordered: true, items: [[{ kind: 'strong', children: [{ kind: 'text', text: 'rollback' }] }, { kind: 'text', text: ' inventory-api' }], [{ kind: 'text', text: 'ecs_set_desired_count' }]] },
      { kind: 'code', text: '<b>raw</b>' },
    ]);
  });
});

describe('console routes in the hash', () => {
  it('reads the list with its filters, an investigation with an event, the approvals, and anything else as not found', () => {
    expect(routeOf('')).toEqual({ name: 'investigations' });
    expect(routeOf('#/?status=running&service=checkout-api')).toEqual({ name: 'investigations', status: 'running', service: 'checkout-api' });
    expect(routeOf('#/investigations/inv-1')).toEqual({ name: 'investigation', id: 'inv-1' });
    expect(routeOf('#/investigations/inv-1/events/7')).toEqual({ name: 'investigation', id: 'inv-1', seq: 7 });
    expect(routeOf('#/approvals?status=expired')).toEqual({ name: 'approvals', status: 'expired' });
    expect(routeOf('#main')).toEqual({ name: 'not-found', hash: '#main' });
  });
});
