/**
 * How much a log line matters to an investigation, from its level and from words that mark failures.
 * The level is what the logger said; the keywords catch failures logged at INFO (or with no level) and
 * let an ERROR with an exception outrank a bare ERROR. The score only orders lines; which ones survive a
 * cap is decided by the selection, which also dedupes by template so a flood of one warning cannot crowd
 * out a single fatal line.
 */
import { severityOf } from '../analysis/log-templates.ts';

/** Level words as loggers print them; upper case only, so prose such as "sending alert" is not a level. */
const upperCaseLevel = /\b(FATAL|CRITICAL|CRIT|PANIC|EMERG|EMERGENCY|ALERT|SEVERE|ERROR|ERR|WARN|WARNING)\b/g;
/** Structured levels: `level=error`, `"level":"warn"`, `severity: fatal`. */
const keyedLevel = /\b(?:level|severity|lvl|loglevel)["']?\s*[:=]\s*["']?(fatal|critical|crit|panic|emerg|emergency|alert|severe|error|err|warn|warning)\b/gi;

/**
 * Words that mark a failure whatever the level. Case-insensitive except where the spelling is the signal
 * (`Error:` starts an error message, `OOM` is an acronym).
 */
const failureWords =
  /exception|traceback|\bpanic|timeout|timed out|refused|denied|outofmemory|out of memory|\bkilled\b|\bfailed\b|\bfailure\b|\bfatal\b|segfault|segmentation fault|deadlock|unreachable|unauthorized|forbidden|\bcrash/i;
const failureMarks = /Error:|\bOOM\b|Error\b/;

export const WARN_SEVERITY = 2;

/** The highest level the line states: 0 debug, 1 info (also when none is stated), 2 warn, 3 error, 4 fatal. */
export function statedSeverity(line: string): number {
  let highest = -1;
  for (const match of line.matchAll(upperCaseLevel)) highest = Math.max(highest, severityOf(levelWord(match[1]!)));
  for (const match of line.matchAll(keyedLevel)) highest = Math.max(highest, severityOf(levelWord(match[1]!)));
  return highest === -1 ? 1 : highest;
}

/** `severityOf` knows the common spellings; SEVERE (java.util.logging) is an error. */
const levelWord = (word: string): string => (word.toUpperCase() === 'SEVERE' ? 'ERROR' : word);

export function mentionsFailure(line: string): boolean {
  return failureWords.test(line) || failureMarks.test(line);
}

/**
 * 0 for a line that is not salient; otherwise 10 per severity step plus 5 when it names a failure, so
 * FATAL+exception (45) > FATAL (40) > ERROR+exception (35) > ... > WARN (20) > INFO naming a failure (15).
 */
export function salienceOf(line: string): number {
  const severity = statedSeverity(line);
  const failure = mentionsFailure(line);
  if (severity < WARN_SEVERITY && !failure) return 0;
  return severity * 10 + (failure ? 5 : 0);
}
