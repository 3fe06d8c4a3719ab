import { z } from 'zod';
import { defaultPrices, parsePriceOverrides, type PriceTable } from '../pricing.ts';

export const modelProviders = ['offline', 'openai', 'anthropic', 'bedrock'] as const;
export type ModelProviderName = (typeof modelProviders)[number];
export type RemoteProviderName = Exclude<ModelProviderName, 'offline'>;
const remoteProviders = ['openai', 'anthropic', 'bedrock'] as const satisfies readonly RemoteProviderName[];

/** One link of the chain: a provider and a model id there. */
export interface ProviderRef {
  provider: RemoteProviderName;
  model: string;
}

export interface ModelBudget {
  /** `SRE_AGENT_MAX_MODEL_CALLS`: model calls per investigation. */
  maxModelCalls: number;
  /** `SRE_AGENT_MAX_TOKENS`: input plus output tokens per investigation. */
  maxTokens: number;
  /** `SRE_AGENT_MAX_COST_USD`: estimated spend per investigation. */
  maxCostUsd: number;
}

/** The model settings, read from the environment by `modelConfigFromEnv`. */
export interface ModelConfig {
  provider: ModelProviderName;
  /** `SRE_AGENT_MODEL`; when absent the provider's default (Bedrock has none). */
  model: string | undefined;
  /** `SRE_AGENT_MODEL_BASE_URL`: an OpenAI- or Anthropic-compatible endpoint (or a Bedrock endpoint) for the primary. */
  baseUrl: string | undefined;
  /** `SRE_AGENT_FALLBACK`: tried in order after the primary gives up. */
  fallbacks: ProviderRef[];
  openaiApiKey: string | undefined;
  anthropicApiKey: string | undefined;
  /** `AWS_REGION`, for Bedrock and Secrets Manager. */
  awsRegion: string | undefined;
  /** `SRE_AGENT_MODEL_SECRET_ARN`: a JSON secret `{"OPENAI_API_KEY": ..., "ANTHROPIC_API_KEY": ...}`. */
  secretArn: string | undefined;
  /** `SRE_AGENT_SECRET_TTL_MS`: how long a read secret is reused. */
  secretTtlMs: number;
  /** `SRE_AGENT_CALL_TIMEOUT_MS`: per-attempt timeout. */
  callTimeoutMs: number;
  /** `SRE_AGENT_MAX_ATTEMPTS`: attempts per provider on transient errors. */
  maxAttempts: number;
  /** `SRE_AGENT_MAX_OUTPUT_TOKENS`: output-token cap per call. */
  maxOutputTokens: number;
  budget: ModelBudget;
  /** Default prices with `SRE_AGENT_PRICES` laid over them. */
  prices: PriceTable;
}

/** The defaults applied when a variable is unset. */
export const modelConfigDefaults = {
  provider: 'offline',
  secretTtlMs: 5 * 60_000,
  callTimeoutMs: 60_000,
  maxAttempts: 4,
  maxOutputTokens: 4096,
  maxModelCalls: 30,
  maxTokens: 1_000_000,
  maxCostUsd: 2,
} as const;

/** Models used when `SRE_AGENT_MODEL` is unset. Bedrock needs an explicit id (model access is per account and region). */
export const defaultModels: Readonly<Record<RemoteProviderName, string | undefined>> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-6',
  bedrock: undefined,
};

/** A configuration problem; the message names every variable at fault. */
export class ModelConfigError extends Error {
  override readonly name = 'ModelConfigError';
  constructor(
    message: string,
    readonly settings: readonly string[],
  ) {
    super(message);
  }
}

const positiveInt = z.coerce.number({ error: 'expected a number' }).int('expected a whole number').positive('expected a positive number');

const fallbackList = z.string().transform((value, context): ProviderRef[] => {
  const refs: ProviderRef[] = [];
  for (const entry of value.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const colon = entry.indexOf(':');
    const provider = colon > 0 ? entry.slice(0, colon).trim() : '';
    const model = colon > 0 ? entry.slice(colon + 1).trim() : '';
    if (!(remoteProviders as readonly string[]).includes(provider) || model === '') {
      context.addIssue({ code: 'custom', message: `"${entry}" is not provider:model with provider one of ${remoteProviders.join(', ')} (e.g. anthropic:claude-3-5-haiku-latest)` });
      continue;
    }
    refs.push({ provider: provider as RemoteProviderName, model });
  }
  return refs;
});

const prices = z.string().transform((value, context): PriceTable => {
  try {
    return { ...defaultPrices, ...parsePriceOverrides(value) };
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error instanceof Error ? error.message : String(error)).replace(/^SRE_AGENT_PRICES /, '') });
    return z.NEVER;
  }
});

/** The environment variables this module reads, validated. Unset and blank values are the same. */
export const modelEnvironment = z.object({
  SRE_AGENT_MODEL_PROVIDER: z.enum(modelProviders).default(modelConfigDefaults.provider),
  SRE_AGENT_MODEL: z.string().trim().min(1).optional(),
  SRE_AGENT_MODEL_BASE_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  SRE_AGENT_FALLBACK: fallbackList.optional(),
  OPENAI_API_KEY: z.string().trim().min(1).optional(),
  ANTHROPIC_API_KEY: z.string().trim().min(1).optional(),
  AWS_REGION: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'expected an AWS region such as us-east-1').optional(),
  SRE_AGENT_MODEL_SECRET_ARN: z.string().trim().min(1).optional(),
  SRE_AGENT_SECRET_TTL_MS: z.coerce.number({ error: 'expected a number' }).int('expected a whole number').nonnegative('expected 0 or more').default(modelConfigDefaults.secretTtlMs),
  SRE_AGENT_CALL_TIMEOUT_MS: positiveInt.default(modelConfigDefaults.callTimeoutMs),
  SRE_AGENT_MAX_ATTEMPTS: positiveInt.max(10, 'expected at most 10').default(modelConfigDefaults.maxAttempts),
  SRE_AGENT_MAX_OUTPUT_TOKENS: positiveInt.default(modelConfigDefaults.maxOutputTokens),
  SRE_AGENT_MAX_MODEL_CALLS: positiveInt.default(modelConfigDefaults.maxModelCalls),
  SRE_AGENT_MAX_TOKENS: positiveInt.default(modelConfigDefaults.maxTokens),
  SRE_AGENT_MAX_COST_USD: z.coerce.number({ error: 'expected a number' }).positive('expected a positive amount of US dollars').default(modelConfigDefaults.maxCostUsd),
  SRE_AGENT_PRICES: prices.optional(),
});

/** The variable names `modelConfigFromEnv` reads. */
export const modelEnvironmentVariables = Object.keys(modelEnvironment.shape) as (keyof typeof modelEnvironment.shape)[];

/** Reads and validates the model settings; throws `ModelConfigError` naming each bad variable. */
export const modelConfigFromEnv = (env: Record<string, string | undefined> = process.env): ModelConfig => {
  const present = Object.fromEntries(
    modelEnvironmentVariables.flatMap((name) => {
      const value = env[name];
      return value === undefined || value.trim() === '' ? [] : [[name, value.trim()]];
    }),
  );
  const parsed = modelEnvironment.safeParse(present);
  if (!parsed.success) {
    const settings = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? 'environment')))];
    const lines = parsed.error.issues.map((issue) => `  ${String(issue.path[0] ?? 'environment')}: ${issue.message}`);
    throw new ModelConfigError(`invalid model configuration:\n${lines.join('\n')}`, settings);
  }
  const value = parsed.data;
  return {
    provider: value.SRE_AGENT_MODEL_PROVIDER,
    model: value.SRE_AGENT_MODEL,
    baseUrl: value.SRE_AGENT_MODEL_BASE_URL,
    fallbacks: value.SRE_AGENT_FALLBACK ?? [],
    openaiApiKey: value.OPENAI_API_KEY,
    anthropicApiKey: value.ANTHROPIC_API_KEY,
    awsRegion: value.AWS_REGION,
    secretArn: value.SRE_AGENT_MODEL_SECRET_ARN,
    secretTtlMs: value.SRE_AGENT_SECRET_TTL_MS,
    callTimeoutMs: value.SRE_AGENT_CALL_TIMEOUT_MS,
    maxAttempts: value.SRE_AGENT_MAX_ATTEMPTS,
    maxOutputTokens: value.SRE_AGENT_MAX_OUTPUT_TOKENS,
    budget: {
      maxModelCalls: value.SRE_AGENT_MAX_MODEL_CALLS,
      maxTokens: value.SRE_AGENT_MAX_TOKENS,
      maxCostUsd: value.SRE_AGENT_MAX_COST_USD,
    },
    prices: value.SRE_AGENT_PRICES ?? defaultPrices,
  };
};
