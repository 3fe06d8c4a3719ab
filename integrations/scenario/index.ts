import { analyzeIncident } from '../../lib/analyst/analyze-incident-tool.ts';
import { environment as environmentSchema, type Environment } from '../../lib/domain/scenario.ts';
import type { ToolDefinition } from '../../lib/tools/tool.ts';
import { RecordedEnvironment } from './recorded-environment.ts';
import { describeService } from './tools/describe-service.ts';
import { getDependencies } from './tools/get-dependencies.ts';
import { getMetrics } from './tools/get-metrics.ts';
import { getTraces } from './tools/get-traces.ts';
import { listAlarms } from './tools/list-alarms.ts';
import { listChanges } from './tools/list-changes.ts';
import { queryLogs } from './tools/query-logs.ts';
import { recordedRemediationTools } from './tools/remediation.ts';
import { searchRunbooks } from './tools/search-runbooks.ts';
import { z } from 'zod';

/** What a scenario replay stores: the environment and the incident's clock, never the answer key. */
export const replaySnapshot = z.object({ now: z.string(), environment: environmentSchema });
export type ReplaySnapshot = z.infer<typeof replaySnapshot>;

/** The tools over a recorded environment: the read-only ones, analyze_incident over them, and the remediation tools (recorded, never executed). */
export const scenarioTools = (environment: Environment, now: Date): ToolDefinition[] => recordedEnvironmentTools(new RecordedEnvironment(environment, now));

/** The read-only tools over an already indexed recorded environment. */
export const recordedEnvironmentTools = (recorded: RecordedEnvironment): ToolDefinition[] => {
  const tools = [
    listAlarms(recorded),
    getDependencies(recorded),
    listChanges(recorded),
    queryLogs(recorded),
    getMetrics(recorded),
    getTraces(recorded),
    describeService(recorded),
    searchRunbooks(recorded),
  ] as ToolDefinition[];
  return [...tools, analyzeIncident(tools) as ToolDefinition, ...recordedRemediationTools()];
};
