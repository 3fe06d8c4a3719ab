import { z } from 'zod';
import { defineRemediationContract, ecsServiceInput, ecsTarget } from './remediation.ts';

export const ecsSetDesiredCountContract = defineRemediationContract({
  name: 'ecs_set_desired_count',
  description:
    "Sets an ECS service's desired task count (scale out under load, or to 0 to stop it). Changes production: runs only after a human approves.",
  input: z.object({ ...ecsServiceInput, desiredCount: z.number().int().min(0).max(1000).describe('The new desired number of tasks (0-1000).') }),
  describeCall: (input) => ({ target: ecsTarget(input), summary: `Set the desired task count of ${ecsTarget(input)} to ${input.desiredCount}.` }),
});
