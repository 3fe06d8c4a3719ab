import { SSMClient, StartAutomationExecutionCommand } from '@aws-sdk/client-ssm';
import { ssmStartAutomationContract } from '../../../lib/tools/contracts/remediation-ssm-automation.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import type { RemediationDependencies } from './dependencies.ts';

/** IAM names Automation runs by the document's definition ARN; an account-less one matches any account the role may reach. */
const definitionArn = (region: string, accountId: string | undefined, documentName: string) =>
  documentName.startsWith('arn:') ? `${documentName}:*` : `arn:aws:ssm:${region}:${accountId ?? '*'}:automation-definition/${documentName}:*`;

export const ssmStartAutomation = ({ clients, narrowed, accountId }: RemediationDependencies) =>
  implementTool(ssmStartAutomationContract, {
    sideEffect: 'mutating',
    iamActions: ['ssm:StartAutomationExecution'],
    preview: async () => ({ previousValue: null }),
    run: async (input) => {
      const ssm = (await narrowed({ action: 'ssm:StartAutomationExecution', resource: definitionArn(clients.region, accountId, input.documentName) })).get(SSMClient);
      const { AutomationExecutionId } = await ssm.send(new StartAutomationExecutionCommand({ DocumentName: input.documentName, Parameters: input.parameters }));
      return {
        summary: `started ${input.documentName}${AutomationExecutionId ? ` (execution ${AutomationExecutionId})` : ''}`,
        data: {
          action: ssmStartAutomationContract.name,
          target: input.documentName,
          previousValue: null,
          newValue: AutomationExecutionId ? `execution ${AutomationExecutionId}` : null,
          status: 'executed' as const,
          detail: 'The Automation runs its steps asynchronously; its execution id tracks it.',
        },
      };
    },
  });
