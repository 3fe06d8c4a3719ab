import { describeServiceContract, serviceDescription } from '../../../lib/tools/contracts/describe-service.ts';
import { noData } from '../../../lib/tools/contracts/shared-inputs.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import { serviceMatches, type RecordedEnvironment } from '../recorded-environment.ts';

/** A recorded environment knows a service's kind, ARN and tags, and its platform events are its recorded changes. */
export const describeService = (environment: RecordedEnvironment) =>
  implementTool(describeServiceContract, {
    sideEffect: 'read-only',
    iamActions: ['lambda:GetFunctionConfiguration', 'ecs:DescribeServices', 'rds:DescribeDBInstances'],
    run: async (input) => {
      if (!environment.has('services')) return noData('no resource descriptions are available');
      const service = environment.services.find((candidate) => serviceMatches(input.service, candidate.name));
      if (!service) return noData(`no service named ${input.service}`);
      const events = environment.has('changes')
        ? environment
            .changes(7 * 24 * 60)
            .filter((change) => change.service === service.name)
            .map((change) => ({ timestamp: change.timestamp, source: change.kind, message: change.summary }))
        : [];
      return serviceDescription({
        service: service.name,
        kind: service.kind,
        arn: service.arn,
        configuration: { ...(service.tags ? { tags: service.tags } : {}), dependsOn: service.dependsOn ?? [] },
        events,
      });
    },
  });
