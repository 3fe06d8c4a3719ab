import { describe, expect, it } from 'vitest';
import { OfflineAnalyst } from '../../lib/analyst/offline-analyst.ts';
import { grade, type Grade } from '../../lib/evaluation/grader.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import { loadScenarioDirectory } from '../../local/evaluation.ts';
import { BUNDLED_SCENARIOS_DIR } from '../../local/scenario-files.ts';
import { investigateScenario } from '../../local/session.ts';
import { freshStore } from '../support/dynamodb.ts';
import { rawIdentifiers } from '../support/raw-identifiers.ts';
import { expectCompleteTranscript } from '../support/transcript-shape.ts';

const { scenarios, skipped } = loadScenarioDirectory(BUNDLED_SCENARIOS_DIR);
const grades: (Grade & { id: string })[] = [];

describe('every bundled scenario, end to end through the local workflow', () => {
  it('loads every bundled scenario file', () => {
    expect(skipped).toEqual([]);
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
  });

  it.each(scenarios.map((scenario) => [scenario.id, scenario] as const))('%s', async (_, scenario) => {
    const { store } = await freshStore();
    const notifier = new RecordingNotifier();
    const progress: string[] = [];
    const run = await investigateScenario({ store, notifier }, scenario, new OfflineAnalyst(), { onProgress: (line) => progress.push(line) });

    expect(run.execution.status).toBe('SUCCEEDED');
    expect(run.investigation.status).toBe('succeeded');
    const finding = run.investigation.finding!;
    expect(finding.incomplete).toBeUndefined();
    // How right the diagnosis is counts in the suite's score below: the bundled suite is also the
    // tuning suite, and a hard scenario the analyst does not solve yet stays in it.
    grades.push({ ...grade(scenario.truth, finding), id: scenario.id });
    expect(progress).toEqual(expect.arrayContaining(['→ StartInvestigation', '→ Plan', '→ CallModel', '→ RunTools', '→ WriteFinding', '→ Publish']));
    // A health sweep that found nothing pages no one (lib/workflow/publish.ts).
    expect(notifier.notices).toHaveLength('schedule' in scenario.trigger && !finding.incident ? 0 : 1);

    const events = await store.events(run.investigationId);
    expectCompleteTranscript(events);
    expect(events.at(-1)?.type).toBe('notification');
    expect(run.investigation.usage.modelCalls).toBe(events.filter((event) => event.type === 'model.request').length);
    expect(run.investigation.usage.toolCalls).toBe(events.filter((event) => event.type === 'tool.call').length);

    // Nothing raw reaches a model: not the scenario's identifiers or secrets, not its id or title.
    const modelBound = events.filter((event) => event.type === 'model.request').map((event) => JSON.stringify(event.payload)).join('\n');
    const leaked = [...rawIdentifiers(scenario)].filter(([value]) => modelBound.includes(value));
    expect(leaked, JSON.stringify(leaked)).toEqual([]);
    expect(modelBound).not.toContain(scenario.title);
    expect(modelBound).not.toContain(`"${scenario.id}"`);
  });

  it('scores a mean of at least 0.9 with at least 90% successes (the contract grader)', () => {
    expect(grades).toHaveLength(scenarios.length);
    const mean = grades.reduce((sum, graded) => sum + graded.score, 0) / grades.length;
    const successRate = grades.filter((graded) => graded.success).length / grades.length;
    const missed = grades.filter((graded) => !graded.success).map((graded) => `${graded.id} ${graded.score.toFixed(2)}`);
    expect(mean, `missed: ${missed.join(', ')}`).toBeGreaterThanOrEqual(0.9);
    expect(successRate, `missed: ${missed.join(', ')}`).toBeGreaterThanOrEqual(0.9);
  });
});
