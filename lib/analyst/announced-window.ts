import type { Change } from './evidence-board.ts';

/**
 * Work announced for a stated time window ("resize in the Sunday 02:00-02:30 UTC window",
 * "penetration test 13:00-17:00 UTC", "scheduled 2026-04-16 17:00 UTC, ~30 min") explains what
 * happens inside that window however long before it was announced: the announcement says when, not
 * only that. Only times stated in UTC are read, so a local time is never mistaken for another; an
 * AWS maintenance window (`sat:03:00-sat:03:30`, as RDS, ElastiCache and Redshift write it) is in
 * UTC by definition, and holds on its own weekday only.
 */

const DAY_MS = 24 * 60 * 60_000;
/** An announcement names a window in the coming week at most (a weekly maintenance window). */
const ANNOUNCEMENT_REACH_MS = 7 * DAY_MS;

const windowPattern = /(?:[a-z]{3}:)?(\d{1,2}):(\d{2})\s*(?:-|–|to|and)\s*(?:[a-z]{3}:)?(\d{1,2}):(\d{2})\s*(?:UTC|GMT|Z)\b/i;
const maintenanceWindowPattern = /\b(sun|mon|tue|wed|thu|fri|sat):(\d{2}):(\d{2})-(?:sun|mon|tue|wed|thu|fri|sat):(\d{2}):(\d{2})\b/i;
const weekdays = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** A stated window: its start and end as minutes after midnight UTC, and the weekday it starts on when it names one. */
export type AnnouncedWindow = { from: number; to: number; weekday?: number };

/** The window the text states, if it states one in UTC. */
export const announcedWindowOf = (text: string): AnnouncedWindow | undefined => {
  const minutes = (hours: string | undefined, mins: string | undefined) => Number(hours) * 60 + Number(mins);
  const inRange = (window: AnnouncedWindow) => (window.from < 24 * 60 && window.to <= 24 * 60 ? window : undefined);
  const stated = windowPattern.exec(text);
  if (stated) return inRange({ from: minutes(stated[1], stated[2]), to: minutes(stated[3], stated[4]) });
  const maintenance = maintenanceWindowPattern.exec(text);
  if (!maintenance) return undefined;
  return inRange({ from: minutes(maintenance[2], maintenance[3]), to: minutes(maintenance[4], maintenance[5]), weekday: weekdays.indexOf(maintenance[1]!.toLowerCase()) });
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
  return dailyWindowAround(window, time, slackMs);
};

/** The day's occurrence of a window stated by time of day that holds `time` (epoch ms), give or take `slackMs`. */
export const dailyWindowAround = (window: AnnouncedWindow, time: number, slackMs: number): { start: number; end: number } | undefined => {
  const midnight = Math.floor(time / DAY_MS) * DAY_MS;
  // A window that runs past midnight (22:00-02:00) may have begun the day before.
  for (const day of [midnight, midnight - DAY_MS]) {
    const start = day + window.from * 60_000;
    const end = day + (window.to > window.from ? window.to : window.to + 24 * 60) * 60_000;
    const onItsDay = window.weekday === undefined || new Date(day).getUTCDay() === window.weekday;
    if (onItsDay && time >= start - slackMs && time <= end + slackMs) return { start, end };
  }
  return undefined;
};
