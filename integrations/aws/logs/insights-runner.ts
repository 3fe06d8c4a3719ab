import { CloudWatchLogsClient, GetQueryResultsCommand, StartQueryCommand, type ResultField } from '@aws-sdk/client-cloudwatch-logs';
import { isAccessDenied } from '../api-errors.ts';
import { INSIGHTS_ROW_CAP } from './insights-query.ts';
import type { QueryLimiter } from './query-limiter.ts';

/** One result row of Logs Insights, by field name (`@timestamp`, `@message`, `@log`, `@ptr`, `@pattern`...). */
export type InsightsRow = Record<string, string>;

/** A window in whole epoch seconds, as StartQuery takes it (both ends inclusive). */
export interface SecondsRange {
  start: number;
  end: number;
}

/** A refused call, with the IAM action to grant. */
export class InsightsAccessDenied extends Error {
  constructor(
    readonly action: string,
    readonly error: unknown,
  ) {
    super(`access denied to ${action}`);
  }
}

export interface InsightsTiming {
  /** Waits between polls of one query, the last repeated: short first, since most queries finish in a second or two. */
  pollIntervalsMs: readonly number[];
}

export const defaultInsightsTiming: InsightsTiming = { pollIntervalsMs: [250, 500, 1000, 2000] };

/** What a set of queries produced by the deadline. */
export interface Collected {
  rows: InsightsRow[];
  /** Queries still running at the deadline: a later call fetches them by id. */
  pending: string[];
  /** Windows never queried because the deadline came first. */
  unqueried: SecondsRange[];
  /** A window held more rows than could be read, even split (the rows are a sample). */
  truncated: boolean;
  /** Log groups that do not exist, dropped from the query. */
  missingLogGroups: string[];
}

export const emptyCollected = (): Collected => ({ rows: [], pending: [], unqueried: [], truncated: false, missingLogGroups: [] });

type PollOutcome = { kind: 'complete'; rows: InsightsRow[] } | { kind: 'timeout' } | { kind: 'pending'; queryId: string };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const rowOf = (fields: readonly ResultField[]): InsightsRow =>
  Object.fromEntries(fields.filter((field) => field.field !== undefined).map((field) => [field.field, field.value ?? ''])) as InsightsRow;

/** The group names quoted in a ResourceNotFoundException's message that belong to the batch. */
const missingGroupsIn = (error: unknown, groups: readonly string[]): string[] => {
  const message = (error as { message?: string })?.message ?? '';
  return groups.filter((group) => message.includes(`'${group}'`) || message.includes(`"${group}"`) || message.includes(` ${group} `));
};

/**
 * Runs Logs Insights queries for one tool call against a deadline: polls each query until it
 * completes; splits the window in two and asks again when a query returns the 10,000-row cap or
 * times out on the server; hands back the ids of the queries still running when the deadline
 * passes, so a later call can fetch them instead of starting over.
 */
export class InsightsSession {
  /** Splits allowed in one call: past it, a capped window is kept as a sample. */
  private splitsLeft = 16;

  constructor(
    private readonly logs: CloudWatchLogsClient,
    private readonly limiter: QueryLimiter,
    private readonly deadline: number,
    private readonly timing: InsightsTiming = defaultInsightsTiming,
  ) {}

  /** Every row the query gives over the window, splitting the window when it is capped (`splittable`). */
  async collect(queryString: string, logGroups: readonly string[], range: SecondsRange, splittable: boolean): Promise<Collected> {
    const collected = emptyCollected();
    const seen = new Set<string>();
    let groups = [...logGroups];
    const runRange = async (window: SecondsRange): Promise<void> => {
      if (Date.now() >= this.deadline) {
        collected.unqueried.push(window);
        return;
      }
      const outcome = await this.limiter.run(async () => {
        if (Date.now() >= this.deadline) return undefined;
        const queryId = await this.start(queryString, groups, window, collected, (remaining) => (groups = remaining));
        return queryId === undefined ? ({ kind: 'complete', rows: [] } as const) : this.poll(queryId);
      });
      if (outcome === undefined) {
        collected.unqueried.push(window);
        return;
      }
      if (outcome.kind === 'pending') {
        collected.pending.push(outcome.queryId);
        return;
      }
      const full = outcome.kind === 'timeout' || outcome.rows.length >= INSIGHTS_ROW_CAP;
      if (full && splittable && window.end - window.start >= 2 && this.splitsLeft > 0) {
        this.splitsLeft--;
        // The halves share their middle second (a boundary event lands in both); @ptr removes the duplicate.
        const middle = Math.floor((window.start + window.end) / 2);
        await Promise.all([runRange({ start: window.start, end: middle }), runRange({ start: middle, end: window.end })]);
        return;
      }
      if (full) collected.truncated = true;
      for (const row of outcome.kind === 'complete' ? outcome.rows : []) {
        const key = row['@ptr'] ?? JSON.stringify(row);
        if (seen.has(key)) continue;
        seen.add(key);
        collected.rows.push(row);
      }
    };
    await runRange(range);
    return collected;
  }

  /** Fetches queries started by an earlier call. */
  async fetch(queryIds: readonly string[]): Promise<Collected> {
    const collected = emptyCollected();
    await Promise.all(
      queryIds.map(async (queryId) => {
        const outcome = await this.poll(queryId, true);
        if (outcome.kind === 'pending') collected.pending.push(queryId);
        else if (outcome.kind === 'timeout') collected.truncated = true;
        else {
          if (outcome.rows.length >= INSIGHTS_ROW_CAP) collected.truncated = true;
          collected.rows.push(...outcome.rows);
        }
      }),
    );
    return collected;
  }

  private async start(
    queryString: string,
    logGroups: readonly string[],
    window: SecondsRange,
    collected: Collected,
    dropGroups: (remaining: string[]) => void,
  ): Promise<string | undefined> {
    let groups = [...logGroups];
    while (groups.length > 0) {
      try {
        const { queryId } = await this.logs.send(
          new StartQueryCommand({ logGroupNames: groups, startTime: window.start, endTime: window.end, queryString, limit: INSIGHTS_ROW_CAP }),
        );
        if (!queryId) throw new Error('StartQuery returned no queryId');
        return queryId;
      } catch (error) {
        if (isAccessDenied(error)) throw new InsightsAccessDenied('logs:StartQuery', error);
        if ((error as { name?: string })?.name !== 'ResourceNotFoundException') throw error;
        // A log group named in settings or tags that does not exist (yet, or any more): drop it and ask again.
        const missing = missingGroupsIn(error, groups);
        const dropped = missing.length > 0 ? missing : groups;
        collected.missingLogGroups.push(...dropped.filter((group) => !collected.missingLogGroups.includes(group)));
        groups = groups.filter((group) => !dropped.includes(group));
        dropGroups(groups);
      }
    }
    return undefined;
  }

  private async poll(queryId: string, fetchingEarlier = false): Promise<PollOutcome> {
    for (let attempt = 0; ; attempt++) {
      const intervals = this.timing.pollIntervalsMs;
      const wait = intervals[Math.min(attempt, intervals.length - 1)] ?? 1000;
      // A query fetched again is asked at once: it has had the time since the earlier call.
      if (!(fetchingEarlier && attempt === 0)) await sleep(Math.max(0, Math.min(wait, this.deadline - Date.now())));
      let answer;
      try {
        answer = await this.logs.send(new GetQueryResultsCommand({ queryId }));
      } catch (error) {
        if (isAccessDenied(error)) throw new InsightsAccessDenied('logs:GetQueryResults', error);
        throw error;
      }
      switch (answer.status) {
        case 'Complete':
          return { kind: 'complete', rows: (answer.results ?? []).map(rowOf) };
        case 'Timeout':
          return { kind: 'timeout' };
        case 'Failed':
        case 'Cancelled':
        case 'Unknown':
          throw new Error(`Logs Insights query ${queryId} ended ${answer.status}`);
        default:
          if (Date.now() >= this.deadline) return { kind: 'pending', queryId };
      }
    }
  }
}
