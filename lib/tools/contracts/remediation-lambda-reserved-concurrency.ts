import { z } from 'zod';
import { defineRemediationContract } from './remediation.ts';

export const lambdaReservedConcurrencyContract = defineRemediationContract({
  name: 'lambda_set_reserved_concurrency',
  description:
    "Sets a Lambda function's reserved concurrency (raise it when the function is throttled; lower it to shield a downstream it floods; 0 stops every invocation). Changes production: runs only after a human approves.",
  input: z.object({
    functionName: z.string().min(1).describe('The function (name or ARN).'),
    reservedConcurrency: z.number().int().min(0).max(10_000).describe('Concurrent executions reserved for the function (0-10000).'),
  }),
  describeCall: (input) => ({
    target: `Lambda function ${input.functionName}`,
    summary: `Set the reserved concurrency of Lambda function ${input.functionName} to ${input.reservedConcurrency}.`,
  }),
});
