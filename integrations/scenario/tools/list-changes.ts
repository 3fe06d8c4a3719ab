import { listChangesContract } from '../../../lib/tools/contracts/list-changes.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import { serviceMatches, type RecordedEnvironment } from '../recorded-environment.ts';
import { noData, sinceMinutes } from '../../../lib/tools/contracts/shared-inputs.ts';

export const listChanges = (environment: RecordedEnvironment) =>
  implementTool(listChangesContract, {
    sideEffect: 'read-only',
    iamActions: ['cloudtrail:LookupEvents', 'codedeploy:ListDeployments', 'ecs:DescribeServices'],
    run: async (input) => {
      if (!environment.has('changes')) return noData('no change history is available');
      const changes = environment.changes(input.sinceMinutes).filter((change) => serviceMatches(input.service, change.service));
      return { summary: `${changes.length} changes`, data: { available: true, changes } };
    },
  });
