import type { Change } from './evidence-board.ts';

/**
 * Work announced for a stated time window ("resize in the Sunday 02:00-02:30 UTC window",
 * "penetration test 13:00-17:00 UTC") explains what happens inside that window however long before
 * it was announced: the announcement says when, not only that. Only windows stated in UTC are read,
 * so a local time is never mistaken for another.
 */

const DAY_MS = 24 * 60 * 60_000;
/** An announcement names a window in the coming week at most (a weekly maintenance window). */
const ANNOUNCEMENT_REACH_MS = 7 * DAY_MS;

const windowPattern = /(?:[a-z]{3}:)?(\d{1,2}):(\d{2})\s*(?:-|–|to)\s*(?:[a-z]{3}:)?(\d{1,2}):(\d{2})\s*(?:UTC|GMT|Z)\b/i;

/** The window's start and end as minutes after midnight UTC, if the text states one. */
export const announcedWindowOf = (text: string): { from: number; to: number } | undefined => {
  const match = windowPattern.exec(text);
  if (!match) return undefined;
  const [from, to] = [Number(match[1]) * 60 + Number(match[2]), Number(match[3]) * 60 + Number(match[4])];
  return from < 24 * 60 && to <= 24 * 60 ? { from, to } : undefined;
};

/** The window `change` announces around `time` (epoch ms), when `time` falls inside it (give or take `slackMs`). */
export const announcedWindowAround = (change: Change, time: number, slackMs: number): { start: number; end: number } | undefined => {
  const window = announcedWindowOf(change.summary);
  if (!window || time < change.at || time - change.at > ANNOUNCEMENT_REACH_MS) return undefined;
  const midnight = Math.floor(time / DAY_MS) * DAY_MS;
  // A window that runs past midnight (22:00-02:00) may have begun the day before.
  for (const day of [midnight, midnight - DAY_MS]) {
    const start = day + window.from * 60_000;
    const end = day + (window.to > window.from ? window.to : window.to + 24 * 60) * 60_000;
    if (time >= start - slackMs && time <= end + slackMs) return { start, end };
  }
  return undefined;
};
