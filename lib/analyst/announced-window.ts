import type { Change } from './evidence-board.ts';

/**
 * Work announced for a stated time window ("resize in the Sunday 02:00-02:30 UTC window",
 * "penetration test 13:00-17:00 UTC", "scheduled 2026-04-16 17:00 UTC, ~30 min") explains what
 * happens inside that window however long before it was announced: the announcement says when, not
 * only that. Only times stated in UTC are read, so a local time is never mistaken for another.
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

const datedStartPattern = /\b(\d{4}-\d{2}-\d{2})[ T](\d{1,2}):(\d{2})(?::\d{2})?\s*(?:UTC|GMT|Z)\b/i;
const durationPattern = /(?:~|about |around |approx\.? |roughly )?(\d+(?:\.\d+)?)\s*(min(?:ute)?s?|h(?:ou)?rs?|hours?)\b/i;
/** How long announced work lasts when its announcement gives a start and no length. */
const DEFAULT_DURATION_MS = 60 * 60_000;

/**
 * The stretch an announcement of work at a dated time states ("scheduled 2026-04-16 17:00 UTC ...
 * for ~30 min"): from that time, for the length it gives, else an hour.
 */
export const announcedStretchOf = (text: string): { start: number; end: number } | undefined => {
  const dated = datedStartPattern.exec(text);
  if (!dated) return undefined;
  const start = Date.parse(`${dated[1]}T${dated[2]!.padStart(2, '0')}:${dated[3]}:00Z`);
  if (!Number.isFinite(start)) return undefined;
  const duration = durationPattern.exec(text.slice(dated.index + dated[0].length));
  const length = duration ? Number(duration[1]) * (/^h/i.test(duration[2]!) ? 60 : 1) * 60_000 : DEFAULT_DURATION_MS;
  return { start, end: start + length };
};

/** The window `change` announces around `time` (epoch ms), when `time` falls inside it (give or take `slackMs`). */
export const announcedWindowAround = (change: Change, time: number, slackMs: number): { start: number; end: number } | undefined => {
  const stretch = announcedStretchOf(change.summary);
  if (stretch) return change.at <= stretch.start + slackMs && time >= stretch.start - slackMs && time <= stretch.end + slackMs ? stretch : undefined;
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
