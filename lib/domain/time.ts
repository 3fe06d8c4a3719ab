import { z } from 'zod';

/** An ISO-8601 timestamp that `Date` can read; kept as the original string. */
export const isoTimestamp = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), {
    message: 'expected an ISO-8601 timestamp such as 2026-04-06T04:10:00Z',
  });

export const toMillis = (timestamp: string): number => Date.parse(timestamp);
