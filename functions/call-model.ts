import { OfflineAnalyst } from '../lib/analyst/offline-analyst.ts';
import { createModelFromConfig } from '../lib/model/config/index.ts';
import { callModel } from '../lib/workflow/call-model.ts';
import { coreFrom } from './ports.ts';
import { stepHandler } from './runtime.ts';

/** The only step that builds the model and reads its secret. */
export const handler = stepHandler(
  'call-model',
  async (environment) => {
    const config = environment.model();
    const { maxWallMs } = environment.investigation();
    const model = await createModelFromConfig(config);
    return {
      ...coreFrom(environment),
      model: model === 'offline' ? new OfflineAnalyst() : model,
      budget: { ...config.budget, ...(maxWallMs === undefined ? {} : { maxWallMs }) },
    };
  },
  callModel,
);
