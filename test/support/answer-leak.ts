import { expect } from 'vitest';
import type { Scenario } from '../../lib/domain/scenario.ts';

/** What the agent sees of a scenario (its trigger and environment) names neither the scenario nor its answer. */
export const expectNoAnswerLeak = (raw: Record<string, unknown>, s: Scenario): void => {
  const visible = JSON.stringify({ trigger: raw.trigger, environment: raw.environment }).toLowerCase();
  expect(visible).not.toContain(s.id.toLowerCase());
  expect(visible).not.toContain(s.title.toLowerCase());
  if (s.description) expect(visible).not.toContain(s.description.toLowerCase());
  expect(visible).not.toMatch(/root[ -]?cause/);
};
