import { z } from 'zod';
import { defineRemediationContract, ecsServiceInput, ecsTarget } from './remediation.ts';

export const ecsRollbackTaskDefinitionContract = defineRemediationContract({
  name: 'ecs_rollback_task_definition',
  description:
    'Rolls an ECS service back to the active revision of its task definition just before the current one, and deploys it. Use it when a deploy of the service broke it. Changes production: runs only after a human approves.',
  input: z.object(ecsServiceInput),
  describeCall: (input) => ({
    target: ecsTarget(input),
    summary: `Deploy the previous revision of the task definition of ${ecsTarget(input)} (the active revision just before the current one).`,
  }),
});
