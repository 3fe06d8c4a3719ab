import { z } from 'zod';
import { defineTool } from '../../../lib/tools/tool.ts';
import { serviceMatches, type RecordedEnvironment } from '../recorded-environment.ts';
import { serviceFilter, sinceMinutes } from './shared-inputs.ts';

export const listChanges = (environment: RecordedEnvironment) =>
  defineTool({
    name: 'list_changes',
    description: 'List recent changes (deploys, config, scaling, infrastructure, IAM, network, certificates, feature flags), oldest first.',
    input: z.object({ service: serviceFilter, sinceMinutes: sinceMinutes(24 * 60) }),
    sideEffect: 'read-only',
    iamActions: ['cloudtrail:LookupEvents', 'codedeploy:ListDeployments', 'ecs:DescribeServices'],
    run: async (input) => {
      if (!environment.has('changes')) return { summary: 'no change history is available', data: { available: false, changes: [] } };
      const changes = environment.changes(input.sinceMinutes).filter((change) => serviceMatches(input.service, change.service));
      return { summary: `${changes.length} changes`, data: { available: true, changes } };
    },
  });
