import { Command } from 'commander';
import { selectModel } from '../model-selection.ts';
import { loadScenario } from '../scenario-files.ts';
import { startLocalApiServer } from '../api-server.ts';
import { DEFAULT_DATA_DIR, LOCAL_TABLE_NAME, openLocalSession, type ToolChoice } from '../session.ts';
import { listenPort, positiveInteger, providerOption, toolsOption } from './arguments.ts';
import { untilStopped } from './until-stopped.ts';

const DEFAULT_PORT = 8787;

const timestamped = (line: string) => `${new Date().toISOString()} ${line}\n`;

export const serveCommand = (): Command =>
  new Command('serve')
    .description('Serve the HTTP API (investigations, approvals, EventBridge events, PagerDuty webhooks) and the web console on 127.0.0.1, investigating in process against a scenario.')
    .requiredOption('--scenario <fileOrId>', 'a scenario file (sre-scenario/v1) or bundled id whose environment backs the tools')
    .option('--port <n>', 'the port on 127.0.0.1 (0 picks a free one)', listenPort, DEFAULT_PORT)
    .option('--data-dir <dir>', 'where DynamoDB Local keeps its data', DEFAULT_DATA_DIR)
    .option('--max-iterations <n>', 'model turns before the agent must answer', positiveInteger, 8)
    .addOption(providerOption())
    .addOption(toolsOption())
    .action(async (options: { scenario: string; port: number; dataDir: string; maxIterations: number; provider?: string; tools: ToolChoice }) => {
      const scenario = loadScenario(options.scenario);
      const { model, budget, masking } = await selectModel(options.provider);
      const session = await openLocalSession(options.dataDir);
      const log = (line: string) => process.stderr.write(timestamped(line));
      const server = await startLocalApiServer({
        client: session.database.client,
        tableName: LOCAL_TABLE_NAME,
        scenario,
        tools: options.tools,
        model,
        budget,
        ...(masking ? { masking } : {}),
        maxIterations: options.maxIterations,
        port: options.port,
        log,
      });
      process.stdout.write(`sre-agent API listening on ${server.url}\nconsole: open ${server.url}/\n`);
      await untilStopped();
      log('shutting down');
      await server.close();
      await session.close();
    });
