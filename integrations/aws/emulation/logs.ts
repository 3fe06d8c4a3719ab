import { randomUUID } from 'node:crypto';
import type {
  GetQueryResultsCommandInput,
  GetQueryResultsCommandOutput,
  ResultField,
  StartQueryCommandInput,
  StartQueryCommandOutput,
} from '@aws-sdk/client-cloudwatch-logs';
import { normalizedLevel, templateOf } from '../../../lib/analysis/log-templates.ts';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { serviceException, type ServiceEmulation } from './emulator.ts';
import { emulatedLogEvents, existingLogGroups, type EmulatedLogEvent } from './log-groups.ts';
import { emulatedAccount } from './service-identity.ts';
import { insightsTimestamp } from '../logs/log-record.ts';

/**
 * CloudWatch Logs Insights over the scenario's log lines: a small interpreter for exactly the query
 * forms query_logs sends (`fields`, `filter @message [not] like /re/`, `sort @timestamp`, `limit`,
 * `pattern @message`), with the service's limits: 50 log groups a query, 10,000 rows a result, 30
 * concurrent queries an account. A query answers `Running` on its first poll, so the tool's polling
 * really runs. Anything else the interpreter refuses as Insights would refuse a malformed query.
 */
const MAX_LOG_GROUPS = 50;
const MAX_ROWS = 10_000;
const MAX_CONCURRENT = 30;

interface ParsedQuery {
  filters: { negate: boolean; regex: RegExp }[];
  sort: 'asc' | 'desc' | undefined;
  limit: number;
  pattern: boolean;
}

/** Splits on the pipes between commands, not those inside a `/regex/`. */
const commandsOf = (query: string): string[] => {
  const commands: string[] = [];
  let current = '';
  let inRegex = false;
  for (let index = 0; index < query.length; index++) {
    const char = query[index] ?? '';
    if (char === '\\') {
      current += char + (query[index + 1] ?? '');
      index++;
      continue;
    }
    if (char === '/') inRegex = !inRegex;
    if (char === '|' && !inRegex) {
      commands.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  commands.push(current.trim());
  return commands.filter((command) => command.length > 0);
};

const malformed = (detail: string) => serviceException('MalformedQueryException', `the emulated Logs Insights does not understand ${detail}`);

const regexOf = (literal: string): RegExp => {
  const caseInsensitive = literal.startsWith('(?i)');
  return new RegExp((caseInsensitive ? literal.slice(4) : literal).replace(/\\\//g, '/'), caseInsensitive ? 'i' : '');
};

export const parseInsightsQuery = (query: string): ParsedQuery => {
  const parsed: ParsedQuery = { filters: [], sort: undefined, limit: MAX_ROWS, pattern: false };
  for (const command of commandsOf(query)) {
    let match: RegExpExecArray | null;
    if (/^fields\s+\S/.test(command)) continue;
    if ((match = /^filter\s+@message\s+(not\s+)?like\s+\/([\s\S]*)\/$/.exec(command))) {
      parsed.filters.push({ negate: match[1] !== undefined, regex: regexOf(match[2] ?? '') });
    } else if ((match = /^sort\s+@timestamp\s+(asc|desc)$/.exec(command))) {
      parsed.sort = match[1] as 'asc' | 'desc';
    } else if ((match = /^limit\s+(\d+)$/.exec(command))) {
      parsed.limit = Math.min(Number(match[1]), MAX_ROWS);
    } else if (/^pattern\s+@message$/.test(command)) {
      parsed.pattern = true;
    } else {
      throw malformed(`"${command}"`);
    }
  }
  return parsed;
};

interface StoredQuery {
  rows: ResultField[][];
  scanned: number;
  polls: number;
}

const queriesOf = new WeakMap<RecordedEnvironment, Map<string, StoredQuery>>();
const stored = (environment: RecordedEnvironment): Map<string, StoredQuery> => {
  let queries = queriesOf.get(environment);
  if (!queries) {
    queries = new Map();
    queriesOf.set(environment, queries);
  }
  return queries;
};

const field = (name: string, value: string): ResultField => ({ field: name, value });

const severityLabel = (level: string): string => {
  const normalized = normalizedLevel(level);
  return normalized.charAt(0) + normalized.slice(1).toLowerCase();
};

const patternRows = (events: readonly EmulatedLogEvent[]): ResultField[][] => {
  const byPattern = new Map<string, { count: number; levels: Map<string, number> }>();
  for (const event of events) {
    const pattern = templateOf(event.message);
    const entry = byPattern.get(pattern) ?? { count: 0, levels: new Map<string, number>() };
    entry.count++;
    entry.levels.set(event.level, (entry.levels.get(event.level) ?? 0) + 1);
    byPattern.set(pattern, entry);
  }
  return [...byPattern.entries()]
    .sort(([, a], [, b]) => b.count - a.count)
    .map(([pattern, { count, levels }]) => {
      const [commonest = 'INFO'] = [...levels.entries()].sort(([, a], [, b]) => b - a).map(([level]) => level);
      return [
        field('@pattern', pattern),
        field('@ratio', String(count / events.length)),
        field('@sampleCount', String(count)),
        field('@severityLabel', severityLabel(commonest)),
      ];
    });
};

const startQuery = (input: StartQueryCommandInput, environment: RecordedEnvironment): Omit<StartQueryCommandOutput, '$metadata'> => {
  const groups = input.logGroupNames ?? input.logGroupIdentifiers ?? [];
  if (groups.length === 0) throw serviceException('InvalidParameterException', 'a query needs at least one log group');
  if (groups.length > MAX_LOG_GROUPS) throw serviceException('InvalidParameterException', `a query can name at most ${MAX_LOG_GROUPS} log groups; got ${groups.length}`);
  const { startTime, endTime } = input;
  if (startTime === undefined || endTime === undefined || endTime < startTime) throw serviceException('InvalidParameterException', 'endTime must be at or after startTime');
  const account = emulatedAccount(environment);
  const known = existingLogGroups(environment);
  const missing = groups.find((group) => !known.has(group));
  if (missing) throw serviceException('ResourceNotFoundException', `Log group '${missing}' does not exist for account ID '${account}'`);
  const queries = stored(environment);
  if ([...queries.values()].filter((query) => query.polls < 2).length >= MAX_CONCURRENT) {
    throw serviceException('LimitExceededException', `Account maximum query concurrency limit of [${MAX_CONCURRENT}] reached.`);
  }
  const parsed = parseInsightsQuery(input.queryString ?? '');
  const wanted = new Set(groups);
  const inWindow = emulatedLogEvents(environment).filter(
    (event) => wanted.has(event.logGroup) && event.millis >= startTime * 1000 && event.millis < (endTime + 1) * 1000,
  );
  const matching = inWindow.filter((event) => parsed.filters.every(({ negate, regex }) => regex.test(event.message) !== negate));
  const rows = parsed.pattern
    ? patternRows(matching)
    : (parsed.sort === 'desc' ? [...matching].reverse() : matching)
        .slice(0, Math.min(parsed.limit, input.limit ?? MAX_ROWS))
        .map((event) => [
          field('@timestamp', insightsTimestamp(event.millis)),
          field('@message', event.message),
          field('@log', `${account}:${event.logGroup}`),
          field('@logStream', `${event.service}/emulated`),
          field('@ptr', event.pointer),
        ]);
  const queryId = randomUUID();
  queries.set(queryId, { rows, scanned: inWindow.length, polls: 0 });
  return { queryId };
};

const getQueryResults = (input: GetQueryResultsCommandInput, environment: RecordedEnvironment): Omit<GetQueryResultsCommandOutput, '$metadata'> => {
  const query = stored(environment).get(input.queryId ?? '');
  if (!query) throw serviceException('ResourceNotFoundException', `query ${input.queryId} not found`);
  query.polls++;
  const matched = query.rows.length;
  if (query.polls === 1) return { status: 'Running', results: [], statistics: { recordsMatched: 0, recordsScanned: Math.floor(query.scanned / 2), bytesScanned: 0 } };
  return { status: 'Complete', results: query.rows, statistics: { recordsMatched: matched, recordsScanned: query.scanned, bytesScanned: query.scanned * 200 } };
};

export const logsEmulation: ServiceEmulation = { StartQueryCommand: startQuery, GetQueryResultsCommand: getQueryResults };
