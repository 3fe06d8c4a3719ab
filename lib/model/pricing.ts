import { z } from 'zod';
import type { TokenUsage } from '../domain/usage.ts';

/** USD per million tokens. `cachedInput` is the price of prompt tokens read from the provider's cache. */
export const modelPrice = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cachedInput: z.number().nonnegative().optional(),
});
export type ModelPrice = z.infer<typeof modelPrice>;
export type PriceTable = Readonly<Record<string, ModelPrice>>;

const anthropicPrices: PriceTable = {
  'claude-3-haiku': { input: 0.25, output: 1.25, cachedInput: 0.03 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cachedInput: 0.08 },
  'claude-3-5-sonnet': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-3-7-sonnet': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-haiku-4-5': { input: 1, output: 5, cachedInput: 0.1 },
  'claude-sonnet-4': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-opus-4': { input: 15, output: 75, cachedInput: 1.5 },
  'claude-opus-4-5': { input: 5, output: 25, cachedInput: 0.5 },
};

/**
 * List prices (USD per million tokens) by model-id prefix; the longest matching prefix wins. Bedrock's
 * `anthropic.*` ids cost what Anthropic's do. Prices change: override with `SRE_AGENT_PRICES`.
 */
export const defaultPrices: PriceTable = {
  'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  'gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'gpt-5': { input: 1.25, output: 10, cachedInput: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cachedInput: 0.005 },
  o3: { input: 2, output: 8, cachedInput: 0.5 },
  'o3-pro': { input: 20, output: 80 },
  'o3-mini': { input: 1.1, output: 4.4, cachedInput: 0.55 },
  'o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  ...anthropicPrices,
  ...Object.fromEntries(Object.entries(anthropicPrices).map(([prefix, price]) => [`anthropic.${prefix}`, price])),
  'amazon.nova-micro': { input: 0.035, output: 0.14, cachedInput: 0.00875 },
  'amazon.nova-lite': { input: 0.06, output: 0.24, cachedInput: 0.015 },
  'amazon.nova-pro': { input: 0.8, output: 3.2, cachedInput: 0.2 },
  'amazon.nova-premier': { input: 2.5, output: 12.5, cachedInput: 0.625 },
};

/** Context windows (tokens) by model-id prefix; conservative where a model has larger beta windows. */
export const defaultContextWindows: Readonly<Record<string, number>> = {
  'gpt-4o': 128_000,
  'gpt-4.1': 1_047_576,
  'gpt-5': 400_000,
  o3: 200_000,
  'o4-mini': 200_000,
  claude: 200_000,
  'anthropic.claude': 200_000,
  'amazon.nova-micro': 128_000,
  'amazon.nova-lite': 300_000,
  'amazon.nova-pro': 300_000,
  'amazon.nova-premier': 1_000_000,
};

/** The window assumed for a model not in the table. */
export const DEFAULT_CONTEXT_WINDOW = 32_000;

/**
 * The id the tables are keyed by: lower case, without a provider path (`openai/gpt-4o`, Bedrock ARNs)
 * or a Bedrock cross-region prefix (`us.`, `eu.`, `apac.`, `global.`), and Claude versions with dashes.
 */
export const normalizeModelId = (model: string): string => {
  let id = model.trim().toLowerCase();
  id = id.slice(id.lastIndexOf('/') + 1);
  id = id.replace(/^(us|eu|apac|ap|global|us-gov|jp|au|ca)\./, '');
  if (id.includes('claude')) id = id.replace(/(\d)\.(\d)/g, '$1-$2');
  return id;
};

const longestPrefix = <T>(table: Readonly<Record<string, T>>, model: string): { prefix: string; value: T } | undefined => {
  const id = normalizeModelId(model);
  let best: { prefix: string; value: T } | undefined;
  for (const [prefix, value] of Object.entries(table)) {
    if (id.startsWith(prefix.toLowerCase()) && (best === undefined || prefix.length > best.prefix.length)) best = { prefix, value };
  }
  return best;
};

/** Parses `SRE_AGENT_PRICES`: a JSON object of prefix → `{input, output, cachedInput?}` in USD per million tokens. */
export const parsePriceOverrides = (json: string): Record<string, ModelPrice> => {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new Error(`SRE_AGENT_PRICES is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = z.record(z.string().min(1), modelPrice).safeParse(value);
  if (!parsed.success) {
    throw new Error(`SRE_AGENT_PRICES must map model-id prefixes to {"input": n, "output": n, "cachedInput"?: n} (USD per million tokens): ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
};

let cachedTable: { source: string | undefined; table: PriceTable } | undefined;

/** The default prices with `SRE_AGENT_PRICES` laid over them. */
export const priceTable = (env: Record<string, string | undefined> = process.env): PriceTable => {
  const source = env.SRE_AGENT_PRICES?.trim() || undefined;
  if (cachedTable && cachedTable.source === source) return cachedTable.table;
  const table = source === undefined ? defaultPrices : { ...defaultPrices, ...parsePriceOverrides(source) };
  cachedTable = { source, table };
  return table;
};

/** The price entry a model matches, if any. */
export const priceOf = (model: string, table: PriceTable = priceTable()): { prefix: string; price: ModelPrice } | undefined => {
  const match = longestPrefix(table, model);
  return match && { prefix: match.prefix, price: match.value };
};

export interface CostEstimate {
  usd: number;
  /** False when the model is not in the price table: the cost is then reported as 0. */
  priced: boolean;
  /** The table prefix that matched. */
  matched?: string;
}

/** Cost of one call. The usage's cachedTokens are a part of its inputTokens, billed at the cached price. */
export const estimateCost = (model: string, usage: TokenUsage, table: PriceTable = priceTable()): CostEstimate => {
  const match = priceOf(model, table);
  if (!match) return { usd: 0, priced: false };
  const { price } = match;
  const cached = Math.min(usage.cachedTokens, usage.inputTokens);
  const usd = ((usage.inputTokens - cached) * price.input + cached * (price.cachedInput ?? price.input) + usage.outputTokens * price.output) / 1_000_000;
  return { usd, priced: true, matched: match.prefix };
};

/** Cost of one call in USD; 0 for a model not in the table (see `estimateCost(...).priced`, `isPriced`). */
export const costOf = (model: string, usage: TokenUsage, table?: PriceTable): number => estimateCost(model, usage, table).usd;

export const isPriced = (model: string, table?: PriceTable): boolean => priceOf(model, table) !== undefined;

/** The model's context window in tokens; `DEFAULT_CONTEXT_WINDOW` for unknown models. */
export const contextWindowOf = (model: string): number => longestPrefix(defaultContextWindows, model)?.value ?? DEFAULT_CONTEXT_WINDOW;
