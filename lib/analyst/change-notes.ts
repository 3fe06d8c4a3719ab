import type { Change } from './evidence-board.ts';

/** How many of a change's own notes a finding repeats: enough to say what changed, not the whole release. */
const MOST_NOTES = 4;

const valueWords = (value: unknown): string => (value === null || value === undefined ? 'unset' : typeof value === 'string' ? value : JSON.stringify(value));

const linesOf = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

/**
 * What a change says it changed, in its own words: its changelog, its plan's lines, and each setting
 * its diff moved (`cache.ttlSeconds: 300 -> 60`). A summary names the release; these say what the
 * release did, which is what an on-call engineer reads to judge whether it can be the cause.
 */
export const changeNotesOf = (change: Change): string[] => {
  const details = change.details ?? {};
  const diff = details['diff'];
  const moved =
    typeof diff === 'object' && diff !== null && !Array.isArray(diff)
      ? Object.entries(diff as Record<string, unknown>).flatMap(([setting, values]) => (Array.isArray(values) && values.length === 2 ? [`${setting}: ${valueWords(values[0])} -> ${valueWords(values[1])}`] : []))
      : [];
  return [...linesOf(details['changelog']), ...linesOf(details['plan']), ...moved].filter((line) => line.trim().length > 0).slice(0, MOST_NOTES);
};
