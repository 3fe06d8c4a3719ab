import { searchRunbooksContract } from '../../../lib/tools/contracts/search-runbooks.ts';
import { noData } from '../../../lib/tools/contracts/shared-inputs.ts';
import { rankRunbooks } from '../../../lib/tools/runbook-ranking.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import type { RecordedEnvironment } from '../recorded-environment.ts';

export const searchRunbooks = (environment: RecordedEnvironment) =>
  implementTool(searchRunbooksContract, {
    sideEffect: 'read-only',
    iamActions: ['ssm:ListDocuments', 'ssm:GetDocument'],
    run: async (input) => {
      if (!environment.has('runbooks')) return noData('no runbooks are available');
      const scored = rankRunbooks(environment.runbooks, input.query, input.service, input.limit);
      return {
        summary: `${scored.length} runbooks matched`,
        data: { available: true as const, runbooks: scored },
      };
    },
  });
