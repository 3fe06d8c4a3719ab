import { describe, expect, it } from 'vitest';
import type { Investigation } from '../../lib/domain/investigation.ts';
import { emptyUsage } from '../../lib/domain/usage.ts';
import { budgetStop } from '../../lib/workflow/budget.ts';

const head = (usage: Partial<Investigation['usage']> = {}): Investigation => ({
  id: 'b',
  triggerKind: 'question',
  triggerSummary: 'q',
  status: 'running',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  eventCount: 0,
  iterations: 0,
  usage: { ...emptyUsage(), ...usage },
  modelName: 'm',
  toolSource: { kind: 'none' },
});
const budget = { maxModelCalls: 10, maxTokens: 1000, maxCostUsd: 1, maxWallMs: 60_000 };
const at = (seconds: number) => new Date(Date.parse('2026-01-01T00:00:00.000Z') + seconds * 1000);

describe('budgetStop', () => {
  it('leaves room while every cap has some', () => {
    expect(budgetStop(head({ modelCalls: 9, inputTokens: 500, outputTokens: 499, costUsd: 0.99 }), budget, at(59))).toBeUndefined();
  });

  it('names the cap that was reached', () => {
    expect(budgetStop(head({ modelCalls: 10 }), budget, at(1))).toMatch(/SRE_AGENT_MAX_MODEL_CALLS=10/);
    expect(budgetStop(head({ inputTokens: 900, outputTokens: 100 }), budget, at(1))).toMatch(/SRE_AGENT_MAX_TOKENS=1000/);
    expect(budgetStop(head({ costUsd: 1.5 }), budget, at(1))).toMatch(/SRE_AGENT_MAX_COST_USD=1/);
    expect(budgetStop(head(), budget, at(60))).toMatch(/SRE_AGENT_MAX_WALL_SECONDS=60/);
  });
});
