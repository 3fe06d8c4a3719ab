import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { AnthropicMessagesModel } from '../providers/anthropic-messages.ts';
import { BedrockConverseModel } from '../providers/bedrock-converse.ts';
import type { AbortableModelPort } from '../providers/conversation.ts';
import { OpenAIChatModel } from '../providers/openai-chat.ts';
import { ResilientModel, type ResilienceOptions } from '../resilience/resilient-model.ts';
import { defaultModels, ModelConfigError, type ModelConfig, type ProviderRef, type RemoteProviderName } from './model-config.ts';
import { SecretCache, sharedSecretCache } from './secrets.ts';

/** What the factory may be handed instead of building it; tests inject these. */
export interface ModelFactoryDependencies {
  /** The secret cache to read API keys through; default a process-wide one (warm Lambdas reuse it). */
  secrets?: SecretCache;
  /** A Secrets Manager client for a new cache (ignored when `secrets` is given). */
  secretsManager?: SecretsManagerClient;
  /** A Bedrock runtime client shared by every Bedrock link. */
  bedrockClient?: BedrockRuntimeClient;
  /** A fetch for the OpenAI and Anthropic SDK clients. */
  fetch?: typeof fetch;
  /** Resilience hooks: `onAttempt` for logging, `shrink`, and `sleep`/`random`/`now` for tests. */
  resilience?: Pick<ResilienceOptions, 'onAttempt' | 'shrink' | 'sleep' | 'random' | 'now' | 'baseDelayMs' | 'maxDelayMs' | 'maxRetryAfterMs'>;
}

const keySetting: Record<Exclude<RemoteProviderName, 'bedrock'>, 'OPENAI_API_KEY' | 'ANTHROPIC_API_KEY'> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

/** How a link was named in the settings, for error messages. */
const describe = (ref: ProviderRef, index: number): string =>
  index === 0 ? `SRE_AGENT_MODEL_PROVIDER=${ref.provider}` : `SRE_AGENT_FALLBACK entry ${ref.provider}:${ref.model}`;

/**
 * Builds the model port the settings describe: the primary and its fallbacks behind a `ResilientModel`,
 * or `'offline'` when the provider is offline (the caller wires the offline analyst). Throws
 * `ModelConfigError` naming the setting when a key or a model id is missing. On AWS, API keys come
 * from the JSON secret `SRE_AGENT_MODEL_SECRET_ARN` (environment variables win when both are set) and
 * are re-read through the TTL cache before each request, so a rotated key is picked up.
 */
export const createModelFromConfig = async (config: ModelConfig, dependencies: ModelFactoryDependencies = {}): Promise<ResilientModel | 'offline'> => {
  if (config.provider === 'offline') return 'offline';
  const primaryModel = config.model ?? defaultModels[config.provider];
  if (primaryModel === undefined) {
    throw new ModelConfigError(
      `SRE_AGENT_MODEL_PROVIDER=${config.provider} needs SRE_AGENT_MODEL (a Bedrock model or inference-profile id enabled in your account, e.g. amazon.nova-pro-v1:0 or us.anthropic.claude-sonnet-4-5-20250929-v1:0)`,
      ['SRE_AGENT_MODEL'],
    );
  }
  const refs: ProviderRef[] = [{ provider: config.provider, model: primaryModel }, ...config.fallbacks];

  let secrets: SecretCache | undefined;
  const secretCache = (): SecretCache => {
    secrets ??=
      dependencies.secrets ??
      (dependencies.secretsManager
        ? new SecretCache({ client: dependencies.secretsManager, ttlMs: config.secretTtlMs })
        : sharedSecretCache({ region: config.awsRegion, ttlMs: config.secretTtlMs }));
    return secrets;
  };

  /** The API key for a provider: the environment's, else a per-request read of the secret; undefined when neither has it. */
  const keyFor = async (provider: Exclude<RemoteProviderName, 'bedrock'>): Promise<string | (() => Promise<string>) | undefined> => {
    const fromEnv = provider === 'openai' ? config.openaiApiKey : config.anthropicApiKey;
    if (fromEnv !== undefined) return fromEnv;
    const arn = config.secretArn;
    if (arn === undefined) return undefined;
    const setting = keySetting[provider];
    const first = await secretCache().getValue(arn, setting);
    if (first === undefined) return undefined;
    return async () => (await secretCache().getValue(arn, setting)) ?? first;
  };

  const chain: AbortableModelPort[] = [];
  for (const [index, ref] of refs.entries()) {
    const baseURL = index === 0 ? config.baseUrl : undefined;
    if (ref.provider === 'bedrock') {
      chain.push(
        new BedrockConverseModel({
          model: ref.model,
          maxOutputTokens: config.maxOutputTokens,
          ...(dependencies.bedrockClient ? { client: dependencies.bedrockClient } : {}),
          ...(config.awsRegion === undefined ? {} : { region: config.awsRegion }),
          ...(baseURL === undefined ? {} : { endpoint: baseURL }),
        }),
      );
      continue;
    }
    const setting = keySetting[ref.provider];
    const apiKey = await keyFor(ref.provider);
    const credentialSetting = `${setting}, or the ${setting} field of the secret SRE_AGENT_MODEL_SECRET_ARN on AWS`;
    if (apiKey === undefined && !(ref.provider === 'openai' && baseURL !== undefined)) {
      const where = config.secretArn === undefined ? `${setting} (or SRE_AGENT_MODEL_SECRET_ARN on AWS)` : `${setting}, which the secret SRE_AGENT_MODEL_SECRET_ARN=${config.secretArn} does not hold either`;
      throw new ModelConfigError(`${describe(ref, index)} needs ${where}`, [setting]);
    }
    const common = {
      model: ref.model,
      credentialSetting,
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(baseURL === undefined ? {} : { baseURL }),
      ...(dependencies.fetch === undefined ? {} : { fetch: dependencies.fetch }),
    };
    chain.push(
      ref.provider === 'openai'
        ? new OpenAIChatModel({ ...common, maxOutputTokens: config.maxOutputTokens })
        : new AnthropicMessagesModel({ ...common, maxOutputTokens: config.maxOutputTokens }),
    );
  }

  return new ResilientModel(chain, {
    ...dependencies.resilience,
    timeoutMs: config.callTimeoutMs,
    maxAttempts: config.maxAttempts,
  });
};
