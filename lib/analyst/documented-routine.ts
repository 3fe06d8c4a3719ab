import { announcedWindowOf, dailyWindowAround, type AnnouncedWindow } from './announced-window.ts';
import type { EvidenceBoard, Runbook } from './evidence-board.ts';

/**
 * What the team's own runbook documents as the routine of a stated time is that routine, not a
 * fault: a nightly drop whose malformed files fail on purpose, a canary that sends messages to be
 * dead-lettered every morning, a monthly run whose backlog is expected to page. The runbook must
 * say all of it:
 * - it is about this service (its service, or a match term naming it);
 * - the behaviour is expected ("expected", "on purpose", "by design", "no action needed");
 * - when, in UTC: a daily window ("between 02:45 and 03:30 UTC") or a start ("at 06:00 UTC"), on
 *   its day of the month when it names one ("on the 1st"); a start covers the hours after it.
 * A routine holds only inside its window: the same thing outside it is not the routine.
 */

/** How long after a stated start the routine it starts still explains what it does. */
const ROUTINE_SPAN_MS = 2 * 60 * 60_000;

const expectedWords = /\bexpected\b|on purpose|deliberately|by design|as designed|no action (?:is )?(?:needed|required)|otherwise no action|(?:not a|no) reason to act|fires? (?:on )?every (?:run|night|day|week|month)/i;
const startPattern = /\bat (\d{1,2}):(\d{2})\s*(?:UTC|GMT|Z)\b/i;
const dayOfMonthPattern = /\bon the (\d{1,2})(?:st|nd|rd|th)\b/i;

interface Routine {
  runbook: Runbook;
  /** This occurrence of the documented window. */
  window: { start: number; end: number };
}

/** The runbook's steps, title and match terms: everything it says. */
const runbookText = (runbook: Runbook): string => [runbook.title, ...(runbook.match ?? []), ...runbook.steps].join('\n');

/**
 * The daily window a runbook's text states: a window, or a start and the hours after it. A start
 * before a window stated later in the day (runs at 01:00, done between 03:45 and 04:30) is one
 * routine from its start to the window's end.
 */
const statedWindowOf = (text: string): AnnouncedWindow | undefined => {
  const window = announcedWindowOf(text);
  const start = startPattern.exec(text);
  const from = start ? Number(start[1]) * 60 + Number(start[2]) : Number.NaN;
  if (window) return from < window.from ? { from, to: window.to } : window;
  return from < 24 * 60 ? { from, to: (from + ROUTINE_SPAN_MS / 60_000) % (24 * 60) } : undefined;
};

const about = (runbook: Runbook, service: string): boolean => runbook.service === service || (runbook.match ?? []).some((term) => term === service);

/** The routine a runbook documents at `service` whose window holds `at` (epoch ms), give or take `slackMs`. */
export const documentedRoutineAt = (board: EvidenceBoard, service: string, at: number, slackMs: number): Routine | undefined => {
  for (const runbook of board.runbooks.filter((candidate) => about(candidate, service))) {
    const text = runbookText(runbook);
    if (!expectedWords.test(text)) continue;
    const stated = statedWindowOf(text);
    const window = stated && dailyWindowAround(stated, at, slackMs);
    if (!window) continue;
    const day = dayOfMonthPattern.exec(text);
    if (day && new Date(window.start).getUTCDate() !== Number(day[1])) continue;
    return { runbook, window };
  }
  return undefined;
};

/** Distinctive words of a failure: an exception's or metric's name (MalformedFileError, Errors), not a sentence's small words. */
const namedWords = (text: string): string[] => text.match(/\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b|\b[A-Za-z]*(?:Errors?|Exception)\b/g) ?? [];

/** Whether the runbook names this failure: a distinctive word of it (its exception, its measure) is in the runbook's text. */
export const namesFailure = (runbook: Runbook, failure: string): boolean => {
  const text = runbookText(runbook);
  return namedWords(failure).some((word) => new RegExp(`\\b${word}\\b`).test(text));
};
