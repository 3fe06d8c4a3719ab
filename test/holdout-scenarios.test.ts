import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scenario, type Scenario } from '../lib/domain/scenario.ts';
import { triggerKind } from '../lib/domain/trigger.ts';
import { expectNoAnswerLeak } from './support/answer-leak.ts';

// The holdout suites are scored, never tuned against: these checks guard their shape, not their answers.
// `fresh/` is a second suite, written later and independently of the first.
const holdoutDir = fileURLToPath(new URL('../scenarios/holdout/', import.meta.url));
const freshDir = join(holdoutDir, 'fresh');

interface Loaded {
  file: string;
  raw: Record<string, unknown>;
  parsed: Scenario;
}

const jsonFiles = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.json')).sort();

const load = (dir: string, label: string, file: string): Loaded => {
  const raw = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
  const result = scenario.safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`${label}${file} does not match sre-scenario/v1: ${issues}`);
  }
  return { file, raw, parsed: result.data };
};

type Category = NonNullable<Scenario['truth']['rootCause']>['category'];

const isControlCategory = (category: Category | undefined): boolean =>
  category === undefined || category === 'none' || (Array.isArray(category) && category.includes('none'));

const describeAnswerKeys = (all: Loaded[]) =>
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
      expectNoAnswerLeak(raw, s);
    });
  });

// A file that does not parse fails its own "parses" test; the suite-level checks run on the rest.
const loadValid = (dir: string, label: string, names: string[]): Loaded[] =>
  names.flatMap((file) => {
    try {
      return [load(dir, label, file)];
    } catch {
      return [];
    }
  });

const files = jsonFiles(holdoutDir);
const freshFiles = jsonFiles(freshDir);
const all = loadValid(holdoutDir, 'scenarios/holdout/', files);
const fresh = loadValid(freshDir, 'scenarios/holdout/fresh/', freshFiles);

describe('holdout scenarios', () => {
  it.each(files)('%s parses with the scenario schema', (file) => {
    expect(() => load(holdoutDir, 'scenarios/holdout/', file)).not.toThrow();
  });

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
    for (const { parsed } of controls) expect(isControlCategory(parsed.truth.rootCause?.category)).toBe(true);
  });

  it('uses all four trigger kinds, including metric-math and composite alarms', () => {
    const kinds = new Set(all.map(({ parsed }) => triggerKind(parsed.trigger)));
    expect([...kinds].sort()).toEqual(['cloudwatchAlarm', 'pagerduty', 'question', 'schedule']);
    const configs = all.flatMap(({ parsed }) => ('cloudwatchAlarm' in parsed.trigger ? [parsed.trigger.cloudwatchAlarm.detail.configuration] : []));
    expect(configs.some((config) => config?.alarmRule)).toBe(true);
    expect(configs.some((config) => config?.metrics?.some((metric) => metric.expression))).toBe(true);
  });

  describeAnswerKeys(all);
});

describe('fresh holdout scenarios', () => {
  it.each(freshFiles)('%s parses with the scenario schema', (file) => {
    expect(() => load(freshDir, 'scenarios/holdout/fresh/', file)).not.toThrow();
  });

  it('has at least 20 scenarios', () => {
    expect(fresh.length).toBeGreaterThanOrEqual(20);
  });

  it('ids equal the file name and are unique across both holdout suites', () => {
    for (const { file, parsed } of fresh) expect(`${parsed.id}.json`).toBe(file);
    const ids = [...all, ...fresh].map(({ parsed }) => parsed.id);
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    expect(repeated, `ids used in both scenarios/holdout/ and scenarios/holdout/fresh/: ${repeated.join(', ')}`).toEqual([]);
  });

  it('has at least 20% healthy controls', () => {
    const controls = fresh.filter(({ parsed }) => !parsed.truth.incident);
    expect(controls.length / fresh.length).toBeGreaterThanOrEqual(0.2);
    for (const { parsed } of controls) expect(isControlCategory(parsed.truth.rootCause?.category)).toBe(true);
  });

  it('uses all four trigger kinds', () => {
    const kinds = new Set(fresh.map(({ parsed }) => triggerKind(parsed.trigger)));
    expect([...kinds].sort()).toEqual(['cloudwatchAlarm', 'pagerduty', 'question', 'schedule']);
  });

  describeAnswerKeys(fresh);
});
