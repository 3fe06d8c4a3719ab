import { Command, CommanderError } from 'commander';
import { ModelConfigError } from '../../lib/model/config/index.ts';
import { SettingsError } from '../../lib/workflow/settings.ts';
import { ScenarioError } from '../scenario-files.ts';
import { consoleCommand } from './console.ts';
import { evalCommand } from './eval.ts';
import { investigateCommand } from './investigate.ts';
import { listCommand } from './list.ts';
import { serveCommand } from './serve.ts';
import { transcriptCommand } from './transcript.ts';

/** Exit codes: 0 done, 1 the investigation failed, 2 bad input. */
export const EXIT = { ok: 0, failed: 1, badInput: 2 } as const;

const commandPath = (command: Command): string => (command.parent ? `${commandPath(command.parent)} ${command.name()}` : command.name());

/**
 * Commander's own `exitOverride` applies to the command it is set on, not to subcommands added
 * with `addCommand`; without it a bad option on a subcommand exits 1 from inside commander. Here
 * every command throws instead, so `main` maps each of commander's errors to exit 2, and the
 * message (which names the option) ends with where to read the command's options.
 */
const reportBadInputOnEveryCommand = (command: Command): void => {
  command
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) })
    .showHelpAfterError(`(see: ${commandPath(command)} --help)`);
  command.commands.forEach(reportBadInputOnEveryCommand);
};

/** The `sre-agent` command with every subcommand; commands set the exit code through `setExitCode`. */
export const createProgram = (setExitCode: (code: number) => void): Command => {
  const program = new Command()
    .name('sre-agent')
    .description('Investigate incidents with the sre-agent workflow, locally on DynamoDB Local and the deployed state machine definition.');
  program.addCommand(investigateCommand(setExitCode));
  program.addCommand(transcriptCommand(setExitCode));
  program.addCommand(listCommand());
  program.addCommand(evalCommand());
  program.addCommand(serveCommand());
  program.addCommand(consoleCommand());
  // Last, so every command added above, now or later, inherits it.
  reportBadInputOnEveryCommand(program);
  return program;
};

export const main = async (argv: readonly string[]): Promise<number> => {
  let exitCode: number = EXIT.ok;
  const program = createProgram((code) => (exitCode = code));
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
