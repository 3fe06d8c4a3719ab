import type { z } from 'zod';
import type { ToolContract } from './contract.ts';
import { getDependenciesContract } from './get-dependencies.ts';
import { getMetricsContract } from './get-metrics.ts';
import { getTracesContract } from './get-traces.ts';
import { listAlarmsContract } from './list-alarms.ts';
import { listChangesContract } from './list-changes.ts';
import { queryLogsContract } from './query-logs.ts';

export interface SurveyCall<C extends ToolContract = ToolContract> {
  contract: C;
  arguments: z.input<C['input']>;
}

const call = <C extends ToolContract>(contract: C, args: z.input<C['input']>): SurveyCall => ({ contract, arguments: args });

/**
 * The broad look at everything: the calls the offline analyst, analyze_incident and the bare-model
 * baseline all start from. Changes look back at least a day: a bad deploy may predate the onset.
 */
export const surveyCalls = (sinceMinutes: number, minLevel: 'DEBUG' | 'WARN'): SurveyCall[] => [
  call(listAlarmsContract, {}),
  call(getDependenciesContract, {}),
  call(listChangesContract, { sinceMinutes: Math.max(24 * 60, sinceMinutes) }),
  call(queryLogsContract, { minLevel, sinceMinutes, limit: 200 }),
  call(getMetricsContract, { sinceMinutes }),
  call(getTracesContract, { sinceMinutes }),
];
