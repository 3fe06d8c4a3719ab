import { GetAliasCommand, LambdaClient, ListVersionsByFunctionCommand, UpdateAliasCommand } from '@aws-sdk/client-lambda';
import { lambdaAliasRollbackContract } from '../../../lib/tools/contracts/remediation-lambda-alias-rollback.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import type { AwsClients } from '../clients.ts';
import type { RemediationDependencies } from './dependencies.ts';

/** The alias now, and the highest published version below the one it serves ($LATEST is never a rollback target). */
const plan = async (clients: AwsClients, input: { functionName: string; alias: string }) => {
  const lambda = clients.get(LambdaClient);
  const alias = await lambda.send(new GetAliasCommand({ FunctionName: input.functionName, Name: input.alias }));
  if (!alias.AliasArn || !alias.FunctionVersion) throw new Error(`alias ${input.alias} of ${input.functionName} was not found`);
  const current = Number(alias.FunctionVersion);
  if (!Number.isInteger(current)) throw new Error(`alias ${input.alias} serves ${alias.FunctionVersion}, not a published version: there is no previous version to roll back to`);
  let previous: number | undefined;
  let marker: string | undefined;
  do {
    const page = await lambda.send(new ListVersionsByFunctionCommand({ FunctionName: input.functionName, Marker: marker }));
    for (const { Version } of page.Versions ?? []) {
      const version = Number(Version);
      if (Number.isInteger(version) && version < current && (previous === undefined || version > previous)) previous = version;
    }
    marker = page.NextMarker;
  } while (marker);
  if (previous === undefined) throw new Error(`${input.functionName} has no published version before ${current}: there is nothing to roll back to`);
  return { aliasArn: alias.AliasArn, current: String(current), previous: String(previous) };
};

export const lambdaAliasRollback = ({ clients, narrowed }: RemediationDependencies) =>
  implementTool(lambdaAliasRollbackContract, {
    sideEffect: 'mutating',
    iamActions: ['lambda:GetAlias', 'lambda:ListVersionsByFunction', 'lambda:UpdateAlias'],
    preview: async (input) => {
      const { current, previous } = await plan(clients, input);
      return { previousValue: `version ${current} (would become ${previous})` };
    },
    run: async (input) => {
      const { aliasArn, current, previous } = await plan(clients, input);
      const lambda = (await narrowed({ action: 'lambda:UpdateAlias', resource: aliasArn })).get(LambdaClient);
      const updated = await lambda.send(new UpdateAliasCommand({ FunctionName: input.functionName, Name: input.alias, FunctionVersion: previous }));
      return {
        summary: `pointed ${input.functionName}:${input.alias} from version ${current} back to ${updated.FunctionVersion ?? previous}`,
        data: {
          action: lambdaAliasRollbackContract.name,
          target: aliasArn,
          previousValue: current,
          newValue: updated.FunctionVersion ?? previous,
          status: 'executed' as const,
          detail: 'New invocations through the alias run the previous version at once.',
        },
      };
    },
  });
