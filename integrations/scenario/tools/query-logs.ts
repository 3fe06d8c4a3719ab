import { z } from 'zod';
import { mineTemplates, severityOf } from '../../../lib/analysis/log-templates.ts';
import { isoTimestamp, toMillis } from '../../../lib/domain/time.ts';
import { defineTool } from '../../../lib/tools/tool.ts';
import { serviceMatches, type RecordedEnvironment } from '../recorded-environment.ts';
import { serviceFilter, sinceMinutes } from './shared-inputs.ts';

const levels = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'] as const;

const worstLevel = (counts: Record<string, number>): number => Math.max(...Object.keys(counts).map(severityOf));

export const queryLogs = (environment: RecordedEnvironment) =>
  defineTool({
    name: 'query_logs',
    description:
      'Search application logs. Returns the matching lines (the earliest and latest when there are many) and the distinct message templates with counts and first/last time, errors first, so a rare error is never hidden by common lines.',
    input: z.object({
      service: serviceFilter,
      minLevel: z.enum(levels).default('DEBUG').describe('Lowest severity to include.'),
      contains: z.string().optional().describe('Only lines whose message contains this text (case-insensitive).'),
      sinceMinutes: sinceMinutes(120),
      from: isoTimestamp.optional().describe('Only lines at or after this time (ISO-8601); overrides sinceMinutes.'),
      to: isoTimestamp.optional().describe('Only lines at or before this time (ISO-8601).'),
      limit: z.number().int().positive().max(200).default(40).describe('Most lines to return.'),
    }),
    sideEffect: 'read-only',
    iamActions: ['logs:StartQuery', 'logs:GetQueryResults', 'logs:FilterLogEvents'],
    run: async (input) => {
      if (!environment.has('logs')) return { summary: 'no log data is available', data: { available: false } };
      const threshold = severityOf(input.minLevel);
      const needle = input.contains?.toLowerCase();
      const matched = environment
        .logs(input.from === undefined ? input.sinceMinutes : Math.max(0, (environment.nowMillis - toMillis(input.from)) / 60_000))
        .filter(
          (line) =>
            serviceMatches(input.service, line.service) &&
            (input.to === undefined || toMillis(line.timestamp) <= toMillis(input.to)) &&
            severityOf(line.level) >= threshold &&
            (needle === undefined || line.message.toLowerCase().includes(needle)),
        );
      const head = Math.ceil(input.limit / 2);
      const shown = matched.length <= input.limit ? matched : [...matched.slice(0, head), ...matched.slice(matched.length - (input.limit - head))];
      const templates = mineTemplates(
        matched.map((line) => ({ t: toMillis(line.timestamp), level: line.level, message: line.message, service: line.service })),
      )
        .sort((a, b) => worstLevel(b.levels) - worstLevel(a.levels) || b.count - a.count)
        .slice(0, 25);
      return {
        summary: `${matched.length} log lines matched${matched.length > shown.length ? `, showing the first and last ${shown.length}` : ''}; ${templates.length} templates shown, errors first`,
        data: {
          available: true,
          matched: matched.length,
          lines: shown.map(({ timestamp, service, level, message, fields }) => ({ timestamp, service, level, message, ...(fields ? { fields } : {}) })),
          templates: templates.map((template) => ({
            template: template.template,
            example: template.example,
            count: template.count,
            firstSeen: new Date(template.firstSeen).toISOString(),
            lastSeen: new Date(template.lastSeen).toISOString(),
            levels: template.levels,
            services: template.services,
          })),
        },
      };
    },
  });
