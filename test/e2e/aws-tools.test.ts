import { describe, expect, it } from 'vitest';
import { OfflineAnalyst } from '../../lib/analyst/offline-analyst.ts';
import { grade } from '../../lib/evaluation/grader.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import { loadScenarioDirectory } from '../../local/evaluation.ts';
import { BUNDLED_SCENARIOS_DIR } from '../../local/scenario-files.ts';
import { investigateScenario } from '../../local/session.ts';
import { freshStore } from '../support/dynamodb.ts';
import { rawIdentifiers } from '../support/raw-identifiers.ts';
import { expectCompleteTranscript } from '../support/transcript-shape.ts';

const { scenarios } = loadScenarioDirectory(BUNDLED_SCENARIOS_DIR);
const scores = { replay: [] as number[], aws: [] as number[] };

/**
 * The AWS tool code, its SDK calls answered from each bundled scenario's recorded environment in
 * the APIs' own response shapes: the same investigation as the replay tools, within 0.02 of their
 * score, and nothing raw from the AWS-shaped results reaches the model.
 */
describe('the AWS tools over every bundled scenario (SDK calls answered from the scenario)', () => {
  it.each(scenarios.map((scenario) => [scenario.id, scenario] as const))('%s', async (_, scenario) => {
    const { store } = await freshStore();
    const notifier = new RecordingNotifier();
    const aws = await investigateScenario({ store, notifier }, scenario, new OfflineAnalyst(), { tools: 'aws' });
    expect(aws.execution.status, aws.execution.error).toBe('SUCCEEDED');
    expect(aws.investigation.toolSource.kind).toBe('aws');
    const events = await store.events(aws.investigationId);
    expectCompleteTranscript(events);
    const contractErrors = events.filter((event) => event.type === 'tool.result' && /breaks its contract/.test(JSON.stringify(event.payload)));
    expect(contractErrors, JSON.stringify(contractErrors.slice(0, 2))).toEqual([]);
    const modelBound = events.filter((event) => event.type === 'model.request').map((event) => JSON.stringify(event.payload)).join('\n');
    const leaked = [...rawIdentifiers(scenario)].filter(([value]) => modelBound.includes(value));
    expect(leaked, JSON.stringify(leaked)).toEqual([]);

    const replay = await investigateScenario({ store, notifier }, scenario, new OfflineAnalyst(), { tools: 'replay' });
    scores.aws.push(grade(scenario.truth, aws.investigation.finding!).score);
    scores.replay.push(grade(scenario.truth, replay.investigation.finding!).score);
  });

  it('scores within 0.02 of the replay tools', () => {
    expect(scores.aws).toHaveLength(scenarios.length);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(Math.abs(mean(scores.aws) - mean(scores.replay))).toBeLessThanOrEqual(0.02);
  });
});
