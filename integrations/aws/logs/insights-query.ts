import { severityOf } from '../../../lib/analysis/log-templates.ts';
import type { logLevels } from '../../../lib/tools/contracts/query-logs.ts';
import { knownLevels } from './log-record.ts';

/**
 * The Logs Insights queries query_logs sends. The level and text filters narrow the scan on the
 * server; the tool applies the exact rules again to what comes back (a regex over the raw message
 * can match a level word inside a field), so the server filter only has to never drop a wanted line.
 */
export const INSIGHTS_ROW_CAP = 10_000;

type Level = (typeof logLevels)[number];

/** Where a level word sits in a raw message: first word, after Lambda's request id, or a JSON `level` value. */
const levelPosition = String.raw`(^\W*|\t|"level"\s*:\s*")`;

const regexLiteral = (source: string) => `/(?i)${source.replace(/\//g, '\\/')}/`;

const levelWords = (keep: (severity: number) => boolean) => knownLevels.filter((level) => keep(severityOf(level)));

/** The server-side level filter for a threshold: none at DEBUG; below WARN a level of unknown spelling counts as INFO, so only the lower levels are excluded. */
const levelFilter = (minLevel: Level): string | undefined => {
  const threshold = severityOf(minLevel);
  if (threshold <= 0) return undefined;
  if (threshold === 1) return `filter @message not like ${regexLiteral(`${levelPosition}(${levelWords((severity) => severity < 1).join('|')})\\b`)}`;
  return `filter @message like ${regexLiteral(`${levelPosition}(${levelWords((severity) => severity >= threshold).join('|')})\\b`)}`;
};

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How JSON writes the control characters a log line may hold: a tab inside a JSON-encoded message is a backslash and a `t`. */
const jsonEscapes: Record<string, string> = { '\t': 't', '\n': 'n', '\r': 'r' };

/** The text as a regex that also finds it inside a JSON-encoded message, where quotes and backslashes gain a backslash and control characters become escapes. */
const containsPattern = (text: string) =>
  escapeRegex(text)
    .replace(/"|\\\\/g, (escaped) => `(?:\\\\)?${escaped}`)
    .replace(/[\t\n\r]/g, (control) => `(?:\\${jsonEscapes[control]}|\\\\${jsonEscapes[control]})`);

export interface QueryFilters {
  minLevel: Level;
  contains?: string | undefined;
}

const filters = ({ minLevel, contains }: QueryFilters): string[] => {
  const level = levelFilter(minLevel);
  return [...(level ? [level] : []), ...(contains ? [`filter @message like ${regexLiteral(containsPattern(contains))}`] : [])];
};

/** Every matching event in the window, oldest first, up to the row cap (a capped answer is split and asked again). */
export const linesQuery = (input: QueryFilters): string =>
  ['fields @timestamp, @message, @log, @logStream', ...filters(input), 'sort @timestamp asc', `limit ${INSIGHTS_ROW_CAP}`].join('\n| ');

/** Insights' own clustering of the matching events into patterns, for a window with more events than the tool reads. */
export const patternQuery = (input: QueryFilters): string => [...filters(input), 'pattern @message'].join('\n| ');
