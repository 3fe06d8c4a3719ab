import { createHash, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ScenarioReplaySource } from '../integrations/scenario/replay-source.ts';
import { awsToolSource } from '../integrations/aws/index.ts';
import { stackEnvironment } from '../functions/environment.ts';
import type { InvestigableScenario } from '../lib/domain/scenario.ts';
import type { InvestigationStore } from '../lib/store/port.ts';
import type { Trigger } from '../lib/domain/trigger.ts';
import type { ToolSourceRef } from '../lib/domain/investigation.ts';
import type { ToolSource } from '../lib/tools/source.ts';
import { triggerOrigin } from '../lib/triggers/from-event.ts';
import type { Investigation } from '../lib/domain/investigation.ts';
import type { ModelPort } from '../lib/model/port.ts';
import { RecordingNotifier } from '../lib/notify/recording-notifier.ts';
import { DynamoDbStore } from '../lib/store/dynamodb-store.ts';
import { DynamoDbApprovalStore } from '../lib/store/dynamodb-approval-store.ts';
import { localApprovalPolicy, type ApproveMode } from './approval-policy.ts';
import { LocalTaskTokenWaits } from './task-token-waits.ts';
import type { MaskingOptions } from '../lib/masking/index.ts';
import type { InvestigationBudget } from '../lib/workflow/budget.ts';
import type { WorkflowDependencies } from '../lib/workflow/dependencies.ts';
import { ensureTable, startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local.ts';
import { runWorkflowLocally, type LocalExecution } from './run-workflow.ts';

export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../.sre-agent/data/', import.meta.url));
export const LOCAL_TABLE_NAME = 'sre-agent-investigations';

export interface LocalSession {
  store: DynamoDbStore;
  /** Approval records, in the same table. */
  approvals: DynamoDbApprovalStore;
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
    approvals: new DynamoDbApprovalStore({ client: database.client, tableName: LOCAL_TABLE_NAME }),
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
 * Which tool code serves the investigation: the scenario replay tools, or the AWS tools (their SDK
 * calls answered from the scenario's environment when there is one, else by AWS itself with the
 * environment's credentials).
 */
export type ToolChoice = 'replay' | 'aws';

export interface InvestigationOptions {
  maxIterations?: number;
  onProgress?: (line: string) => void;
  budget?: InvestigationBudget;
  masking?: MaskingOptions;
  maxToolCallsPerTurn?: number;
  tools?: ToolChoice;
  /** A real trigger to investigate instead of the scenario's own. */
  trigger?: Trigger;
  /** How proposed actions are decided (default none: nothing changes without a human). */
  approve?: ApproveMode;
}

/** Where an emulated account keeps the recorded environment's runbooks, when the settings name no other place. */
const EMULATED_RUNBOOKS = 's3://recorded-environment/runbooks/';

const awsSource = (store: InvestigationStore, home: { accountId?: string; region?: string }, { emulated = false } = {}) => {
  const { settings, home: configured } = stackEnvironment({ ...process.env, AWS_REGION: home.region ?? process.env.AWS_REGION ?? 'us-east-1' }).awsTools();
  const runbooks = emulated && settings.runbooks.directory === undefined && settings.runbooks.s3Uri === undefined ? { s3Uri: EMULATED_RUNBOOKS } : settings.runbooks;
  return awsToolSource({ store, settings: { ...settings, runbooks }, home: { ...configured, ...(home.accountId ? { accountId: home.accountId } : {}) } });
};

type SessionPorts = Pick<LocalSession, 'store' | 'notifier'> & Partial<Pick<LocalSession, 'approvals'>>;

const runInvestigation = async (
  session: SessionPorts,
  trigger: Trigger,
  toolSource: ToolSourceRef,
  tools: WorkflowDependencies['tools'],
  model: ModelPort,
  options: InvestigationOptions,
): Promise<ScenarioRun> => {
  const investigationId = `inv-${randomUUID()}`;
  const dependencies: WorkflowDependencies = {
    store: session.store,
    model,
    tools,
    notifier: session.notifier,
    ...(options.budget ? { budget: options.budget } : {}),
    ...(options.masking ? { masking: options.masking } : {}),
    ...(options.maxToolCallsPerTurn === undefined ? {} : { maxToolCallsPerTurn: options.maxToolCallsPerTurn }),
    ...(session.approvals ? { approvals: session.approvals } : {}),
  };
  const waits = new LocalTaskTokenWaits();
  const execution = await runWorkflowLocally({
    dependencies,
    input: { trigger, investigationId, toolSource },
    ...(options.maxIterations === undefined ? {} : { maxIterations: options.maxIterations }),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(session.approvals
      ? { approvals: { waits, onRequested: localApprovalPolicy(options.approve ?? 'none', { approvals: session.approvals, callbacks: waits }) } }
      : {}),
  });
  const investigation = await session.store.get(investigationId);
  if (!investigation) throw new Error(`the workflow did not create investigation ${investigationId}: ${execution.error ?? 'no error reported'}`);
  return { investigationId, execution, investigation };
};

/**
 * The one place that builds the tools of investigations over a scenario's recorded environment: the
 * environment stored as a snapshot, then the replay tools, or the AWS tools with every SDK call
 * answered from it (in the scenario's account and region, else the trigger's).
 */
export const scenarioToolSource = async (
  store: InvestigationStore,
  scenario: Pick<InvestigableScenario, 'now' | 'environment'>,
  tools: ToolChoice,
  trigger?: Trigger,
): Promise<{ ref: ToolSourceRef; source: ToolSource }> => {
  const recorded = { now: scenario.now, environment: scenario.environment };
  const snapshot = `env-${createHash('sha256').update(JSON.stringify(recorded)).digest('hex').slice(0, 20)}`;
  await store.putSnapshot(snapshot, recorded);
  if (tools === 'aws') {
    const { accountId, region } = scenario.environment;
    const origin = { ...(trigger ? triggerOrigin(trigger) : {}), ...(accountId ? { accountId } : {}), ...(region ? { region } : {}) };
    return { ref: { kind: 'aws', emulatedSnapshot: snapshot, ...origin }, source: awsSource(store, origin, { emulated: true }) };
  }
  return { ref: { kind: 'scenario-replay', snapshot }, source: new ScenarioReplaySource(store) };
};

/**
 * Investigates a scenario through the local workflow: its environment becomes a recorded
 * snapshot the tools read; its id, title, description and truth never enter the store.
 */
export const investigateScenario = async (
  session: SessionPorts,
  scenario: InvestigableScenario,
  model: ModelPort,
  options: InvestigationOptions = {},
): Promise<ScenarioRun> => {
  const trigger = options.trigger ?? scenario.trigger;
  const { ref, source } = await scenarioToolSource(session.store, scenario, options.tools ?? 'replay', trigger);
  return runInvestigation(session, trigger, ref, source, model, options);
};

/** Investigates a real trigger against the AWS account of the environment's credentials. */
export const investigateLive = async (
  session: SessionPorts,
  trigger: Trigger,
  model: ModelPort,
  options: InvestigationOptions = {},
): Promise<ScenarioRun> => {
  const origin = triggerOrigin(trigger);
  return runInvestigation(session, trigger, { kind: 'aws', ...origin }, awsSource(session.store, origin), model, options);
};
