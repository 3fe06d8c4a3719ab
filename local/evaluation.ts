import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from '../lib/domain/scenario.ts';
import { grade, type Grade } from '../lib/evaluation/grader.ts';
import type { ModelPort } from '../lib/model/port.ts';
import type { InvestigationBudget } from '../lib/workflow/budget.ts';
import { parseScenarioText, readScenarioFile, ScenarioError } from './scenario-files.ts';
import { investigateScenario, type InvestigationOptions, type LocalSession } from './session.ts';

export interface ScenarioResult {
  id: string;
  score: number;
  success: boolean;
  modelCalls: number;
  toolCalls: number;
  tokens: number;
  costUsd: number;
  wallMs: number;
  investigationId?: string;
  notes?: string[];
  error?: string;
}

export interface EvaluationReport {
  scenarios: ScenarioResult[];
  skipped: { file: string; problems: readonly string[] }[];
  totals: {
    count: number;
    meanScore: number;
    successRate: number;
    modelCalls: number;
    toolCalls: number;
    tokens: number;
    costUsd: number;
    wallMs: number;
  };
}

/** Every valid scenario file in a directory; invalid ones are reported, not fatal. */
export const loadScenarioDirectory = (directory: string): { scenarios: Scenario[]; skipped: EvaluationReport['skipped'] } => {
  const scenarios: Scenario[] = [];
  const skipped: EvaluationReport['skipped'] = [];
  const files = readdirSync(directory).filter((name) => name.endsWith('.json')).sort();
  for (const file of files) {
    try {
      scenarios.push(parseScenarioText(readScenarioFile(join(directory, file), file), file));
    } catch (error) {
      skipped.push({ file, problems: error instanceof ScenarioError ? error.problems : [String(error)] });
    }
  }
  return { scenarios, skipped };
};

export const summarize = (results: readonly ScenarioResult[]): EvaluationReport['totals'] => {
  const sum = (pick: (result: ScenarioResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  const count = results.length;
  return {
    count,
    meanScore: count === 0 ? 0 : Math.round((sum((result) => result.score) / count) * 1000) / 1000,
    successRate: count === 0 ? 0 : Math.round((results.filter((result) => result.success).length / count) * 1000) / 1000,
    modelCalls: sum((result) => result.modelCalls),
    toolCalls: sum((result) => result.toolCalls),
    tokens: sum((result) => result.tokens),
    costUsd: Math.round(sum((result) => result.costUsd) * 1e6) / 1e6,
    wallMs: sum((result) => result.wallMs),
  };
};

/** Runs one scenario through the real local workflow and grades its finding; a crash scores 0 with its error. */
export const evaluateScenario = async (
  session: Pick<LocalSession, 'store' | 'notifier'>,
  scenario: Scenario,
  model: ModelPort,
  options: Pick<InvestigationOptions, 'budget' | 'tools' | 'maxToolCallsPerTurn'> = {},
): Promise<ScenarioResult> => {
  const started = Date.now();
  try {
    const run = await investigateScenario(session, scenario, model, options);
    const { investigation } = run;
    const usage = investigation.usage;
    const graded: Grade | undefined = investigation.finding ? grade(scenario.truth, investigation.finding) : undefined;
    return {
      id: scenario.id,
      score: graded?.score ?? 0,
      success: graded?.success ?? false,
      modelCalls: usage.modelCalls,
      toolCalls: usage.toolCalls,
      tokens: usage.inputTokens + usage.outputTokens,
      costUsd: usage.costUsd,
      wallMs: Date.now() - started,
      investigationId: investigation.id,
      ...(graded && graded.notes.length > 0 ? { notes: graded.notes } : {}),
      ...(investigation.status === 'failed' ? { error: investigation.error ?? run.execution.error ?? 'failed' } : {}),
    };
  } catch (error) {
    return {
      id: scenario.id,
      score: 0,
      success: false,
      modelCalls: 0,
      toolCalls: 0,
      tokens: 0,
      costUsd: 0,
      wallMs: Date.now() - started,
      error: error instanceof Error ? error.message : String(error),
    };
  }
};

export const formatTable = (report: EvaluationReport): string => {
  const header = ['scenario', 'score', 'ok', 'model', 'tools', 'tokens', 'cost $', 'wall ms'];
  const rows = report.scenarios.map((result) => [
    result.id,
    result.score.toFixed(2),
    result.success ? 'yes' : result.error ? 'ERR' : 'no',
    String(result.modelCalls),
    String(result.toolCalls),
    String(result.tokens),
    result.costUsd.toFixed(4),
    String(result.wallMs),
  ]);
  const { totals } = report;
  const footer = ['TOTAL', totals.meanScore.toFixed(3), `${Math.round(totals.successRate * 100)}%`, String(totals.modelCalls), String(totals.toolCalls), String(totals.tokens), totals.costUsd.toFixed(4), String(totals.wallMs)];
  const widths = header.map((_, column) => Math.max(...[header, ...rows, footer].map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  return [line(header), ...rows.map(line), line(footer)].join('\n');
};
