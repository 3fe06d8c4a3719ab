import { modelNameOf } from '../lib/model/config/index.ts';
import { startInvestigation } from '../lib/workflow/start-investigation.ts';
import { coreFrom } from './ports.ts';
import { stepHandler } from './runtime.ts';

/** Records the model's name on the investigation; it neither builds the model nor reads its secret. */
export const handler = stepHandler(
  'start-investigation',
  async (environment) => ({ ...coreFrom(environment), model: { name: modelNameOf(environment.model()) } }),
  startInvestigation,
);
