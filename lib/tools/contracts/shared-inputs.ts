import { z } from 'zod';

/** The furthest back a tool reads: a week, in minutes. */
export const MAX_SINCE_MINUTES = 7 * 24 * 60;

export const sinceMinutes = (defaultMinutes: number, maxMinutes: number = MAX_SINCE_MINUTES) =>
  z
    .number()
    .int()
    .positive()
    .max(maxMinutes)
    .default(defaultMinutes)
    .describe(`How far back to look, in minutes before the incident's now (default ${defaultMinutes}).`);

export const serviceFilter = z.string().min(1).optional().describe('Only this service (exact name, case-insensitive).');

/** What every tool answers when its source has no such data at all ("no data", not "nothing happened"). */
export const unavailable = z.object({
  available: z.literal(false),
  /** Why, when the source can say (for example the IAM action it was denied). */
  reason: z.string().optional(),
});

/** The result for a source that has no such data at all. */
export const noData = (summary: string, reason?: string) => ({
  summary,
  data: { available: false as const, ...(reason === undefined ? {} : { reason }) },
});
