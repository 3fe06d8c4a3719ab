import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scenario, type Scenario } from '../lib/domain/scenario.ts';
import { triggerKind } from '../lib/domain/trigger.ts';
import { expectNoAnswerLeak } from './support/answer-leak.ts';

// The holdout suites are scored, never tuned against: these checks guard their shape, not their answers.
// `fresh/` and `fresh2/` are later suites, each written independently of the ones before it.
const holdoutDir = fileURLToPath(new URL('../scenarios/holdout/', import.meta.url));

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
const all = loadValid(holdoutDir, 'scenarios/holdout/', files);

interface LaterSuite {
  name: string;
  dir: string;
  label: string;
  files: string[];
  loaded: Loaded[];
}

const laterSuite = (name: string): LaterSuite => {
  const dir = join(holdoutDir, name);
  const label = `scenarios/holdout/${name}/`;
  const names = jsonFiles(dir);
  return { name, dir, label, files: names, loaded: loadValid(dir, label, names) };
};

const laterSuites = [laterSuite('fresh'), laterSuite('fresh2')];

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

const describeLaterSuite = ({ name, dir, label, files: names, loaded }: LaterSuite) =>
  describe(`${name} holdout scenarios`, () => {
    it.each(names)('%s parses with the scenario schema', (file) => {
      expect(() => load(dir, label, file)).not.toThrow();
    });

    it('has at least 20 scenarios', () => {
      expect(loaded.length).toBeGreaterThanOrEqual(20);
    });

    it('ids equal the file name and are unique across all holdout suites', () => {
      for (const { file, parsed } of loaded) expect(`${parsed.id}.json`).toBe(file);
      const ids = loaded.map(({ parsed }) => parsed.id);
      const otherSuites = [all, ...laterSuites.filter((suite) => suite.name !== name).map((suite) => suite.loaded)];
      const elsewhere = new Set(otherSuites.flat().map(({ parsed }) => parsed.id));
      const repeated = ids.filter((id, index) => ids.indexOf(id) !== index || elsewhere.has(id));
      expect(repeated, `ids of ${label} used twice or in another holdout suite: ${repeated.join(', ')}`).toEqual([]);
    });

    it('has at least 20% healthy controls', () => {
      const controls = loaded.filter(({ parsed }) => !parsed.truth.incident);
      expect(controls.length / loaded.length).toBeGreaterThanOrEqual(0.2);
      for (const { parsed } of controls) expect(isControlCategory(parsed.truth.rootCause?.category)).toBe(true);
    });

    it('uses all four trigger kinds', () => {
      const kinds = new Set(loaded.map(({ parsed }) => triggerKind(parsed.trigger)));
      expect([...kinds].sort()).toEqual(['cloudwatchAlarm', 'pagerduty', 'question', 'schedule']);
    });

    describeAnswerKeys(loaded);
  });

for (const suite of laterSuites) describeLaterSuite(suite);
