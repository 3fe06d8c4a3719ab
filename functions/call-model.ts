import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { OfflineAnalyst } from '../lib/analyst/offline-analyst.ts';
import { DynamoDbJoinedTriggers } from '../lib/store/dynamodb-joined-triggers.ts';
import { createModelFromConfig } from '../lib/model/config/index.ts';
import { callModel } from '../lib/workflow/call-model.ts';
import { coreFrom } from './ports.ts';
import { stepHandler } from './runtime.ts';

/** The only step that builds the model and reads its secret; it also reads the triggers that joined, for the model to see. */
export const handler = stepHandler(
  'call-model',
  async (environment) => {
    const config = environment.model();
    const { maxWallMs } = environment.investigation();
    const model = await createModelFromConfig(config);
    return {
      ...coreFrom(environment),
      joinedTriggers: new DynamoDbJoinedTriggers({ client: new DynamoDBClient({}), tableName: environment.table().tableName }),
      model: model === 'offline' ? new OfflineAnalyst() : model,
      budget: { ...config.budget, ...(maxWallMs === undefined ? {} : { maxWallMs }) },
    };
  },
  callModel,
);
