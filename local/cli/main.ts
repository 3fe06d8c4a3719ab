import { Command, CommanderError } from 'commander';
import { ModelConfigError } from '../../lib/model/config/index.ts';
import { SettingsError } from '../../lib/workflow/settings.ts';
import { ScenarioError } from '../scenario-files.ts';
import { evalCommand } from './eval.ts';
import { investigateCommand } from './investigate.ts';
import { listCommand } from './list.ts';
import { transcriptCommand } from './transcript.ts';

/** Exit codes: 0 done, 1 the investigation failed, 2 bad input. */
export const EXIT = { ok: 0, failed: 1, badInput: 2 } as const;

export const main = async (argv: readonly string[]): Promise<number> => {
  let exitCode: number = EXIT.ok;
  const program = new Command()
    .name('sre-agent')
    .description('Investigate incidents with the sre-agent workflow, locally on DynamoDB Local and the deployed state machine definition.')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  program.addCommand(investigateCommand((code) => (exitCode = code)));
  program.addCommand(transcriptCommand((code) => (exitCode = code)));
  program.addCommand(listCommand());
  program.addCommand(evalCommand((code) => (exitCode = code)));
  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    if (error instanceof ModelConfigError || error instanceof SettingsError) {
      process.stderr.write(`sre-agent: ${error.message}\n`);
      return EXIT.badInput;
    }
    if (error instanceof ScenarioError) {
      process.stderr.write(`sre-agent: invalid scenario ${error.message}\n`);
      return EXIT.badInput;
    }
    process.stderr.write(`sre-agent: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  }
};
