import type { UsageTotals } from '../../domain/usage.ts';
import type { ModelBudget } from './model-config.ts';

/**
 * Which budget an investigation's usage has reached, as a sentence naming the setting, or undefined
 * while there is room for another model call. Check before each call; when it says stop, ask for the
 * final answer (or end the run).
 */
export const budgetExhausted = (usage: UsageTotals, budget: ModelBudget): string | undefined => {
  if (usage.modelCalls >= budget.maxModelCalls) return `SRE_AGENT_MAX_MODEL_CALLS=${budget.maxModelCalls} reached (${usage.modelCalls} model calls)`;
  const tokens = usage.inputTokens + usage.outputTokens;
  if (tokens >= budget.maxTokens) return `SRE_AGENT_MAX_TOKENS=${budget.maxTokens} reached (${tokens} tokens)`;
  if (usage.costUsd >= budget.maxCostUsd) return `SRE_AGENT_MAX_COST_USD=${budget.maxCostUsd} reached ($${usage.costUsd.toFixed(4)})`;
  return undefined;
};
