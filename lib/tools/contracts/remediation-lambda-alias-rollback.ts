import { z } from 'zod';
import { defineRemediationContract } from './remediation.ts';

const aliasTarget = (input: { functionName: string; alias: string }) => `Lambda alias ${input.alias} of function ${input.functionName}`;

export const lambdaAliasRollbackContract = defineRemediationContract({
  name: 'lambda_rollback_alias',
  description:
    'Points a Lambda alias back at the published version just before the one it serves now. Use it when a new version of a function broke it. Changes production: runs only after a human approves.',
  input: z.object({
    functionName: z.string().min(1).describe('The function (name or ARN).'),
    alias: z.string().min(1).describe('The alias that serves traffic, for example "live".'),
  }),
  describeCall: (input) => ({ target: aliasTarget(input), summary: `Point ${aliasTarget(input)} at the published version just before the one it serves now.` }),
});
