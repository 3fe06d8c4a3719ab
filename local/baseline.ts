import { scenarioTools } from '../integrations/scenario/index.ts';
import type { Scenario } from '../lib/domain/scenario.ts';
import { grade } from '../lib/evaluation/grader.ts';
import { Masker } from '../lib/masking/index.ts';
import { parseFinalAnswer } from '../lib/model/final-answer.ts';
import { completeThroughGateway } from '../lib/model/gateway.ts';
import type { ModelPort } from '../lib/model/port.ts';
import { costOf } from '../lib/model/pricing.ts';
import { surveyCalls } from '../lib/tools/contracts/survey.ts';
import { Toolbox } from '../lib/tools/toolbox.ts';
import { describeTrigger } from '../lib/triggers/brief.ts';
import { systemPrompt } from '../lib/workflow/prompts.ts';
import { findingFrom, incompleteFinding } from '../lib/workflow/report.ts';
import type { ScenarioResult } from './evaluation.ts';

/** Everything the tools could return at once, over the widest window: what a bare prompt gets. */
const allData = async (scenario: Scenario): Promise<Record<string, unknown>> => {
  const now = new Date(scenario.now);
  const toolbox = new Toolbox(scenarioTools(scenario.environment, now));
  const data: Record<string, unknown> = {};
  for (const { contract: { name }, arguments: args } of surveyCalls(7 * 24 * 60, 'DEBUG')) {
    const outcome = await toolbox.execute({ id: name, name, arguments: args as Record<string, unknown> }, { now });
    data[name] = outcome.ok ? outcome.data : { error: outcome.error };
  }
  return data;
};

/**
 * The bare-model baseline: one call with the trigger and all the data, no tools, through the same
 * masking chokepoint, graded like the agent. It tells whether the agent beats a plain prompt.
 */
export const evaluateBaseline = async (scenario: Scenario, model: ModelPort): Promise<ScenarioResult> => {
  const started = Date.now();
  const masker = new Masker();
  try {
    const content = `${describeTrigger(scenario.trigger).text}\n\nAll the data available, as JSON:\n${JSON.stringify(await allData(scenario))}`;
    const { response } = await completeThroughGateway(model, masker, {
      system: systemPrompt(),
      messages: [{ role: 'user', content }],
      tools: [],
      toolChoice: 'none',
    });
    const answer = parseFinalAnswer(response.text);
    const finding = answer.ok ? findingFrom(masker.unmaskJson(answer.draft), new Map()) : incompleteFinding(answer.error, new Map());
    const graded = grade(scenario.truth, finding);
    return {
      id: scenario.id,
      score: graded.score,
      success: graded.success,
      modelCalls: 1,
      toolCalls: 0,
      tokens: response.usage.inputTokens + response.usage.outputTokens,
      costUsd: costOf(response.model, response.usage),
      wallMs: Date.now() - started,
      ...(graded.notes.length > 0 ? { notes: graded.notes } : {}),
    };
  } catch (error) {
    return { id: scenario.id, score: 0, success: false, modelCalls: 1, toolCalls: 0, tokens: 0, costUsd: 0, wallMs: Date.now() - started, error: error instanceof Error ? error.message : String(error) };
  }
};
