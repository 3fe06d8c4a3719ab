import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { evaluateBaseline } from '../baseline.ts';
import { evaluateScenario, formatTable, loadScenarioDirectory, summarize, type EvaluationReport, type ScenarioResult } from '../evaluation.ts';
import { selectModel } from '../model-selection.ts';
import { withCoarserMetrics } from '../coarser-metrics.ts';
import { BUNDLED_SCENARIOS_DIR } from '../scenario-files.ts';
import { openLocalSession } from '../session.ts';
import { existingDirectory, positiveInteger, providerOption, toolsOption } from './arguments.ts';
import type { ToolChoice } from '../session.ts';

export const evalCommand = (): Command =>
  new Command('eval')
    .description('Run every scenario in a directory through the local workflow and grade the findings.')
    .option('--scenarios <dir>', 'a directory of sre-scenario/v1 files', existingDirectory, BUNDLED_SCENARIOS_DIR)
    .addOption(providerOption())
    .option('--repeat <n>', 'run each scenario this many times', positiveInteger, 1)
    .option('--json <file>', 'also write the results as JSON to this file')
    .option('--data-dir <dir>', 'keep DynamoDB Local data here (default: in memory)')
    .option('--baseline', 'bare-model baseline: one call with the trigger and all the data, no tools, no workflow')
    .option('--coarsen <factor>', 'read every metric at this many times its period (sums add, extremes keep the extreme, the rest average): do the diagnoses hold on sparse data?', positiveInteger, 1)
    .addOption(toolsOption())
    .action(async (options: { scenarios: string; provider?: string; repeat: number; json?: string; dataDir?: string; baseline?: boolean; coarsen: number; tools: ToolChoice }) => {
      const loaded = loadScenarioDirectory(options.scenarios);
      const { skipped } = loaded;
      const scenarios = loaded.scenarios.map((scenario) => withCoarserMetrics(scenario, options.coarsen));
      for (const { file, problems } of skipped) {
        process.stderr.write(`skipped ${file}: invalid scenario\n${problems.map((problem) => `  - ${problem}`).join('\n')}\n`);
      }
      const { model, budget, maxToolCallsPerTurn } = await selectModel(options.provider);
      const session = await openLocalSession(options.dataDir ?? null);
      const results: ScenarioResult[] = [];
      try {
        for (const scenario of scenarios) {
          for (let run = 1; run <= options.repeat; run += 1) {
            const result = options.baseline ? await evaluateBaseline(scenario, model) : await evaluateScenario(session, scenario, model, { tools: options.tools, budget, ...(maxToolCallsPerTurn === undefined ? {} : { maxToolCallsPerTurn }) });
            results.push(result);
            process.stderr.write(`${result.id}${options.repeat > 1 ? ` #${run}` : ''}: ${result.score.toFixed(2)}${result.error ? ` (error: ${result.error})` : ''}${result.notes ? ` [${result.notes.join('; ')}]` : ''}\n`);
          }
        }
      } finally {
        await session.close();
      }
      const report: EvaluationReport = { scenarios: results, skipped, totals: summarize(results) };
      process.stdout.write(`${formatTable(report)}\n`);
      if (options.json) writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
    });
