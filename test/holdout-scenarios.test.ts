import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scenario, type Scenario } from '../lib/domain/scenario.ts';
import { triggerKind } from '../lib/domain/trigger.ts';

// The holdout suite is scored, never tuned against: these checks guard its shape, not its answers.
const dir = fileURLToPath(new URL('../scenarios/holdout/', import.meta.url));
const files = readdirSync(dir).filter((name) => name.endsWith('.json')).sort();

interface Loaded {
  file: string;
  raw: Record<string, unknown>;
  parsed: Scenario;
}

const load = (file: string): Loaded => {
  const raw = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
  const result = scenario.safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`scenarios/holdout/${file} does not match sre-scenario/v1: ${issues}`);
  }
  return { file, raw, parsed: result.data };
};

describe('holdout scenarios', () => {
  it.each(files)('%s parses with the scenario schema', (file) => {
    expect(() => load(file)).not.toThrow();
  });

  const all = files.map(load);

  it('has at least 40 scenarios', () => {
    expect(all.length).toBeGreaterThanOrEqual(40);
  });

  it('ids are unique and equal the file name', () => {
    const ids = all.map(({ parsed }) => parsed.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { file, parsed } of all) expect(`${parsed.id}.json`).toBe(file);
  });

  it('has at least 20% healthy controls', () => {
    const controls = all.filter(({ parsed }) => !parsed.truth.incident);
    expect(controls.length / all.length).toBeGreaterThanOrEqual(0.2);
    for (const { parsed } of controls) {
      const category = parsed.truth.rootCause?.category;
      expect(category === undefined || category === 'none' || (Array.isArray(category) && category.includes('none'))).toBe(true);
    }
  });

  it('uses all four trigger kinds, including metric-math and composite alarms', () => {
    const kinds = new Set(all.map(({ parsed }) => triggerKind(parsed.trigger)));
    expect([...kinds].sort()).toEqual(['cloudwatchAlarm', 'pagerduty', 'question', 'schedule']);
    const configs = all.flatMap(({ parsed }) => ('cloudwatchAlarm' in parsed.trigger ? [parsed.trigger.cloudwatchAlarm.detail.configuration] : []));
    expect(configs.some((config) => config?.alarmRule)).toBe(true);
    expect(configs.some((config) => config?.metrics?.some((metric) => metric.expression))).toBe(true);
  });

  describe.each(all.map((loaded) => [loaded.parsed.id, loaded] as const))('%s', (_id, { raw, parsed: s }) => {
    it('answer key names services of the environment and never blames a distractor', () => {
      const services = new Set((s.environment.services ?? []).map((service) => service.name));
      if (services.size > 0) {
        const named = [
          ...(s.truth.rootCause ? [s.truth.rootCause.service] : []),
          ...(s.truth.distractors ?? []),
          ...(s.truth.remediation ?? []).map((step) => step.target),
        ];
        for (const name of named) expect(services, `${name} is not in environment.services`).toContain(name);
      }
      expect(s.truth.distractors ?? []).not.toContain(s.truth.rootCause?.service);
      if (s.truth.incident) expect(s.truth.rootCause).toBeDefined();
    });

    it('does not leak the id, title or description to the agent', () => {
      const visible = JSON.stringify({ trigger: raw.trigger, environment: raw.environment }).toLowerCase();
      expect(visible).not.toContain(s.id.toLowerCase());
      expect(visible).not.toContain(s.title.toLowerCase());
      if (s.description) expect(visible).not.toContain(s.description.toLowerCase());
      expect(visible).not.toMatch(/root[ -]?cause/);
    });
  });
});
