import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SNSClient } from '@aws-sdk/client-sns';
import type { Context } from 'aws-lambda';
import { ScenarioReplaySource } from '../integrations/scenario/replay-source.ts';
import { OfflineAnalyst } from '../lib/analyst/offline-analyst.ts';
import { createModelFromConfig, modelConfigFromEnv } from '../lib/model/config/index.ts';
import { SnsNotifier } from '../lib/notify/sns-notifier.ts';
import { DynamoDbStore } from '../lib/store/dynamodb-store.ts';
import type { StepName } from '../lib/workflow/control.ts';
import type { WorkflowDependencies } from '../lib/workflow/dependencies.ts';
import { investigationSettingsFromEnv } from '../lib/workflow/settings.ts';
import { createSteps, type StepHandler } from '../lib/workflow/steps.ts';

export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'sre-agent' });

const requiredEnv = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set; the stack sets it on every function`);
  return value;
};

let steps: Promise<Record<StepName, StepHandler>> | undefined;

/** Built once per cold start and reused by every invocation of the container. */
const stepsFromEnvironment = (): Promise<Record<StepName, StepHandler>> => (steps ??= buildSteps());

const buildSteps = async (): Promise<Record<StepName, StepHandler>> => {
  const store = new DynamoDbStore({ client: new DynamoDBClient({}), tableName: requiredEnv('TABLE_NAME') });
  const config = modelConfigFromEnv(process.env);
  const { maxWallMs, masking } = investigationSettingsFromEnv(process.env);
  const model = await createModelFromConfig(config);
  const dependencies: WorkflowDependencies = {
    store,
    model: model === 'offline' ? new OfflineAnalyst() : model,
    budget: { ...config.budget, ...(maxWallMs === undefined ? {} : { maxWallMs }) },
    ...(masking ? { masking } : {}),
    tools: new ScenarioReplaySource(store),
    notifier: new SnsNotifier(new SNSClient({}), process.env.NOTIFICATION_TOPIC_ARN ?? ''),
  };
  return createSteps(dependencies);
};

const investigationIdOf = (event: unknown): string | undefined => {
  if (typeof event !== 'object' || event === null) return undefined;
  const record = event as { investigationId?: unknown; input?: { investigationId?: unknown } };
  const id = record.investigationId ?? record.input?.investigationId;
  return typeof id === 'string' ? id : undefined;
};

/** A Lambda handler for one workflow step: structured logs carry the investigation id on every line. */
export const stepHandler =
  (step: StepName) =>
  async (event: unknown, context: Context): Promise<unknown> => {
    logger.addContext(context);
    const investigationId = investigationIdOf(event);
    if (investigationId) logger.appendKeys({ investigationId });
    try {
      logger.info('step started', { step });
      const outcome = await (await stepsFromEnvironment())[step](event);
      const finalId = investigationIdOf(outcome);
      if (finalId && !investigationId) logger.appendKeys({ investigationId: finalId });
      logger.info('step finished', { step });
      return outcome;
    } catch (error) {
      logger.error('step failed', { step, error: error instanceof Error ? error : String(error) });
      throw error;
    } finally {
      logger.resetKeys();
    }
  };
