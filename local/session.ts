import { createHash, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ScenarioReplaySource } from '../integrations/scenario/replay-source.ts';
import type { Scenario } from '../lib/domain/scenario.ts';
import type { Investigation } from '../lib/domain/investigation.ts';
import type { ModelPort } from '../lib/model/port.ts';
import { RecordingNotifier } from '../lib/notify/recording-notifier.ts';
import { DynamoDbStore } from '../lib/store/dynamodb-store.ts';
import type { MaskingOptions } from '../lib/masking/index.ts';
import type { InvestigationBudget } from '../lib/workflow/budget.ts';
import type { WorkflowDependencies } from '../lib/workflow/dependencies.ts';
import { ensureTable, startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local.ts';
import { runWorkflowLocally, type LocalExecution } from './run-workflow.ts';

export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../.sre-agent/data/', import.meta.url));
export const LOCAL_TABLE_NAME = 'sre-agent-investigations';

export interface LocalSession {
  store: DynamoDbStore;
  notifier: RecordingNotifier;
  database: DynamoDbLocal;
  close(): Promise<void>;
}

/** DynamoDB Local with the investigations table, kept under `dataDir` between runs (in memory for null). */
export const openLocalSession = async (dataDir: string | null = DEFAULT_DATA_DIR): Promise<LocalSession> => {
  const database = await startDynamoDbLocal(dataDir === null ? {} : { dataDir });
  try {
    await ensureTable(database.client, LOCAL_TABLE_NAME);
  } catch (error) {
    await database.stop();
    throw error;
  }
  return {
    store: new DynamoDbStore({ client: database.client, tableName: LOCAL_TABLE_NAME }),
    notifier: new RecordingNotifier(),
    database,
    close: () => database.stop(),
  };
};

export interface ScenarioRun {
  investigationId: string;
  execution: LocalExecution;
  investigation: Investigation;
}

/**
 * Investigates a scenario through the local workflow: its environment becomes a recorded
 * snapshot the tools read; its id, title, description and truth never enter the store.
 */
export const investigateScenario = async (
  session: Pick<LocalSession, 'store' | 'notifier'>,
  scenario: Scenario,
  model: ModelPort,
  options: { maxIterations?: number; onProgress?: (line: string) => void; budget?: InvestigationBudget; masking?: MaskingOptions } = {},
): Promise<ScenarioRun> => {
  const recorded = { now: scenario.now, environment: scenario.environment };
  const snapshot = `env-${createHash('sha256').update(JSON.stringify(recorded)).digest('hex').slice(0, 20)}`;
  await session.store.putSnapshot(snapshot, recorded);
  const investigationId = `inv-${randomUUID()}`;
  const dependencies: WorkflowDependencies = {
    store: session.store,
    model,
    tools: new ScenarioReplaySource(session.store),
    notifier: session.notifier,
    ...(options.budget ? { budget: options.budget } : {}),
    ...(options.masking ? { masking: options.masking } : {}),
  };
  const execution = await runWorkflowLocally({
    dependencies,
    input: { trigger: scenario.trigger, investigationId, toolSource: { kind: 'scenario-replay', snapshot } },
    ...(options.maxIterations === undefined ? {} : { maxIterations: options.maxIterations }),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const investigation = await session.store.get(investigationId);
  if (!investigation) throw new Error(`the workflow did not create investigation ${investigationId}: ${execution.error ?? 'no error reported'}`);
  return { investigationId, execution, investigation };
};
