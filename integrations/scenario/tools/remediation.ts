import type { z } from 'zod';
import { remediationContracts } from '../../../lib/tools/contracts/remediation-contracts.ts';
import type { RemediationContract } from '../../../lib/tools/contracts/remediation.ts';
import { implementTool, type ToolDefinition } from '../../../lib/tools/tool.ts';

/** A recorded environment holds no live configuration: its previous values are not known, and it is never changed. */
const recorded = <Input extends z.ZodType>(contract: RemediationContract<Input>): ToolDefinition =>
  implementTool(contract, {
    sideEffect: 'mutating',
    iamActions: [],
    preview: async () => ({ previousValue: null }),
    run: async (input) => {
      const { target, summary } = contract.describeCall(input);
      return {
        summary: `recorded, not executed: ${summary}`,
        data: {
          action: contract.name,
          target,
          previousValue: null,
          newValue: null,
          status: 'recorded' as const,
          detail: 'A scenario is a recording: the action was recorded and nothing was changed.',
        },
      };
    },
  }) as ToolDefinition;

/** The remediation tools of a scenario: the same contracts as on AWS, recorded and not executed. */
export const recordedRemediationTools = (): ToolDefinition[] => remediationContracts.map((contract) => recorded(contract));
