import type { RunbookMatch } from './contracts/search-runbooks.ts';

type Runbook = Omit<RunbookMatch, 'score'>;

/**
 * Ranks runbooks for a query, for every tool source alike: a `match` phrase found in the query
 * counts three, each word shared by the query and the title or match phrases one, the asked-for
 * service one.
 */
const words = (text: string): string[] => text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 2);

export const rankRunbooks = (runbooks: readonly Runbook[], query: string, service: string | undefined, limit: number) => {
  const lowerQuery = query.toLowerCase();
  const queryWords = new Set(words(query));
  return runbooks
    .map((runbook) => {
      const phraseHits = (runbook.match ?? []).filter((phrase) => lowerQuery.includes(phrase.toLowerCase())).length;
      const wordHits = words(`${runbook.title} ${(runbook.match ?? []).join(' ')}`).filter((word) => queryWords.has(word)).length;
      const serviceBonus = service !== undefined && runbook.service?.toLowerCase() === service.toLowerCase() ? 1 : 0;
      return { ...runbook, score: phraseHits * 3 + wordHits + serviceBonus };
    })
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
    .slice(0, limit);
};
