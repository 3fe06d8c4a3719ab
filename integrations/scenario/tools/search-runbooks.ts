import { searchRunbooksContract } from '../../../lib/tools/contracts/search-runbooks.ts';
import { noData } from '../../../lib/tools/contracts/shared-inputs.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import type { RecordedEnvironment } from '../recorded-environment.ts';

const words = (text: string): string[] => text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 2);

export const searchRunbooks = (environment: RecordedEnvironment) =>
  implementTool(searchRunbooksContract, {
    sideEffect: 'read-only',
    iamActions: ['ssm:ListDocuments', 'ssm:GetDocument'],
    run: async (input) => {
      if (!environment.has('runbooks')) return noData('no runbooks are available');
      const query = input.query.toLowerCase();
      const queryWords = new Set(words(input.query));
      const scored = environment.runbooks
        .map((runbook) => {
          const phraseHits = (runbook.match ?? []).filter((phrase) => query.includes(phrase.toLowerCase())).length;
          const wordHits = words(`${runbook.title} ${(runbook.match ?? []).join(' ')}`).filter((word) => queryWords.has(word)).length;
          const serviceBonus = input.service !== undefined && runbook.service?.toLowerCase() === input.service.toLowerCase() ? 1 : 0;
          return { runbook, score: phraseHits * 3 + wordHits + serviceBonus };
        })
        .filter(({ score }) => score > 0)
        .sort((a, b) => b.score - a.score || a.runbook.id.localeCompare(b.runbook.id))
        .slice(0, input.limit);
      return {
        summary: `${scored.length} runbooks matched`,
        data: { available: true, runbooks: scored.map(({ runbook, score }) => ({ ...runbook, score })) },
      };
    },
  });
