import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioReplaySource } from '../../integrations/scenario/replay-source.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import { DynamoDbStore } from '../../lib/store/dynamodb-store.ts';
import type { StepCommit } from '../../lib/store/port.ts';
import { createSteps } from '../../lib/workflow/steps.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { freshStore } from '../support/dynamodb.ts';
import { ScriptedModel, finalAnswer } from '../support/scripted-model.ts';
import { expectCompleteTranscript } from '../support/transcript-shape.ts';

const scenario = parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, 'bad-deploy-cascade.json'), 'utf8'), 'bad-deploy-cascade.json');

/** A store whose commit of a chosen step fails once, as a lost connection would. */
class FlakyCommitStore extends DynamoDbStore {
  readonly failNext = new Set<string>();

  override async commitStep(id: string, commit: StepCommit): Promise<void> {
    if (this.failNext.delete(commit.step)) throw new Error(`connection lost while committing ${commit.step}`);
    return super.commitStep(id, commit);
  }
}

const setUp = async (model: ScriptedModel) => {
  const { client, tableName } = await freshStore();
  const store = new FlakyCommitStore({ client, tableName });
  await store.putSnapshot('env', { now: scenario.now, environment: scenario.environment });
  const notifier = new RecordingNotifier();
  const steps = createSteps({ store, model, tools: new ScenarioReplaySource(store), notifier });
  const start = async (investigationId: string) => {
    const state = await steps['start-investigation']({
      input: { trigger: scenario.trigger, investigationId, toolSource: { kind: 'scenario-replay', snapshot: 'env' } },
      maxIterations: 8,
    });
    return steps.plan(state);
  };
  return { store, notifier, steps, start };
};

const listAlarms = { toolCalls: [{ id: 'call_1', name: 'list_alarms', arguments: {} }] };

describe('side effects happen once', () => {
  it('leaves one model call per turn, one notification and a consistent transcript when commits fail after the model answered and around the publish', async () => {
    const model = new ScriptedModel((_, turn) => (turn === 1 ? listAlarms : { text: finalAnswer('inventory-api') }));
    const { store, notifier, steps, start } = await setUp(model);
    const planned = await start('flaky-commits');

    store.failNext.add('call-model#1');
    await expect(steps['call-model'](planned)).rejects.toThrow(/connection lost/);
    const firstTurn = await steps['call-model'](planned);
    expect(model.requests).toHaveLength(1);

    const toolsRun = await steps['run-tools'](firstTurn);
    store.failNext.add('call-model#2');
    await expect(steps['call-model'](toolsRun)).rejects.toThrow(/connection lost/);
    const answered = await steps['call-model'](toolsRun);
    expect(model.requests).toHaveLength(2);

    const written = await steps['write-finding'](answered);
    store.failNext.add('publish');
    await expect(steps.publish(written)).rejects.toThrow(/connection lost/);
    expect(notifier.notices).toHaveLength(0);
    await steps.publish(written);
    await steps.publish(written);
    expect(notifier.notices).toHaveLength(1);

    const events = await store.events('flaky-commits');
    expectCompleteTranscript(events);
    expect(events.filter((event) => event.type === 'notification')).toHaveLength(1);
    const investigation = await store.get('flaky-commits');
    expect(investigation?.status).toBe('succeeded');
    expect(investigation?.usage.modelCalls).toBe(2);
  });

  it('makes one model call for two concurrent replays of one step', async () => {
    const model = new ScriptedModel(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return listAlarms;
    });
    const { store, start, steps } = await setUp(model);
    const planned = await start('concurrent');
    const [one, other] = await Promise.all([steps['call-model'](planned), steps['call-model'](planned)]);
    expect(one).toEqual(other);
    expect(model.requests).toHaveLength(1);
    expect((await store.events('concurrent')).map((event) => event.type)).toEqual(['plan', 'model.request', 'model.response']);
  });

  it('lets a retry call the model again when the first call failed', async () => {
    const model = new ScriptedModel((_, turn) => {
      if (turn === 1) throw new Error('provider overloaded');
      return listAlarms;
    });
    const { start, steps } = await setUp(model);
    const planned = await start('model-failed');
    await expect(steps['call-model'](planned)).rejects.toThrow(/provider overloaded/);
    expect(await steps['call-model'](planned)).toMatchObject({ iteration: 1, next: 'tools' });
    expect(model.requests).toHaveLength(2);
  });
});
