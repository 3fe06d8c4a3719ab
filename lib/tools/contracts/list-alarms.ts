import { z } from 'zod';
import { defineContract } from './contract.ts';
import { unavailable } from './shared-inputs.ts';

export const alarmStates = ['ALARM', 'OK', 'INSUFFICIENT_DATA'] as const;

export const alarmSummary = z.object({
  name: z.string(),
  service: z.string(),
  state: z.enum(alarmStates),
  since: z.string().optional(),
  reason: z.string().optional(),
  severity: z.string().optional(),
});
export type AlarmSummary = z.infer<typeof alarmSummary>;

export const listAlarmsContract = defineContract({
  name: 'list_alarms',
  description:
    'List CloudWatch alarms and their current state, with the service each watches. Use it first, to see what else is firing; not for the metric values themselves (use get_metrics).',
  input: z.object({ state: z.enum(alarmStates).optional().describe('Only alarms in this state.') }),
  output: z.discriminatedUnion('available', [unavailable, z.object({ available: z.literal(true), alarms: z.array(alarmSummary) })]),
});
