import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { investigableScenario, scenario as scenarioSchema, type InvestigableScenario, type Scenario } from '../lib/domain/scenario.ts';

export const BUNDLED_SCENARIOS_DIR = fileURLToPath(new URL('../scenarios/', import.meta.url));

/**
 * The largest scenario file sre-agent reads: its recorded environment is held in memory, stored
 * as one snapshot and indexed by the tools, which a 64 MB file leaves well within a laptop's memory.
 */
export const MAX_SCENARIO_FILE_BYTES = 64 * 1024 * 1024;

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

const parseWith = <S extends z.ZodType>(schema: S, text: string, source: string): z.infer<S> => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(source, [`not valid JSON (${error instanceof Error ? error.message : String(error)})`]);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ScenarioError(source, describeIssues(parsed.error));
  return parsed.data;
};

/** A scenario with its answer key (`truth`), as `eval` grades it. */
export const parseScenarioText = (text: string, source: string): Scenario => parseWith(scenarioSchema, text, source);

/** A scenario to investigate: `truth` may be absent. */
export const parseInvestigableScenarioText = (text: string, source: string): InvestigableScenario => parseWith(investigableScenario, text, source);

const megabytes = (bytes: number): string => `${Math.floor((bytes / 1024 / 1024) * 10) / 10} MB`;

/** Reads a scenario file, refusing one over the maximum before reading it. */
export const readScenarioFile = (path: string, source: string): string => {
  const { size } = statSync(path);
  if (size > MAX_SCENARIO_FILE_BYTES) {
    throw new ScenarioError(source, [
      `the file is ${size} bytes (${megabytes(size)}), over the ${megabytes(MAX_SCENARIO_FILE_BYTES)} (${MAX_SCENARIO_FILE_BYTES} bytes) limit for a scenario file; keep the environment to the incident's window and services`,
    ]);
  }
  return readFileSync(path, 'utf8');
};

export const bundledScenarioIds = (): string[] =>
  existsSync(BUNDLED_SCENARIOS_DIR)
    ? readdirSync(BUNDLED_SCENARIOS_DIR)
        .filter((name) => name.endsWith('.json'))
        .map((name) => basename(name, '.json'))
        .sort()
    : [];

/** A path to a scenario file, or the id of a bundled scenario, to investigate (its answer key is not needed). */
export const loadScenario = (fileOrId: string): InvestigableScenario => {
  const asPath = resolve(fileOrId);
  if (existsSync(asPath) && statSync(asPath).isFile()) return parseInvestigableScenarioText(readScenarioFile(asPath, fileOrId), fileOrId);
  const bundled = join(BUNDLED_SCENARIOS_DIR, `${fileOrId}.json`);
  if (/^[a-z0-9-]+$/.test(fileOrId) && existsSync(bundled)) return parseInvestigableScenarioText(readScenarioFile(bundled, bundled), bundled);
  throw new ScenarioError(fileOrId, [
    `no such file, and no bundled scenario with that id. Bundled ids: ${bundledScenarioIds().join(', ') || 'none'}`,
  ]);
};
