import { OfflineAnalyst } from '../lib/analyst/offline-analyst.ts';
import { createModelFromConfig, modelConfigFromEnv } from '../lib/model/config/index.ts';
import type { ModelPort } from '../lib/model/port.ts';

/** The model a local run uses: the configured provider chain, or the offline analyst when none is set. */
export const selectModel = async (provider?: string, env: Record<string, string | undefined> = process.env): Promise<ModelPort> => {
  const config = modelConfigFromEnv(provider === undefined ? env : { ...env, SRE_AGENT_MODEL_PROVIDER: provider });
  const model = await createModelFromConfig(config);
  return model === 'offline' ? new OfflineAnalyst() : model;
};
