import { Command } from 'commander';
import { selectModel } from '../model-selection.ts';
import { loadScenario } from '../scenario-files.ts';
import { positiveInteger, providerOption } from './arguments.ts';
import { DEFAULT_DATA_DIR, investigateScenario, openLocalSession } from '../session.ts';

export const investigateCommand = (setExitCode: (code: number) => void): Command =>
  new Command('investigate')
    .description('Investigate a scenario end to end through the local Step Functions workflow and print the report.')
    .requiredOption('--scenario <fileOrId>', 'a scenario file (sre-scenario/v1) or the id of a bundled scenario')
    .option('--json', 'print one JSON object {id, status, finding, usage} to stdout')
    .option('--data-dir <dir>', 'where DynamoDB Local keeps its data', DEFAULT_DATA_DIR)
    .option('--max-iterations <n>', 'model turns before the agent must answer', positiveInteger, 8)
    .addOption(providerOption())
    .action(async (options: { scenario: string; json?: boolean; dataDir: string; maxIterations: number; provider?: string }) => {
      const scenario = loadScenario(options.scenario);
      const { model, budget, masking } = await selectModel(options.provider);
      const session = await openLocalSession(options.dataDir);
      try {
        const run = await investigateScenario(session, scenario, model, {
          maxIterations: options.maxIterations,
          budget,
          ...(masking ? { masking } : {}),
          onProgress: (line) => process.stderr.write(`${line}\n`),
        });
        const { investigation } = run;
        if (options.json) {
          process.stdout.write(
            `${JSON.stringify({ id: investigation.id, status: investigation.status, finding: investigation.finding ?? null, usage: investigation.usage })}\n`,
          );
        } else {
          process.stdout.write(`\n${investigation.finding?.report ?? 'No finding was written.'}\n\n`);
          process.stdout.write(`Investigation ${investigation.id}: ${investigation.status}. Transcript: npx sre-agent transcript ${investigation.id}\n`);
        }
        if (investigation.status !== 'succeeded') {
          process.stderr.write(`investigation ${investigation.status}: ${investigation.error ?? run.execution.error ?? 'unknown error'}\n`);
        }
        setExitCode(investigation.status === 'succeeded' ? 0 : 1);
      } finally {
        await session.close();
      }
    });
