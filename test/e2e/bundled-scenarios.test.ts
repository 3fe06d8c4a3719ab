import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OfflineAnalyst } from '../../lib/analyst/offline-analyst.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { investigateScenario } from '../../local/session.ts';
import { freshStore } from '../support/dynamodb.ts';
import { expectCompleteTranscript } from '../support/transcript-shape.ts';

const skeletonScenarios = ['bad-deploy-cascade', 'db-connection-exhaustion', 'memory-leak-restarts'];

describe('local end-to-end execution of the workflow', () => {
  it.each(skeletonScenarios)('investigates %s and finds the root-cause service', async (id) => {
    const path = join(BUNDLED_SCENARIOS_DIR, `${id}.json`);
    const scenario = parseScenarioText(readFileSync(path, 'utf8'), path);
    const { store } = await freshStore();
    const notifier = new RecordingNotifier();
    const progress: string[] = [];
    const run = await investigateScenario({ store, notifier }, scenario, new OfflineAnalyst(), { onProgress: (line) => progress.push(line) });

    expect(run.execution.status).toBe('SUCCEEDED');
    expect(run.investigation.status).toBe('succeeded');
    expect(run.investigation.finding?.incomplete).toBeUndefined();
    expect(run.investigation.finding?.rootCause.service).toBe(scenario.truth.rootCause?.service);
    expect(progress).toEqual(expect.arrayContaining(['→ StartInvestigation', '→ Plan', '→ CallModel', '→ RunTools', '→ WriteFinding', '→ Publish']));
    expect(notifier.notices).toHaveLength(1);

    const events = await store.events(run.investigationId);
    expectCompleteTranscript(events);
    expect(events.at(-1)?.type).toBe('notification');
    const usage = run.investigation.usage;
    expect(usage.modelCalls).toBe(events.filter((event) => event.type === 'model.request').length);
    expect(usage.toolCalls).toBe(events.filter((event) => event.type === 'tool.call').length);
  });
});
