import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { scenario as scenarioSchema, type Scenario } from '../lib/domain/scenario.ts';

export const BUNDLED_SCENARIOS_DIR = fileURLToPath(new URL('../scenarios/', import.meta.url));

/** A scenario file that cannot be used, with every problem found in it. */
export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`${source}: ${problems.length === 1 ? problems[0] : `${problems.length} problems:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`}`);
  }
}

/** `$.trigger.cloudwatchAlarm.detail.alarmName`-style paths for zod issues. */
const jsonPath = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`), '$');

export const describeIssues = (error: z.ZodError): string[] =>
  error.issues.map((issue) => `${jsonPath(issue.path)}: ${issue.message}`);

export const parseScenarioText = (text: string, source: string): Scenario => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(source, [`not valid JSON (${error instanceof Error ? error.message : String(error)})`]);
  }
  const parsed = scenarioSchema.safeParse(value);
  if (!parsed.success) throw new ScenarioError(source, describeIssues(parsed.error));
  return parsed.data;
};

export const bundledScenarioIds = (): string[] =>
  existsSync(BUNDLED_SCENARIOS_DIR)
    ? readdirSync(BUNDLED_SCENARIOS_DIR)
        .filter((name) => name.endsWith('.json'))
        .map((name) => basename(name, '.json'))
        .sort()
    : [];

/** A path to a scenario file, or the id of a bundled scenario. */
export const loadScenario = (fileOrId: string): Scenario => {
  const asPath = resolve(fileOrId);
  if (existsSync(asPath) && statSync(asPath).isFile()) return parseScenarioText(readFileSync(asPath, 'utf8'), fileOrId);
  const bundled = join(BUNDLED_SCENARIOS_DIR, `${fileOrId}.json`);
  if (/^[a-z0-9-]+$/.test(fileOrId) && existsSync(bundled)) return parseScenarioText(readFileSync(bundled, 'utf8'), bundled);
  throw new ScenarioError(fileOrId, [
    `no such file, and no bundled scenario with that id. Bundled ids: ${bundledScenarioIds().join(', ') || 'none'}`,
  ]);
};
