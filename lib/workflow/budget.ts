import type { Investigation } from '../domain/investigation.ts';
import { budgetExhausted } from '../model/config/budget.ts';
import type { ModelBudget } from '../model/config/model-config.ts';

export interface InvestigationBudget extends ModelBudget {
  /** Wall time from the investigation's start. */
  maxWallMs?: number;
}

/** Which cap the investigation has reached, as a sentence naming the setting; undefined while there is room. */
export const budgetStop = (head: Investigation, budget: InvestigationBudget, now: Date): string | undefined => {
  const spent = budgetExhausted(head.usage, budget);
  if (spent) return spent;
  const elapsed = now.getTime() - Date.parse(head.createdAt);
  if (budget.maxWallMs !== undefined && elapsed >= budget.maxWallMs) {
    return `SRE_AGENT_MAX_WALL_SECONDS=${Math.round(budget.maxWallMs / 1000)} reached (${Math.round(elapsed / 1000)} s)`;
  }
  return undefined;
};
