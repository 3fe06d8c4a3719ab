import { z } from 'zod';
import { defineTool } from '../../../lib/tools/tool.ts';
import type { RecordedEnvironment } from '../recorded-environment.ts';

export const listAlarms = (environment: RecordedEnvironment) =>
  defineTool({
    name: 'list_alarms',
    description: 'List CloudWatch alarms and their current state.',
    input: z.object({ state: z.enum(['ALARM', 'OK', 'INSUFFICIENT_DATA']).optional().describe('Only alarms in this state.') }),
    sideEffect: 'read-only',
    iamActions: ['cloudwatch:DescribeAlarms'],
    run: async (input) => {
      if (!environment.has('alarms')) return { summary: 'no alarm data is available', data: { available: false, alarms: [] } };
      const alarms = environment.alarms.filter((alarm) => input.state === undefined || alarm.state === input.state);
      const firing = alarms.filter((alarm) => alarm.state === 'ALARM').length;
      return { summary: `${alarms.length} alarms, ${firing} in ALARM`, data: { available: true, alarms } };
    },
  });
