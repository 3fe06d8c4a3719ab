import { listAlarmsContract } from '../../../lib/tools/contracts/list-alarms.ts';
import { noData } from '../../../lib/tools/contracts/shared-inputs.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import type { RecordedEnvironment } from '../recorded-environment.ts';

export const listAlarms = (environment: RecordedEnvironment) =>
  implementTool(listAlarmsContract, {
    sideEffect: 'read-only',
    iamActions: ['cloudwatch:DescribeAlarms'],
    run: async (input) => {
      if (!environment.has('alarms')) return noData('no alarm data is available');
      const alarms = environment.alarms.filter((alarm) => input.state === undefined || alarm.state === input.state);
      const firing = alarms.filter((alarm) => alarm.state === 'ALARM').length;
      return { summary: `${alarms.length} alarms, ${firing} in ALARM`, data: { available: true, alarms } };
    },
  });
