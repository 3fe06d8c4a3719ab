import { z } from 'zod';

export const sinceMinutes = (defaultMinutes: number) =>
  z
    .number()
    .int()
    .positive()
    .max(7 * 24 * 60)
    .default(defaultMinutes)
    .describe(`How far back to look, in minutes before the incident's now (default ${defaultMinutes}).`);

export const serviceFilter = z.string().min(1).optional().describe('Only this service (exact name, case-insensitive).');
