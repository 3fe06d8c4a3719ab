import { mineTemplates, severityOf, type LogLine } from '../analysis/log-templates.ts';
import type { z } from 'zod';
import type { logTemplate } from './contracts/query-logs.ts';

/** The worst severity among a template's levels, so templates sort errors first. */
export const worstLevel = (levels: Record<string, number>): number => Math.max(...Object.keys(levels).map(severityOf));

/**
 * The distinct message templates of some log lines, errors first, then the most frequent, in the
 * query_logs contract's shape: every tool source summarizes its lines the same way, so a rare
 * error is never hidden by common lines.
 */
export const templatesErrorsFirst = (lines: readonly LogLine[], limit: number): z.input<typeof logTemplate>[] =>
  mineTemplates(lines)
    .sort((a, b) => worstLevel(b.levels) - worstLevel(a.levels) || b.count - a.count)
    .slice(0, limit)
    .map((template) => ({
      template: template.template,
      example: template.example,
      count: template.count,
      firstSeen: new Date(template.firstSeen).toISOString(),
      lastSeen: new Date(template.lastSeen).toISOString(),
      levels: template.levels,
      services: template.services,
    }));
