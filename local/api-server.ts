import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { createApp } from '../lib/api/app.ts';
import type { ApiPorts } from '../lib/api/ports.ts';
import { environmentSecrets } from '../lib/api/secrets.ts';
import { admissionSettingsFromEnv } from '../lib/api/settings.ts';
import type { Scenario } from '../lib/domain/scenario.ts';
import type { MaskingOptions } from '../lib/masking/index.ts';
import type { ModelPort } from '../lib/model/port.ts';
import { RecordingNotifier } from '../lib/notify/recording-notifier.ts';
import { reportChannelsFrom, withReportChannels } from '../lib/notify/report-channels.ts';
import { DynamoDbStore } from '../lib/store/dynamodb-store.ts';
import { DynamoDbTriggerLedger } from '../lib/store/dynamodb-trigger-ledger.ts';
import { investigationEnded } from '../lib/triggers/admit.ts';
import type { InvestigationBudget } from '../lib/workflow/budget.ts';
import type { WorkflowDependencies } from '../lib/workflow/dependencies.ts';
import { InProcessStarter } from './in-process-starter.ts';
import { DynamoDbApprovalStore } from '../lib/store/dynamodb-approval-store.ts';
import { approversFromEnv } from '../lib/api/approval-settings.ts';
import { LocalTaskTokenWaits } from './task-token-waits.ts';
import { consoleAssetRoutes } from './console/assets.ts';
import { closerFor } from './closing-server.ts';
import { sameMachineOnly } from './same-machine-only.ts';
import { scenarioToolSource, type ToolChoice } from './session.ts';

export interface LocalApiServerOptions {
  client: DynamoDBClient;
  tableName: string;
  /** Its environment backs the tools of every investigation the server starts. */
  scenario: Pick<Scenario, 'now' | 'environment'>;
  /** Which tool code reads that environment (default replay). */
  tools?: ToolChoice;
  model: ModelPort;
  budget?: InvestigationBudget;
  masking?: MaskingOptions;
  maxIterations?: number;
  /** 0 picks a free port. */
  port: number;
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
}

export interface LocalApiServer {
  url: string;
  notifier: RecordingNotifier;
  close(): Promise<void>;
}

/**
 * The API app on 127.0.0.1 only, investigations running in process on the local workflow, the
 * scenario's environment as their tool source. One log line per request and per state.
 */
export const startLocalApiServer = async (options: LocalApiServerOptions): Promise<LocalApiServer> => {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => undefined);
  const store = new DynamoDbStore({ client: options.client, tableName: options.tableName });
  const ledger = new DynamoDbTriggerLedger({ client: options.client, tableName: options.tableName });
  const tools = await scenarioToolSource(store, options.scenario, options.tools ?? 'replay');

  const recording = new RecordingNotifier();
  const approvals = new DynamoDbApprovalStore({ client: options.client, tableName: options.tableName });
  const waits = new LocalTaskTokenWaits();
  const dependencies: WorkflowDependencies = {
    store,
    model: options.model,
    tools: tools.source,
    notifier: withReportChannels(recording, reportChannelsFrom(env), store, {
      onFailure: (channel, error) => log(`report to ${channel} failed: ${error instanceof Error ? error.message : String(error)}`),
    }),
    ...(options.budget ? { budget: options.budget } : {}),
    ...(options.masking ? { masking: options.masking } : {}),
    approvals,
    joinedTriggers: ledger,
  };
  let ports: ApiPorts | undefined;
  const starter = new InProcessStarter({
    dependencies,
    log,
    // Approvals wait for POST /approvals/{id}, as on AWS.
    approvals: { waits, onRequested: (approvalId) => log(`approval ${approvalId} requested: decide with POST /approvals/${approvalId}`) },
    ...(options.maxIterations === undefined ? {} : { maxIterations: options.maxIterations }),
    onEnded: (id) => investigationEnded(ports!, id),
  });
  ports = {
    store,
    ledger,
    starter,
    secrets: environmentSecrets(env),
    settings: { ...admissionSettingsFromEnv(env), toolSource: tools.ref },
    log,
    // The server listens on 127.0.0.1 only: the caller is whoever runs it.
    approvalRoutes: { approvals, callbacks: waits, ...approversFromEnv(env), callerIdentity: () => `local:${env.USER ?? 'unknown'}`, log },
  };
  // The console at `/` and `/console/*`; every other path is the API's, unchanged.
  const app = new Hono().use('*', sameMachineOnly()).route('/', consoleAssetRoutes()).mount('/', createApp(ports).fetch);
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: options.port }, () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  const closeServer = closerFor(server as Server);
  return {
    url: `http://127.0.0.1:${port}`,
    notifier: recording,
    close: async () => {
      await closeServer();
      await starter.idle({ abort: true });
    },
  };
};
