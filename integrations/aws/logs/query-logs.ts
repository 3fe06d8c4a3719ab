import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { normalizedLevel, severityOf } from '../../../lib/analysis/log-templates.ts';
import { templatesErrorsFirst, worstLevel } from '../../../lib/tools/log-template-summaries.ts';
import { toMillis } from '../../../lib/domain/time.ts';
import { queryLogsContract, type LogLine } from '../../../lib/tools/contracts/query-logs.ts';
import { noData } from '../../../lib/tools/contracts/shared-inputs.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import { deniedReason } from '../api-errors.ts';
import type { ServiceResources } from '../catalog.ts';
import { catalogIamActions, logGroupName } from '../catalog/tagged-catalog.ts';
import type { AwsToolDependencies } from '../tools.ts';
import { linesQuery, patternQuery, type QueryFilters } from './insights-query.ts';
import { defaultInsightsTiming, emptyCollected, InsightsAccessDenied, InsightsSession, type Collected, type InsightsRow, type InsightsTiming, type SecondsRange } from './insights-runner.ts';
import { isoFromInsights, parseLogMessage, type ParsedMessage } from './log-record.ts';
import { defaultLimiterOptions, QueryLimiter, type LimiterOptions } from './query-limiter.ts';

/** StartQuery takes at most 50 log groups. */
export const LOG_GROUPS_PER_QUERY = 50;
/** Templates shown, errors first (as the replay tool does). */
const TEMPLATES_SHOWN = 25;
/** Query ids handed back in one queryId. */
const QUERY_ID_SEPARATOR = ',';

export interface QueryLogsTiming {
  insights: InsightsTiming;
  limiter: LimiterOptions;
}

interface Line extends LogLine {
  millis: number;
}

const chunk = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, index * size + size));

const merge = (parts: readonly Collected[]): Collected =>
  parts.reduce(
    (all, part) => ({
      rows: [...all.rows, ...part.rows],
      pending: [...all.pending, ...part.pending],
      unqueried: [...all.unqueried, ...part.unqueried],
      truncated: all.truncated || part.truncated,
      missingLogGroups: [...all.missingLogGroups, ...part.missingLogGroups],
    }),
    emptyCollected(),
  );


/** The group -> services map of the catalog: a line's `@log` names its service, or the services sharing the group. */
const ownersOf = (services: readonly ServiceResources[]): Map<string, string[]> => {
  const owners = new Map<string, string[]>();
  for (const service of services) for (const group of service.logGroups) owners.set(group, [...(owners.get(group) ?? []), service.name]);
  return owners;
};

/**
 * The service a line belongs to: its group's only owner; in a group several services write to (an
 * EventBridge rule's target for ECS events, a shared audit log), the owner the line names (the
 * longest name, so `orders-api-worker` wins over `orders-api`), else the group's first owner.
 */
const serviceOfLine = (owners: readonly string[] | undefined, group: string, parsed: ParsedMessage): string => {
  if (!owners || owners.length === 0) return group;
  if (owners.length === 1) return owners[0] ?? group;
  const words = new Set(`${parsed.message} ${parsed.fields ? JSON.stringify(parsed.fields) : ''}`.toLowerCase().split(/[^a-z0-9_-]+/));
  const named = [...owners].sort((a, b) => b.length - a.length).find((owner) => words.has(owner.toLowerCase()));
  return named ?? owners[0] ?? group;
};

/**
 * query_logs on CloudWatch Logs Insights. The lines are read whole (split into windows below the
 * 10,000-row cap) so the matched count, the first and last lines and the templates are exact; only
 * a window too large to read is summarised by Insights' own `pattern` command instead.
 */
export const queryLogs = (dependencies: AwsToolDependencies, timing: QueryLogsTiming = { insights: defaultInsightsTiming, limiter: defaultLimiterOptions }) => {
  const { clients, catalog, settings } = dependencies;
  const limiter = new QueryLimiter(timing.limiter);
  return implementTool(queryLogsContract, {
    sideEffect: 'read-only',
    iamActions: ['logs:StartQuery', 'logs:GetQueryResults', ...catalogIamActions],
    run: async (input, context) => {
      const session = new InsightsSession(clients.get(CloudWatchLogsClient), limiter, Date.now() + settings.insightsDeadlineSeconds * 1000, timing.insights);
      const services = await catalog.services();
      const owners = ownersOf(services);
      const fromMillis = input.from === undefined ? context.now.getTime() - input.sinceMinutes * 60_000 : toMillis(input.from);
      const toMillisInclusive = Math.min(input.to === undefined ? context.now.getTime() : toMillis(input.to), context.now.getTime());
      const filters: QueryFilters = { minLevel: input.minLevel, contains: input.contains };
      let collected: Collected;
      let patterns: Collected | undefined;
      try {
        if (input.queryId !== undefined) {
          collected = await session.fetch(input.queryId.split(QUERY_ID_SEPARATOR).filter(Boolean));
        } else {
          const wanted = input.service?.trim().toLowerCase();
          const targets = wanted ? services.filter((service) => service.name.toLowerCase() === wanted) : services;
          if (wanted && targets.length === 0) {
            return {
              summary: `no service named ${input.service}; known: ${services.map((service) => service.name).join(', ') || 'none'}`,
              data: { available: true, matched: 0, lines: [], templates: [] },
            };
          }
          const groups = [...new Set(targets.flatMap((service) => service.logGroups))].sort();
          if (groups.length === 0) {
            const problems = 'problems' in catalog ? (catalog.problems as string[]) : [];
            return noData(
              `no log groups found${input.service ? ` for ${input.service}` : ''} (service tag "${settings.serviceTagKey}", /aws/lambda/<function>, ECS awslogs, settings.logGroups)`,
              problems.join('; ') || undefined,
            );
          }
          const range: SecondsRange = { start: Math.floor(fromMillis / 1000), end: Math.ceil(toMillisInclusive / 1000) };
          const batches = chunk(groups, LOG_GROUPS_PER_QUERY);
          collected = merge(await Promise.all(batches.map((batch) => session.collect(linesQuery(filters), batch, range, true))));
          if (collected.truncated) {
            patterns = merge(await Promise.all(batches.map((batch) => session.collect(patternQuery(filters), batch, range, false))));
          }
        }
      } catch (error) {
        if (error instanceof InsightsAccessDenied) return noData('the logs could not be read', deniedReason(error.action, error.error));
        if (input.queryId !== undefined && (error as { name?: string })?.name === 'ResourceNotFoundException') {
          return noData(`query ${input.queryId} is unknown or expired`, 'query results are kept for a limited time: run the query again without queryId');
        }
        throw error;
      }

      const patternRows = [...collected.rows, ...(patterns?.rows ?? [])].filter((row) => row['@pattern'] !== undefined);
      const threshold = severityOf(input.minLevel);
      const needle = input.contains?.toLowerCase();
      const wantedService = input.service?.trim().toLowerCase();
      const lines: Line[] = collected.rows
        .filter((row) => row['@pattern'] === undefined && row['@message'] !== undefined)
        .map((row) => toLine(row, owners))
        .filter(
          (line) =>
            line.millis >= fromMillis &&
            line.millis <= toMillisInclusive &&
            severityOf(line.level) >= threshold &&
            (needle === undefined || line.message.toLowerCase().includes(needle)) &&
            (wantedService === undefined || line.service.toLowerCase() === wantedService),
        )
        .sort((a, b) => a.millis - b.millis);

      const head = Math.ceil(input.limit / 2);
      const shown = lines.length <= input.limit ? lines : [...lines.slice(0, head), ...lines.slice(lines.length - (input.limit - head))];
      const sampled = patternRows.length > 0;
      const templates = sampled ? templatesFromPatterns(patternRows, fromMillis, toMillisInclusive) : minedTemplates(lines);
      const matched = sampled ? Math.max(lines.length, templates.reduce((sum, template) => sum + template.count, 0)) : lines.length;

      const all = merge([collected, ...(patterns ? [patterns] : [])]);
      const notes = incompleteNotes(all, sampled);
      const incomplete =
        notes.length > 0 ? { ...(all.pending.length > 0 ? { queryId: all.pending.join(QUERY_ID_SEPARATOR) } : {}), reason: notes.join('; ') } : undefined;
      return {
        summary: `${matched} log lines matched${matched > shown.length ? `, showing the first and last ${shown.length}` : ''}; ${templates.length} templates shown, errors first${incomplete ? ` (incomplete: ${incomplete.reason})` : ''}`,
        data: {
          available: true,
          matched,
          lines: shown.map(({ millis: _millis, ...line }) => line),
          templates,
          ...(incomplete ? { incomplete } : {}),
        },
      };
    },
  });
};

const toLine = (row: InsightsRow, owners: ReadonlyMap<string, readonly string[]>): Line => {
  const parsed = parseLogMessage(row['@message'] ?? '');
  const group = logGroupName(row['@log'] ?? '');
  const timestamp = isoFromInsights(row['@timestamp'] ?? '');
  const service = serviceOfLine(owners.get(group), group, parsed);
  // A structured logger's own `service` key repeats the line's service.
  const { service: named, ...otherFields } = parsed.fields ?? {};
  const fields = named === service ? otherFields : parsed.fields;
  return { timestamp, millis: toMillis(timestamp), service, level: parsed.level, message: parsed.message, ...(fields && Object.keys(fields).length > 0 ? { fields } : {}) };
};

const minedTemplates = (lines: readonly Line[]) =>
  templatesErrorsFirst(
    lines.map((line) => ({ t: line.millis, level: line.level, message: line.message, service: line.service })),
    TEMPLATES_SHOWN,
  );

/** Insights patterns, summed over the batches; they carry no times, so first/last seen are the window's bounds (said in `incomplete`). */
const templatesFromPatterns = (rows: readonly InsightsRow[], fromMillis: number, toMillisInclusive: number) => {
  const byPattern = new Map<string, { count: number; levels: Record<string, number> }>();
  for (const row of rows) {
    const pattern = row['@pattern'] ?? '';
    const count = Number(row['@sampleCount'] ?? 0);
    const level = normalizedLevel(row['@severityLabel'] ?? '');
    const entry = byPattern.get(pattern) ?? { count: 0, levels: {} };
    entry.count += count;
    entry.levels[level] = (entry.levels[level] ?? 0) + count;
    byPattern.set(pattern, entry);
  }
  return [...byPattern.entries()]
    .sort(([, a], [, b]) => worstLevel(b.levels) - worstLevel(a.levels) || b.count - a.count)
    .slice(0, TEMPLATES_SHOWN)
    .map(([template, { count, levels }]) => ({
      template,
      count,
      firstSeen: new Date(fromMillis).toISOString(),
      lastSeen: new Date(toMillisInclusive).toISOString(),
      levels,
    }));
};

const incompleteNotes = (collected: Collected, sampled: boolean): string[] => [
  ...(collected.pending.length > 0 ? [`${collected.pending.length} Logs Insights queries were still running at the deadline: call again with queryId to fetch them`] : []),
  ...(collected.unqueried.length > 0 ? [`${collected.unqueried.length} time windows were not queried before the deadline: narrow from/to`] : []),
  ...(collected.truncated
    ? [
        sampled
          ? 'more lines matched than could be read: lines are a sample, templates and the count come from Insights patterns over the whole window (first/last seen are the window bounds); narrow from/to for exact lines'
          : 'more lines matched than could be read: lines and templates are a sample; narrow from/to',
      ]
    : []),
  ...(collected.missingLogGroups.length > 0 ? [`log groups not found: ${[...new Set(collected.missingLogGroups)].join(', ')}`] : []),
];
