import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LeakBlockedError } from '../../lib/model/gateway.ts';
import { describe, expect, it } from 'vitest';
import { ScenarioReplaySource } from '../../integrations/scenario/replay-source.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import { createSteps } from '../../lib/workflow/steps.ts';
import { runWorkflowLocally } from '../../local/run-workflow.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { freshStore } from '../support/dynamodb.ts';
import { ScriptedModel, finalAnswer } from '../support/scripted-model.ts';

const scenario = parseScenarioText(
  readFileSync(join(BUNDLED_SCENARIOS_DIR, 'bad-deploy-cascade.json'), 'utf8'),
  'bad-deploy-cascade.json',
);

const setUp = async (model: ScriptedModel) => {
  const { store } = await freshStore();
  await store.putSnapshot('env', { now: scenario.now, environment: scenario.environment });
  const dependencies = { store, model, tools: new ScenarioReplaySource(store), notifier: new RecordingNotifier() };
  return { store, dependencies };
};

const listAlarms = { toolCalls: [{ id: 'call_1', name: 'list_alarms', arguments: {} }] };

describe('workflow paths', () => {
  it('replays a committed step without calling the model again or writing twice', async () => {
    const model = new ScriptedModel((_, turn) => (turn === 1 ? listAlarms : { text: finalAnswer('inventory-api') }));
    const { store, dependencies } = await setUp(model);
    const run = await runWorkflowLocally({
      dependencies,
      input: { trigger: scenario.trigger, investigationId: 'replay-1', toolSource: { kind: 'scenario-replay', snapshot: 'env' } },
    });
    expect(run.status).toBe('SUCCEEDED');
    const before = await store.events('replay-1');
    const steps = createSteps(dependencies);
    const state = { investigationId: 'replay-1', iteration: 0, maxIterations: 8, finalOnly: false, stagnantTurns: 0 };
    const again = await steps['call-model'](state);
    expect(again).toEqual({ ...state, iteration: 1, next: 'tools', pendingApprovals: [] });
    await steps['run-tools']({ ...state, iteration: 1 });
    await steps.plan(state);
    expect(model.requests).toHaveLength(2);
    expect(await store.events('replay-1')).toEqual(before);
  });

  it('records a failing step, writes a partial finding marked incomplete and fails the execution', async () => {
    const model = new ScriptedModel((_, turn) => {
      if (turn === 2) throw new Error('provider exploded');
      return listAlarms;
    });
    const { store, dependencies } = await setUp(model);
    const run = await runWorkflowLocally({
      dependencies,
      input: { trigger: scenario.trigger, investigationId: 'fail-1', toolSource: { kind: 'scenario-replay', snapshot: 'env' } },
    });
    expect(run.status).toBe('FAILED');
    const investigation = await store.get('fail-1');
    expect(investigation?.status).toBe('failed');
    expect(investigation?.error).toContain('provider exploded');
    expect(investigation?.finding?.incomplete?.reason).toContain('provider exploded');
    expect(investigation?.finding?.evidence.map((item) => item.ref)).toEqual(['E1']);
    const types = (await store.events('fail-1')).map((event) => event.type);
    expect(types.slice(-2)).toEqual(['error', 'finding']);
  });

  it('asks for the final answer at the iteration cap and marks an unusable answer incomplete', async () => {
    const model = new ScriptedModel((request) => (request.toolChoice === 'none' ? { text: 'I still want more data' } : listAlarms));
    const { store, dependencies } = await setUp(model);
    const run = await runWorkflowLocally({
      dependencies,
      maxIterations: 2,
      input: { trigger: scenario.trigger, investigationId: 'cap-1', toolSource: { kind: 'scenario-replay', snapshot: 'env' } },
    });
    expect(run.status).toBe('SUCCEEDED');
    // Two tool turns, the final-answer turn, and one repair attempt of the unusable answer.
    expect(model.requests).toHaveLength(4);
    expect(model.requests[2]?.toolChoice).toBe('none');
    expect(model.requests[2]?.tools).toEqual([]);
    expect(model.requests[3]?.messages.at(-1)?.content).toMatch(/check of your draft/);
    const investigation = await store.get('cap-1');
    expect(investigation?.finding?.incomplete?.reason).toMatch(/no usable final answer/);
    expect(investigation?.finding?.remediation[0]?.action).toBe('escalate');
  });

  it('refuses an invalid trigger with the path of the problem', async () => {
    const model = new ScriptedModel(() => ({ text: finalAnswer('x') }));
    const { store, dependencies } = await setUp(model);
    const run = await runWorkflowLocally({ dependencies, input: { trigger: { question: { text: '' } }, investigationId: 'bad-1' } });
    expect(run.status).toBe('FAILED');
    expect(run.error).toMatch(/InvalidTriggerError|trigger is not valid/);
    expect(await store.get('bad-1')).toBeUndefined();
    expect(model.requests).toHaveLength(0);
  });

  it('refuses a second investigation of the same alert delivery', async () => {
    const model = new ScriptedModel(() => ({ text: finalAnswer('inventory-api') }));
    const { dependencies } = await setUp(model);
    const input = { trigger: scenario.trigger, toolSource: { kind: 'scenario-replay' as const, snapshot: 'env' } };
    expect((await runWorkflowLocally({ dependencies, input })).status).toBe('SUCCEEDED');
    const second = await runWorkflowLocally({ dependencies, input });
    expect(second.status).toBe('FAILED');
    expect(second.error).toMatch(/already/);
    // The first run's answer cites no real evidence, so it was revised once; the second run asked nothing.
    expect(model.requests).toHaveLength(2);
  });

  it('answers a repeated call with a pointer to the earlier evidence and asks for the answer when stuck', async () => {
    const model = new ScriptedModel((request) => (request.toolChoice === 'none' ? { text: finalAnswer('inventory-api') } : listAlarms));
    const { store, dependencies } = await setUp(model);
    const run = await runWorkflowLocally({
      dependencies,
      input: { trigger: scenario.trigger, investigationId: 'stuck-1', toolSource: { kind: 'scenario-replay', snapshot: 'env' } },
    });
    expect(run.status).toBe('SUCCEEDED');
    // One real call, two repeats, then the final answer is asked for.
    expect(model.requests.map((request) => request.toolChoice)).toEqual(['auto', 'auto', 'auto', 'none']);
    const results = (await store.events('stuck-1')).filter((event) => event.type === 'tool.result').map((event) => event.payload as { ref: string; summary: string });
    expect(results.map((result) => result.summary.startsWith('repeats an earlier call; see E1'))).toEqual([false, true, true]);
    const investigation = await store.get('stuck-1');
    expect(investigation?.usage.toolCalls).toBe(1);
    expect(investigation?.finding?.rootCause.service).toBe('inventory-api');
  });

  it('ends the loop with an incomplete finding that says which budget ran out', async () => {
    const model = new ScriptedModel(() => listAlarms);
    const { store, dependencies } = await setUp(model);
    const run = await runWorkflowLocally({
      dependencies: { ...dependencies, budget: { maxModelCalls: 2, maxTokens: 1_000_000, maxCostUsd: 10 } },
      input: { trigger: scenario.trigger, investigationId: 'budget-1', toolSource: { kind: 'scenario-replay', snapshot: 'env' } },
    });
    expect(run.status).toBe('SUCCEEDED');
    expect(model.requests).toHaveLength(2);
    const investigation = await store.get('budget-1');
    expect(investigation?.finding?.incomplete?.reason).toMatch(/^the investigation budget ran out: .*SRE_AGENT_MAX_MODEL_CALLS=2/);
    expect((await store.events('budget-1')).some((event) => event.type === 'error')).toBe(true);
  });

  it('ends the turn with a finding that says masking blocked the request, not a failed step', async () => {
    const model = new ScriptedModel(() => {
      throw new LeakBlockedError([{ type: 'USER' }]);
    });
    const { store, dependencies } = await setUp(model);
    const run = await runWorkflowLocally({
      dependencies,
      input: { trigger: scenario.trigger, investigationId: 'masking-1', toolSource: { kind: 'scenario-replay', snapshot: 'env' } },
    });
    expect(run.status).toBe('SUCCEEDED');
    const investigation = await store.get('masking-1');
    expect(investigation?.status).toBe('succeeded');
    expect(investigation?.finding?.incomplete?.reason).toMatch(/^masking blocked the model request \(1 unmasked value\(s\) of type USER\)/);
    expect(investigation?.finding?.incomplete?.reason).not.toMatch(/budget/);
  });

  it('reviews a final answer against the evidence and has a failing draft revised once', async () => {
    const badDraft = JSON.stringify({
      incident: true,
      rootCause: { service: 'mainframe', category: 'deploy', summary: 'guess' },
      confidence: 0.9,
      evidence: [{ ref: 'E9', summary: 'made up' }],
      remediation: [{ action: 'rollback', target: 'mainframe', detail: '' }],
    });
    const model = new ScriptedModel((request, turn) => {
      if (turn === 1) return { toolCalls: [{ id: 'call_1', name: 'get_dependencies', arguments: {} }] };
      return request.messages.at(-1)?.content.includes('check of your draft') ? { text: finalAnswer('inventory-api') } : { text: badDraft };
    });
    const { store, dependencies } = await setUp(model);
    const run = await runWorkflowLocally({
      dependencies,
      input: { trigger: scenario.trigger, investigationId: 'review-1', toolSource: { kind: 'scenario-replay', snapshot: 'env' } },
    });
    expect(run.status).toBe('SUCCEEDED');
    const reflection = (await store.events('review-1')).find((event) => event.type === 'reflection')?.payload as { problems: string[] };
    expect(reflection.problems.join(' ')).toMatch(/E9/);
    expect(reflection.problems.join(' ')).toMatch(/mainframe/);
    const finding = (await store.get('review-1'))?.finding;
    expect(finding?.rootCause.service).toBe('inventory-api');
    expect(finding?.review).toEqual({ passed: true, problems: [], revised: true });
    expect(finding?.report).toMatch(/## Review/);
  });

  it('caps a large tool result, keeping the rare decisive line, and records exactly what the model saw', async () => {
    const { store } = await freshStore();
    const start = Date.parse('2026-04-06T00:00:00Z');
    const logs = Array.from({ length: 20_000 }, (_, index) => ({
      service: 'orders',
      timestamp: new Date(start + index * 1000).toISOString(),
      level: index === 9_876 ? 'FATAL' : 'INFO',
      message: index === 9_876 ? 'migration 0042 failed: column "sku_v2" does not exist' : `GET /orders/${index} 200 ${index % 90}ms`,
    }));
    await store.putSnapshot('big', { now: '2026-04-06T06:00:00Z', environment: { logs } });
    const model = new ScriptedModel((_, turn) =>
      turn === 1 ? { toolCalls: [{ id: 'call_1', name: 'query_logs', arguments: { sinceMinutes: 600, limit: 200 } }] } : { text: finalAnswer('orders') },
    );
    const dependencies = { store, model, tools: new ScenarioReplaySource(store), notifier: new RecordingNotifier(), toolResultTokens: 2_000 };
    const run = await runWorkflowLocally({
      dependencies,
      input: { trigger: { question: { text: 'why do orders fail?' } }, investigationId: 'cap-big', toolSource: { kind: 'scenario-replay', snapshot: 'big' } },
    });
    expect(run.status).toBe('SUCCEEDED');
    const events = await store.events('cap-big');
    const result = events.find((event) => event.type === 'tool.result')!.payload as { summary: string; data: unknown };
    expect(result.summary).toMatch(/capped from about \d+ tokens/);
    expect(JSON.stringify(result.data)).toContain('migration 0042 failed');
    expect(JSON.stringify(result.data).length).toBeLessThan(2_000 * 4);
    const secondRequest = events.filter((event) => event.type === 'model.request')[1]!.payload as { messages: { role: string; content: string }[] };
    expect(secondRequest.messages.find((message) => message.role === 'tool')?.content).toContain('migration 0042 failed');
  });

  it('lets the same execution retry StartInvestigation after it created the investigation', async () => {
    const model = new ScriptedModel(() => ({ text: finalAnswer('inventory-api') }));
    const { dependencies } = await setUp(model);
    const steps = createSteps(dependencies);
    const input = { input: { trigger: scenario.trigger }, maxIterations: 8, executionId: 'arn:aws:states:us-east-1:123456789012:execution:sm:one' };
    const first = await steps['start-investigation'](input);
    expect(await steps['start-investigation'](input)).toEqual(first);
    await expect(steps['start-investigation']({ ...input, executionId: 'arn:aws:states:us-east-1:123456789012:execution:sm:two' })).rejects.toThrow(/already/);
  });
});
