import { z } from 'zod';
import { isoTimestamp } from '../../domain/time.ts';
import { defineContract } from './contract.ts';
import { serviceFilter, sinceMinutes, unavailable } from './shared-inputs.ts';

export const logLevels = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'] as const;

export const logLine = z.object({
  timestamp: z.string(),
  service: z.string(),
  level: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.unknown()).optional(),
});
export type LogLine = z.infer<typeof logLine>;

export const logTemplate = z.object({
  template: z.string(),
  example: z.string().optional(),
  count: z.number(),
  firstSeen: z.string(),
  lastSeen: z.string(),
  levels: z.record(z.string(), z.number()).optional(),
  services: z.array(z.string()).optional(),
});

export const queryLogsContract = defineContract({
  name: 'query_logs',
  description:
    'Search application logs. Returns the matching lines (the earliest and latest when there are many) and the distinct message templates with counts and first/last time, errors first, so a rare error is never hidden by common lines. Start with minLevel WARN over the whole window, then zoom on one service with from/to. When a query is still running, its result says so with a queryId: call again with that queryId to fetch it.',
  input: z.object({
    service: serviceFilter,
    minLevel: z.enum(logLevels).default('DEBUG').describe('Lowest severity to include.'),
    contains: z.string().optional().describe('Only lines whose message contains this text (case-insensitive).'),
    sinceMinutes: sinceMinutes(120),
    from: isoTimestamp.optional().describe('Only lines at or after this time (ISO-8601); overrides sinceMinutes.'),
    to: isoTimestamp.optional().describe('Only lines at or before this time (ISO-8601).'),
    limit: z.number().int().positive().max(200).default(40).describe('Most lines to return.'),
    queryId: z.string().optional().describe('Fetch the result of an earlier query that was still running.'),
  }),
  output: z.discriminatedUnion('available', [
    unavailable,
    z.object({
      available: z.literal(true),
      matched: z.number(),
      lines: z.array(logLine),
      templates: z.array(logTemplate),
      /** Set when the source could not finish in time: the lines so far, and how to get the rest. */
      incomplete: z.object({ queryId: z.string().optional(), reason: z.string() }).optional(),
    }),
  ]),
});
