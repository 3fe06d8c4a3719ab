import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioReplaySource } from '../../integrations/scenario/replay-source.ts';
import { cloudWatchAlarmEvent, type CloudWatchAlarmEvent } from '../../lib/domain/trigger.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import { admitTrigger } from '../../lib/triggers/admit.ts';
import { runWorkflowLocally } from '../../local/run-workflow.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { apiOnFreshTable } from '../api/support.ts';
import { finalAnswer, ScriptedModel } from '../support/scripted-model.ts';

const scenario = parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, 'bad-deploy-cascade.json'), 'utf8'), 'bad-deploy-cascade.json');
const firstAlarm = (scenario.trigger as { cloudwatchAlarm: CloudWatchAlarmEvent }).cloudwatchAlarm;

/** Another alarm on the same target group (so it joins), named with the host's address, which the model must not see. */
const HOST_ADDRESS = '10.24.7.19';
const relatedAlarm = (): CloudWatchAlarmEvent => {
  const event = structuredClone(firstAlarm);
  const name = `storefront-web-p99-latency-${HOST_ADDRESS}`;
  event.id = 'second-delivery';
  event.detail.alarmName = name;
  event.resources = [`arn:aws:cloudwatch:us-east-1:${event.account}:alarm:${name}`];
  event.detail.state.timestamp = '2026-03-10T14:21:05.000+0000';
  return cloudWatchAlarmEvent.parse(event);
};

describe('triggers that join an open investigation', () => {
  it('reach the model on its next turn, one masked line each, through the gateway', async () => {
    const { ports, store, ledger, starter } = await apiOnFreshTable({ toolSource: { kind: 'scenario-replay', snapshot: 'env' } });
    await store.putSnapshot('env', { now: scenario.now, environment: scenario.environment });
    const first = await admitTrigger(ports, { cloudwatchAlarm: firstAlarm });
    expect(first.outcome).toBe('started');

    let joinedDuringTurnOne: string | undefined;
    const model = new ScriptedModel(async (_, turn) => {
      if (turn === 1) {
        // The alarm re-fires on a related resource while the model is thinking.
        const second = await admitTrigger(ports, { cloudwatchAlarm: relatedAlarm() });
        joinedDuringTurnOne = second.outcome;
        return { toolCalls: [{ id: 'call_1', name: 'list_alarms', arguments: {} }] };
      }
      return { text: finalAnswer('inventory-api') };
    });
    const run = await runWorkflowLocally({
      dependencies: { store, model, tools: new ScenarioReplaySource(store), notifier: new RecordingNotifier(), joinedTriggers: ledger },
      input: starter.started[0]!.input,
    });
    expect(run.status).toBe('SUCCEEDED');
    expect(joinedDuringTurnOne).toBe('joined');

    const said = (turn: number) => JSON.stringify(model.requests[turn]!.messages);
    expect(said(0)).not.toContain('joined this investigation');
    const note = model.requests[1]!.messages.at(-1)!;
    expect(note.role).toBe('user');
    expect(note.content).toMatch(/^1 more trigger joined this investigation/);
    expect(note.content).toMatch(/\n- 2026-03-10T14:21:05\.000Z: CloudWatch alarm storefront-web-p99-latency-<IP_\d+> is ALARM$/);
    for (const request of model.requests) expect(JSON.stringify(request)).not.toContain(HOST_ADDRESS);

    // What the model saw is what the transcript recorded.
    const recorded = (await store.events(first.investigationId)).filter((event) => event.type === 'model.request');
    expect(JSON.stringify(recorded[1]!.payload)).toContain('joined this investigation');
    expect(JSON.stringify(recorded)).not.toContain(HOST_ADDRESS);
  });

});
