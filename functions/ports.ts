import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { awsToolSource } from '../integrations/aws/index.ts';
import { ScenarioReplaySource } from '../integrations/scenario/replay-source.ts';
import { DynamoDbStore } from '../lib/store/dynamodb-store.ts';
import type { ToolSource } from '../lib/tools/source.ts';
import { ToolSourcesByKind } from '../lib/tools/tool-sources.ts';
import type { StackEnvironment } from './environment.ts';

/** The adapters the step handlers share, each built from the environment only by the steps that use it. */

export const storeFrom = (environment: StackEnvironment): DynamoDbStore => {
  const { tableName, retentionDays } = environment.table();
  return new DynamoDbStore({ client: new DynamoDBClient({}), tableName, retentionDays });
};

/** Plan and RunTools serve recorded environments and live AWS accounts alike. */
export const toolSourceFrom = (environment: StackEnvironment, store: DynamoDbStore): ToolSource => {
  const { settings, home } = environment.awsTools();
  return new ToolSourcesByKind({ 'scenario-replay': new ScenarioReplaySource(store), aws: awsToolSource({ store, settings, home }) });
};

/** What every step reads: the store, and the masking options for steps that mask. */
export const coreFrom = (environment: StackEnvironment) => {
  const { masking } = environment.investigation();
  return { store: storeFrom(environment), ...(masking ? { masking } : {}) };
};
