import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Command, InvalidArgumentError, Option } from 'commander';
import { consoleAssetRoutes } from '../console/assets.ts';
import { startConsoleServer } from '../console/proxy-server.ts';
import type { CredentialsProvider } from '../console/proxy-signer.ts';
import { API_URL_HELP, apiTarget, ApiTargetError, type ApiTarget } from '../console/proxy-target.ts';
import { listenPort } from './arguments.ts';
import { untilStopped } from './until-stopped.ts';

const DEFAULT_PORT = 8788;
const DEFAULT_API = 'http://127.0.0.1:8787';

const apiUrl = (value: string): URL => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`expected a URL such as ${API_URL_HELP}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`expected an http or https URL such as ${API_URL_HELP}`);
  if (url.username || url.password || url.search || url.hash) {
    throw new InvalidArgumentError(`give the API's base URL without user, password, query or fragment, such as ${API_URL_HELP}`);
  }
  return url;
};

const awsRegion = (value: string): string => {
  if (!/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/.test(value)) throw new InvalidArgumentError('expected an AWS region such as eu-west-1');
  return value;
};

const timestamped = (line: string) => `${new Date().toISOString()} ${line}\n`;

/** Resolved once at start, so missing or expired credentials are reported before the browser opens. */
const credentialsForSigning = async (): Promise<CredentialsProvider> => {
  const credentials = defaultProvider();
  try {
    await credentials();
  } catch (error) {
    throw new Error(`no AWS credentials to sign the API requests with (${error instanceof Error ? error.message : String(error)}): sign in (e.g. \`aws sso login\`) or set AWS_PROFILE, then retry`);
  }
  return credentials;
};

const describeTarget = (target: ApiTarget) =>
  target.signingRegion
    ? `${target.url.href}, each request signed (SigV4, ${target.signingRegion}) with your AWS credentials`
    : `${target.url.href}, unsigned (a local API)`;

export const consoleCommand = (): Command =>
  new Command('console')
    .description('Serve the web console on 127.0.0.1 and forward its API calls to sre-agent serve, or to the deployed API signed with your own AWS credentials.')
    .addOption(new Option('--api <url>', `the API: ${API_URL_HELP}`).argParser(apiUrl).default(new URL(DEFAULT_API), DEFAULT_API))
    .option('--port <n>', 'the port on 127.0.0.1 (0 picks a free one)', listenPort, DEFAULT_PORT)
    .option('--region <region>', 'the region to sign for (default: from the API Gateway host; needed for a custom domain)', awsRegion)
    .action(async (options: { api: URL; port: number; region?: string }, command: Command) => {
      let target: ApiTarget;
      try {
        target = apiTarget(options.api, options.region);
      } catch (error) {
        if (error instanceof ApiTargetError) command.error(`error: ${error.message}`, { exitCode: 2, code: 'sre-agent.badApiTarget' });
        throw error;
      }
      const log = (line: string) => process.stderr.write(timestamped(line));
      const server = await startConsoleServer({
        assets: consoleAssetRoutes(),
        api: target.url,
        ...(target.signingRegion ? { signing: { region: target.signingRegion, credentials: await credentialsForSigning() } } : {}),
        port: options.port,
        log,
      });
      process.stdout.write(`sre-agent console: open ${server.url}\nAPI: ${describeTarget(target)}\n`);
      await untilStopped();
      log('shutting down');
      await server.close();
    });
