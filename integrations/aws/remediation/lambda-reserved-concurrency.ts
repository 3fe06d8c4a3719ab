import { GetFunctionConcurrencyCommand, GetFunctionConfigurationCommand, LambdaClient, PutFunctionConcurrencyCommand } from '@aws-sdk/client-lambda';
import { lambdaReservedConcurrencyContract } from '../../../lib/tools/contracts/remediation-lambda-reserved-concurrency.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import type { AwsClients } from '../clients.ts';
import type { RemediationDependencies } from './dependencies.ts';

const UNRESERVED = 'unreserved (the account pool)';

const current = async (clients: AwsClients, functionName: string) => {
  const lambda = clients.get(LambdaClient);
  const [configuration, concurrency] = await Promise.all([
    lambda.send(new GetFunctionConfigurationCommand({ FunctionName: functionName })),
    lambda.send(new GetFunctionConcurrencyCommand({ FunctionName: functionName })),
  ]);
  if (!configuration.FunctionArn) throw new Error(`Lambda function ${functionName} was not found`);
  const reserved = concurrency.ReservedConcurrentExecutions;
  return { functionArn: configuration.FunctionArn, previous: reserved === undefined ? UNRESERVED : String(reserved) };
};

export const lambdaReservedConcurrency = ({ clients, narrowed }: RemediationDependencies) =>
  implementTool(lambdaReservedConcurrencyContract, {
    sideEffect: 'mutating',
    iamActions: ['lambda:GetFunctionConfiguration', 'lambda:GetFunctionConcurrency', 'lambda:PutFunctionConcurrency'],
    preview: async (input) => ({ previousValue: (await current(clients, input.functionName)).previous }),
    run: async (input) => {
      const { functionArn, previous } = await current(clients, input.functionName);
      const lambda = (await narrowed({ action: 'lambda:PutFunctionConcurrency', resource: functionArn })).get(LambdaClient);
      const updated = await lambda.send(new PutFunctionConcurrencyCommand({ FunctionName: functionArn, ReservedConcurrentExecutions: input.reservedConcurrency }));
      const now = String(updated.ReservedConcurrentExecutions ?? input.reservedConcurrency);
      return {
        summary: `set the reserved concurrency of ${input.functionName} from ${previous} to ${now}`,
        data: {
          action: lambdaReservedConcurrencyContract.name,
          target: functionArn,
          previousValue: previous,
          newValue: now,
          status: 'executed' as const,
          detail: input.reservedConcurrency === 0 ? 'Reserved concurrency 0 stops every invocation of the function.' : 'Takes effect for new invocations at once.',
        },
      };
    },
  });
