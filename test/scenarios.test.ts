import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scenario, type Scenario } from '../lib/domain/scenario.ts';
import { triggerKind, type TriggerKind } from '../lib/domain/trigger.ts';
import { rootCauseCategories } from '../lib/domain/vocabulary.ts';
import { expectNoAnswerLeak } from './support/answer-leak.ts';

const dir = fileURLToPath(new URL('../scenarios/', import.meta.url));
const files = readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
// Blind candidates wait in candidates/ until they join the tuning suite: each must already be a sound scenario.
const candidates = readdirSync(join(dir, 'candidates')).filter((name) => name.endsWith('.json')).sort().map((name) => `candidates/${name}`);

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
    throw new Error(`${file} does not match sre-scenario/v1: ${issues}`);
  }
  return { file, raw, parsed: result.data };
};

const categoriesOf = (s: Scenario): string[] => {
  const category = s.truth.rootCause?.category;
  if (category === undefined) return [];
  return Array.isArray(category) ? category : [category];
};

const millis = (timestamp: string): number => Date.parse(timestamp);

describe('bundled scenarios', () => {
  it('has the walking-skeleton scenarios and more', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
    for (const id of ['bad-deploy-cascade', 'db-connection-exhaustion', 'memory-leak-restarts']) {
      expect(files).toContain(`${id}.json`);
    }
  });

  it.each(files)('%s parses with the scenario schema', (file) => {
    expect(() => load(file)).not.toThrow();
  });

  const all = files.map(load);

  it.skipIf(candidates.length === 0).each(candidates)('%s parses with the scenario schema', (file) => {
    expect(() => load(file)).not.toThrow();
  });

  const waiting = candidates.map(load);

  it('ids are unique and equal the file name', () => {
    const ids = [...all, ...waiting].map(({ parsed }) => parsed.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { file, parsed } of [...all, ...waiting]) expect(`${parsed.id}.json`).toBe(file.replace(/^candidates\//, ''));
  });

  it('covers every root-cause category of the vocabulary', () => {
    const seen = new Set(all.flatMap(({ parsed }) => categoriesOf(parsed)));
    const missing = rootCauseCategories.filter((category) => category !== 'none' && !seen.has(category));
    expect(missing).toEqual([]);
  });

  it('has at least two healthy controls', () => {
    expect(all.filter(({ parsed }) => !parsed.truth.incident).length).toBeGreaterThanOrEqual(2);
  });

  it('uses all four trigger kinds, with enough pagerduty and question triggers', () => {
    const kinds = all.map(({ parsed }) => triggerKind(parsed.trigger));
    const count = (kind: TriggerKind) => kinds.filter((k) => k === kind).length;
    expect(count('cloudwatchAlarm')).toBeGreaterThan(0);
    expect(count('pagerduty')).toBeGreaterThanOrEqual(3);
    expect(count('question')).toBeGreaterThanOrEqual(2);
    expect(count('schedule')).toBeGreaterThanOrEqual(1);
  });

  it('includes metric-math and composite alarms', () => {
    const configs = all.flatMap(({ parsed }) => ('cloudwatchAlarm' in parsed.trigger ? [parsed.trigger.cloudwatchAlarm.detail.configuration] : []));
    expect(configs.some((c) => c?.alarmRule)).toBe(true);
    expect(configs.some((c) => c?.metrics?.some((m) => m.expression))).toBe(true);
  });

  it('has several scenarios with a missing data source', () => {
    const sources = ['logs', 'metrics', 'changes', 'alarms', 'runbooks', 'traces'] as const;
    const lacking = all.filter(({ parsed }) => sources.some((source) => parsed.environment[source] === undefined));
    expect(lacking.length).toBeGreaterThanOrEqual(4);
  });

  describe.each([...all, ...waiting].map((loaded) => [loaded.file, loaded] as const))('%s', (_file, { file, raw, parsed: s }) => {
    const services = new Set((s.environment.services ?? []).map((service) => service.name));
    const now = millis(s.now);

    it('answer key names known services', () => {
      const named = [
        ...(s.truth.rootCause ? [s.truth.rootCause.service] : []),
        ...(s.truth.distractors ?? []),
        ...(s.truth.remediation ?? []).map((step) => step.target),
      ];
      for (const name of named) expect(services, `${name} is not in environment.services`).toContain(name);
      if (s.truth.incident) {
        expect(s.truth.rootCause).toBeDefined();
        expect(categoriesOf(s)).not.toContain('none');
        expect(s.truth.remediation?.length ?? 0).toBeGreaterThan(0);
      }
      expect(s.truth.distractors?.length ?? 0).toBeGreaterThan(0);
      expect(s.truth.distractors ?? []).not.toContain(s.truth.rootCause?.service);
    });

    it('environment records refer to known services', () => {
      const env = s.environment;
      const referenced = [
        ...(env.services ?? []).flatMap((service) => service.dependsOn ?? []),
        ...(env.logs ?? []).map((entry) => entry.service),
        ...(env.metrics ?? []).map((series) => series.service),
        ...(env.changes ?? []).map((change) => change.service),
        ...(env.traces ?? []).flatMap((trace) => [trace.service, ...(trace.segments ?? []).map((segment) => segment.service)]),
      ];
      const unknown = [...new Set(referenced.filter((name) => !services.has(name)))];
      expect(unknown).toEqual([]);
    });

    // A candidate may carry more log lines than the tuning suite keeps; it is trimmed when it joins.
    it.skipIf(file.startsWith('candidates/'))('has realistic volumes of data', () => {
      const logs = s.environment.logs ?? [];
      expect(logs.length).toBeGreaterThanOrEqual(40);
      expect(logs.length).toBeLessThanOrEqual(600);
      expect(s.environment.services?.length ?? 0).toBeGreaterThanOrEqual(4);
      expect(s.environment.accountId).toMatch(/^\d{12}$/);
      expect(statSync(join(dir, file)).size).toBeLessThan(300 * 1024);
      const metrics = s.environment.metrics ?? [];
      expect(metrics.length).toBeGreaterThan(0);
      const earliest = Math.min(...metrics.flatMap((series) => series.points.map(([timestamp]) => millis(timestamp))));
      expect(now - earliest).toBeGreaterThanOrEqual(60 * 60_000);
      for (const series of metrics) {
        const times = series.points.map(([timestamp]) => millis(timestamp));
        expect(times, `${series.service} ${series.name} points out of order`).toEqual([...times].sort((a, b) => a - b));
      }
    });

    it('has a trigger that happened before now', () => {
      if ('cloudwatchAlarm' in s.trigger) {
        expect(millis(s.trigger.cloudwatchAlarm.time)).toBeLessThanOrEqual(now);
        expect(s.trigger.cloudwatchAlarm.account).toBe(s.environment.accountId);
        expect(s.trigger.cloudwatchAlarm.region).toBe(s.environment.region);
        const reasonData = s.trigger.cloudwatchAlarm.detail.state.reasonData;
        if (reasonData !== undefined) expect(() => JSON.parse(reasonData)).not.toThrow();
      }
      if ('pagerduty' in s.trigger) expect(millis(s.trigger.pagerduty.event.occurred_at)).toBeLessThanOrEqual(now);
    });

    it('does not leak the id, title or description to the agent', () => {
      expectNoAnswerLeak(raw, s);
    });
  });
});
