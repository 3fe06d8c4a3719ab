/**
 * Log template mining by masking: the parts of a message that vary between occurrences (numbers, ids,
 * addresses, quoted values, durations, timestamps) become `<*>`, so lines that differ only in those
 * merge into one template while different messages stay apart. Masking is deliberately preferred over
 * positional clustering (Drain and kin), which merges "connection refused" with "connection reset"
 * because they share a word; for an investigation those are different failures.
 */
import { compareText } from './ordering.ts';

export interface LogLine {
  /** Epoch ms. */
  t: number;
  level: string;
  message: string;
  service: string;
}

export interface LogTemplate {
  /** The message with its variable parts replaced by `<*>`. */
  template: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
  /** Normalised upper-case level -> count. */
  levels: Record<string, number>;
  /** Sorted. */
  services: string[];
  /** The earliest raw message. */
  example: string;
}

export const WILDCARD = '<*>';

/**
 * Variable values that contain separators the word rule below splits on, so they are masked whole first
 * (a timestamp becomes one `<*>`, not three).
 */
const variablePatterns: readonly RegExp[] = [
  // ISO-8601 and common log timestamps.
  /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g,
  /\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g,
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
  /\barn:[\w-]+:[\w-]*:[\w-]*:\d*:[^\s,;"')\]]+/g,
  /\b[\w.%+-]+@[\w-]+(?:\.[\w-]+)+\b/g,
  /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g,
  /\b(?:[0-9a-f]{1,4}:){3,7}[0-9a-f]{1,4}\b/gi,
  /\b0x[0-9a-f]+\b/gi,
];

/**
 * Quoted strings, each matched whole so that a closing quote never pairs with the next opening one, with
 * the colon that would make a double-quoted one a JSON key. A single quote inside a word is an apostrophe.
 */
const quoted = /("(?:[^"\\\n]|\\.)*"|(?<![\w'])'[^'\n]*'(?![\w'])|`[^`\n]*`)(\s*:)?/g;

/** Anything that runs between these is a word; a word with a digit in it is a number, id, size or duration. */
const wordWithDigit = /[^\s/\\:=,;()[\]{}<>|"'`]*\d[^\s/\\:=,;()[\]{}<>|"'`]*/g;
/** Adjacent wildcards split only by a separator are one value (a host:port, a ratio, a version). */
const adjacentWildcards = /<\*>(?:[:./_-]<\*>)+/g;

/** The template of one message. */
export function templateOf(message: string): string {
  let masked = message.replace(/\s+/g, ' ').trim();
  for (const pattern of variablePatterns) masked = masked.replace(pattern, WILDCARD);
  // A quoted name or value is a variable, but a quoted key (JSON) is part of the message's shape, and
  // quoted prose (error="context deadline exceeded") is the message itself.
  masked = masked.replace(quoted, (match: string, text: string, colon?: string) =>
    colon || /\s/.test(text) ? match : WILDCARD,
  );
  return masked
    .split(WILDCARD)
    .map((piece) => piece.replace(wordWithDigit, WILDCARD))
    .join(WILDCARD)
    .replace(adjacentWildcards, WILDCARD);
}

export function mineTemplates(lines: readonly LogLine[]): LogTemplate[] {
  const byTemplate = new Map<string, { template: LogTemplate; services: Set<string> }>();
  // Earliest first, so the example is the first occurrence; a stable sort keeps input order on ties.
  const chronological = [...lines].sort((a, b) => a.t - b.t);
  for (const line of chronological) {
    const key = templateOf(line.message);
    const level = normalizedLevel(line.level);
    const entry = byTemplate.get(key);
    if (!entry) {
      byTemplate.set(key, {
        template: {
          template: key,
          count: 1,
          firstSeen: line.t,
          lastSeen: line.t,
          levels: { [level]: 1 },
          services: [],
          example: line.message,
        },
        services: new Set([line.service]),
      });
      continue;
    }
    const { template } = entry;
    template.count++;
    template.firstSeen = Math.min(template.firstSeen, line.t);
    template.lastSeen = Math.max(template.lastSeen, line.t);
    template.levels[level] = (template.levels[level] ?? 0) + 1;
    entry.services.add(line.service);
  }
  return [...byTemplate.values()]
    .map(({ template, services }) => ({ ...template, services: [...services].sort() }))
    .sort((a, b) => b.count - a.count || a.firstSeen - b.firstSeen || compareText(a.template, b.template));
}

/** Spellings of the same level that loggers disagree on; everything else is only upper-cased. */
const levelAliases: Readonly<Record<string, string>> = {
  WARNING: 'WARN',
  ERR: 'ERROR',
  CRIT: 'CRITICAL',
  EMERG: 'EMERGENCY',
  INFORMATION: 'INFO',
  INFORMATIONAL: 'INFO',
  DBG: 'DEBUG',
  TRC: 'TRACE',
};

/** Upper case with aliases folded (WARNING -> WARN, ERR -> ERROR); an empty level is UNKNOWN. */
export function normalizedLevel(level: string): string {
  const upper = level.trim().toUpperCase();
  if (upper === '') return 'UNKNOWN';
  return levelAliases[upper] ?? upper;
}

const severities: Readonly<Record<string, number>> = {
  TRACE: 0,
  DEBUG: 0,
  INFO: 1,
  NOTICE: 1,
  WARN: 2,
  ERROR: 3,
  FATAL: 4,
  CRITICAL: 4,
  PANIC: 4,
  EMERGENCY: 4,
  ALERT: 4,
};

/** 0 debug/trace, 1 info, 2 warn, 3 error, 4 fatal/critical/panic/emergency/alert; an unknown level counts as info. */
export function severityOf(level: string): number {
  return severities[normalizedLevel(level)] ?? 1;
}
