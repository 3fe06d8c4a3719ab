import { z } from 'zod';
import { defineRemediationContract, ecsServiceInput, ecsTarget } from './remediation.ts';

export const ecsForceNewDeploymentContract = defineRemediationContract({
  name: 'ecs_force_new_deployment',
  description:
    'Replaces every task of an ECS service with new tasks of the same task definition (a rolling restart). Use it when tasks are stuck or leaking, not when the code is wrong. Changes production: runs only after a human approves.',
  input: z.object(ecsServiceInput),
  describeCall: (input) => ({ target: ecsTarget(input), summary: `Force a new deployment of ${ecsTarget(input)}: every task is replaced by a new one of the same task definition.` }),
});
