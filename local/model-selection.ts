import { OfflineAnalyst } from '../lib/analyst/offline-analyst.ts';
import { createModelFromConfig, modelConfigFromEnv } from '../lib/model/config/index.ts';
import type { ModelPort } from '../lib/model/port.ts';
import type { InvestigationBudget } from '../lib/workflow/budget.ts';

/** The model a local run uses (the configured provider chain, or the offline analyst when none is set) and its budget. */
export const selectModel = async (
  provider?: string,
  env: Record<string, string | undefined> = process.env,
): Promise<{ model: ModelPort; budget: InvestigationBudget }> => {
  const config = modelConfigFromEnv(provider === undefined ? env : { ...env, SRE_AGENT_MODEL_PROVIDER: provider });
  const model = await createModelFromConfig(config);
  return { model: model === 'offline' ? new OfflineAnalyst() : model, budget: config.budget };
};
