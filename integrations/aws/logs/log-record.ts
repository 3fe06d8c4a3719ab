import { normalizedLevel } from '../../../lib/analysis/log-templates.ts';

/**
 * One log event as the tools report it, read from the raw `@message` CloudWatch stores: a JSON line
 * (Powertools and most structured loggers: `{"level": "ERROR", "message": "...", ...}`), Lambda's
 * tab-separated runtime format (`<time>\t<request id>\tERROR\t<message>`), or plain text whose
 * leading word is the level.
 */
export interface ParsedMessage {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

/** Every level spelling the severity scale knows (lib/analysis/log-templates.ts), for the leading-word rule. */
export const knownLevels = ['TRACE', 'TRC', 'DEBUG', 'DBG', 'INFO', 'INFORMATION', 'INFORMATIONAL', 'NOTICE', 'WARN', 'WARNING', 'ERROR', 'ERR', 'FATAL', 'CRITICAL', 'CRIT', 'PANIC', 'EMERGENCY', 'EMERG', 'ALERT'];
const knownLevelSet = new Set(knownLevels);

const lambdaRuntimeLine = /^\S+\t\S+\t([A-Za-z]+)\t([\s\S]*)$/;
const leadingWord = /^\W*([A-Za-z]+)\b[\s:\]-]*([\s\S]*)$/;

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const parseLogMessage = (raw: string): ParsedMessage => {
  const text = raw.trim();
  if (text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const { level, message, ...fields } = parsed;
        const levelText = textOf(level) ?? 'UNKNOWN';
        const messageText = textOf(message) ?? text;
        return Object.keys(fields).length > 0 ? { level: levelText, message: messageText, fields } : { level: levelText, message: messageText };
      }
    } catch {
      // Not JSON after all: read it as text.
    }
  }
  const runtime = lambdaRuntimeLine.exec(text);
  if (runtime?.[1] && knownLevelSet.has(runtime[1].toUpperCase())) return { level: runtime[1], message: runtime[2] ?? '' };
  const leading = leadingWord.exec(text);
  if (leading?.[1] && knownLevelSet.has(leading[1].toUpperCase())) return { level: leading[1], message: leading[2] ?? '' };
  return { level: 'UNKNOWN', message: text };
};

/** `2026-04-06 04:00:10.000` (Logs Insights, UTC) -> `2026-04-06T04:00:10.000Z`. */
export const isoFromInsights = (timestamp: string): string => {
  const iso = `${timestamp.trim().replace(' ', 'T')}${/Z|[+-]\d\d:?\d\d$/.test(timestamp) ? '' : 'Z'}`;
  return Number.isNaN(Date.parse(iso)) ? timestamp : new Date(iso).toISOString();
};

/** `2026-04-06T04:00:10Z` -> `2026-04-06 04:00:10.000`, as Logs Insights prints `@timestamp`. */
export const insightsTimestamp = (millis: number): string => new Date(millis).toISOString().replace('T', ' ').replace('Z', '');

export { normalizedLevel };
