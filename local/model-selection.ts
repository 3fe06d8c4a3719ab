import { OfflineAnalyst } from '../lib/analyst/offline-analyst.ts';
import { createModelFromConfig, modelConfigFromEnv } from '../lib/model/config/index.ts';
import type { ModelPort } from '../lib/model/port.ts';
import type { MaskingOptions } from '../lib/masking/index.ts';
import type { InvestigationBudget } from '../lib/workflow/budget.ts';
import { investigationSettingsFromEnv } from '../lib/workflow/settings.ts';

/**
 * The model a local run uses (the configured provider chain, or the offline analyst when none is
 * set), its budget, the masking options and the per-turn tool-call cap, all from the environment.
 */
export const selectModel = async (
  provider?: string,
  env: Record<string, string | undefined> = process.env,
): Promise<{ model: ModelPort; budget: InvestigationBudget; masking?: MaskingOptions; maxToolCallsPerTurn?: number }> => {
  const config = modelConfigFromEnv(provider === undefined ? env : { ...env, SRE_AGENT_MODEL_PROVIDER: provider });
  const { maxWallMs, masking, maxToolCallsPerTurn } = investigationSettingsFromEnv(env);
  const model = await createModelFromConfig(config);
  return {
    model: model === 'offline' ? new OfflineAnalyst() : model,
    budget: { ...config.budget, ...(maxWallMs === undefined ? {} : { maxWallMs }) },
    ...(masking ? { masking } : {}),
    ...(maxToolCallsPerTurn === undefined ? {} : { maxToolCallsPerTurn }),
  };
};
