/**
 * Caps a list of log lines to a token budget without losing the line that matters. A plain head+tail cut
 * keeps how the window started and ended and drops everything between, which is where the one FATAL
 * line of a 100,000-line log usually is. `capLines` keeps the head, the tail, the salient middle and a
 * summary of every template it left out (policy in line-selection.ts); `headTailLines` is that plain cut,
 * kept as the baseline the benchmark measures against.
 */
import { selectLines, type OmittedTemplate } from './line-selection.ts';
import { estimateTokens } from './token-estimate.ts';

export type { OmittedTemplate } from './line-selection.ts';

export interface CappedLines {
  /** The kept lines in their original order; a very long line is clipped (see `clipLine`). */
  kept: string[];
  /** How many input lines are not in `kept`. */
  omitted: number;
  /** Templates of the omitted lines with count and first/last input index, most frequent first. */
  templates: OmittedTemplate[];
}

/**
 * What a capped result costs: the kept lines joined by newlines plus the summary as JSON
 * (`{"omitted":N,"templates":[...]}`). `capLines` keeps this within its cap.
 */
export function cappedLinesTokens(result: CappedLines): number {
  return estimateTokens(result.kept.join('\n')) + estimateTokens(JSON.stringify({ omitted: result.omitted, templates: result.templates }));
}

/** Below this the summary wrapper alone does not fit, so `capLines` returns nothing and may exceed the cap. */
export const MIN_CAP_TOKENS = 16;

/** Upper bound for one kept line, so a single stack-trace line cannot eat the middle's whole share. */
const maxLineChars = 2000;

/** A line longer than the limit keeps its start (where the message and exception name are) and says how much was cut. */
export function clipLine(line: string, limit: number): string {
  return line.length <= limit ? line : `${line.slice(0, limit)} …[+${line.length - limit} chars]`;
}

/** The clip limit for a cap: a quarter of the cap in characters, so a clipped salient line still fits the middle. */
export function lineLimitFor(capTokens: number): number {
  return Math.max(40, Math.min(maxLineChars, Math.floor(capTokens * 0.25 * 3.5)));
}

export function capLines(lines: readonly string[], capTokens: number): CappedLines {
  const summaryOf = (omitted: number) => estimateTokens(JSON.stringify({ omitted, templates: [] }));
  if (fitsWhole(lines, capTokens - summaryOf(0))) return { kept: [...lines], omitted: 0, templates: [] };

  const limit = lineLimitFor(capTokens);
  const clipped = lines.map((line) => clipLine(line, limit));
  // +1: the newline that joins a kept line to the next one.
  const costs = clipped.map((line) => estimateTokens(line) + 1);
  const selection = selectLines({
    texts: lines,
    costs,
    budget: capTokens,
    // The omitted count has at most as many digits as the line count.
    summaryOverhead: summaryOf(lines.length) + 1,
    // +1: the comma between entries.
    entryCost: (entry) => estimateTokens(JSON.stringify(entry)) + 1,
  });
  return { kept: selection.kept.map((index) => clipped[index]!), omitted: selection.omitted, templates: selection.templates };
}

/** Whether the lines joined by newlines fit; skips the full count when the character count already rules it out. */
function fitsWhole(lines: readonly string[], capTokens: number): boolean {
  let chars = Math.max(0, lines.length - 1);
  for (const line of lines) chars += line.length;
  // Every character weighs at least 1/3.5 of a token, so this is a lower bound of the estimate.
  if (chars / 3.5 > capTokens) return false;
  return estimateTokens(lines.join('\n')) <= capTokens;
}

/** The naive cap: as many lines from the start as half the cap holds, then from the end; no summary. */
export function headTailLines(lines: readonly string[], capTokens: number): { kept: string[]; omitted: number } {
  if (fitsWhole(lines, capTokens)) return { kept: [...lines], omitted: 0 };
  const costs = lines.map((line) => estimateTokens(line) + 1);
  let left = Math.floor(capTokens / 2);
  let headEnd = 0;
  while (headEnd < lines.length && costs[headEnd]! <= left) left -= costs[headEnd++]!;
  left += capTokens - Math.floor(capTokens / 2);
  let tailStart = lines.length;
  while (tailStart > headEnd && costs[tailStart - 1]! <= left) left -= costs[--tailStart]!;
  const kept = [...lines.slice(0, headEnd), ...lines.slice(tailStart)];
  return { kept, omitted: lines.length - kept.length };
}
