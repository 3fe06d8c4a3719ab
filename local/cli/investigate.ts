import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import type { Trigger } from '../../lib/domain/trigger.ts';
import { triggerFromEvent } from '../../lib/triggers/from-event.ts';
import { selectModel } from '../model-selection.ts';
import { loadScenario } from '../scenario-files.ts';
import { positiveInteger, providerOption, toolsOption } from './arguments.ts';
import { Option } from 'commander';
import { actionsOf, approvalsOf } from '../../lib/workflow/actions-taken.ts';
import { approveModes, type ApproveMode } from '../approval-policy.ts';
import { DEFAULT_DATA_DIR, investigateLive, investigateScenario, openLocalSession, type ToolChoice } from '../session.ts';

/** `--event FILE`: read and recognized while the options are parsed, so a bad file exits 2 naming the option. */
const eventFile = (path: string): Trigger => {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InvalidArgumentError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidArgumentError(`${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return triggerFromEvent(value);
  } catch (error) {
    throw new InvalidArgumentError(`${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
};

export const investigateCommand = (setExitCode: (code: number) => void): Command =>
  new Command('investigate')
    .description(
      'Investigate end to end through the local Step Functions workflow and print the report: a scenario, a real trigger (--event) against the account of your AWS credentials (--tools aws), or a real trigger over a scenario\'s recorded environment.',
    )
    .option('--scenario <fileOrId>', 'a scenario file (sre-scenario/v1) or the id of a bundled scenario')
    .option('--event <file>', 'a real trigger: an EventBridge CloudWatch alarm event, a PagerDuty V3 webhook body, or {"question": "..."}', eventFile)
    .addOption(toolsOption())
    .option('--json', 'print one JSON object {id, status, finding, usage, approvals, actions} to stdout')
    .addOption(
      new Option('--approve <mode>', 'proposed remediation: ask (prompt on a terminal; without one, as none), all (approve every proposal), none (decline every proposal)')
        .choices(approveModes)
        .default('none'),
    )
    .option('--data-dir <dir>', 'where DynamoDB Local keeps its data', DEFAULT_DATA_DIR)
    .option('--max-iterations <n>', 'model turns before the agent must answer', positiveInteger, 8)
    .addOption(providerOption())
    .action(async (options: { scenario?: string; event?: Trigger; tools: ToolChoice; json?: boolean; approve: ApproveMode; dataDir: string; maxIterations: number; provider?: string }, command: Command) => {
      if (options.scenario === undefined && options.event === undefined) {
        command.error('error: nothing to investigate: give --scenario <fileOrId>, or --event <file> with --tools aws', { exitCode: 2, code: 'sre-agent.nothingToInvestigate' });
      }
      if (options.scenario === undefined && options.tools !== 'aws') {
        command.error('error: --event without --scenario investigates a live AWS account: add --tools aws (or give --scenario to replay a recorded environment)', {
          exitCode: 2,
          code: 'sre-agent.eventNeedsTools',
        });
      }
      const scenario = options.scenario === undefined ? undefined : loadScenario(options.scenario);
      const { model, budget, masking, maxToolCallsPerTurn } = await selectModel(options.provider);
      const session = await openLocalSession(options.dataDir);
      try {
        const investigationOptions = {
          maxIterations: options.maxIterations,
          budget,
          tools: options.tools,
          approve: options.approve,
          ...(masking ? { masking } : {}),
          ...(maxToolCallsPerTurn === undefined ? {} : { maxToolCallsPerTurn }),
          ...(options.event ? { trigger: options.event } : {}),
          onProgress: (line: string) => process.stderr.write(`${line}\n`),
        };
        const run = scenario
          ? await investigateScenario(session, scenario, model, investigationOptions)
          : await investigateLive(session, options.event!, model, investigationOptions);
        const { investigation } = run;
        if (options.json) {
          const events = await session.store.events(investigation.id);
          // Approvals and actions for humans: the approval records hold the real targets, the transcript the masked ones.
          const records = new Map((await Promise.all(approvalsOf(events).map((approval) => session.approvals.getApproval(approval.id)))).flatMap((record) => (record ? [[record.id, record]] : [])));
          const approvals = approvalsOf(events).map((approval) => ({ ...approval, target: records.get(approval.id)?.target ?? approval.target }));
          const actions = actionsOf(events).map((action, index) => ({ action: action.action, target: approvals[index]?.target ?? action.target, status: action.status }));
          process.stdout.write(
            `${JSON.stringify({ id: investigation.id, status: investigation.status, finding: investigation.finding ?? null, usage: investigation.usage, approvals: approvals.map(({ id, action, target, decision, by, at }) => ({ id, action, target, decision, by: by ?? null, at: at ?? null })), actions })}\n`,
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
