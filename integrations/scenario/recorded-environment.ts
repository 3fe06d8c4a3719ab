import type { Environment } from '../../lib/domain/scenario.ts';
import { toMillis } from '../../lib/domain/time.ts';

/** A scenario's environment as the tools see it: nothing after the incident's `now`. */
export class RecordedEnvironment {
  readonly nowMillis: number;
  /** Time-stamped records sorted once, with their times, so every window is two binary searches. */
  private readonly sorted = new Map<'logs' | 'changes' | 'traces', { at: number[]; records: readonly { timestamp: string }[] }>();

  constructor(
    private readonly environment: Environment,
    readonly now: Date,
  ) {
    this.nowMillis = now.getTime();
  }

  private index<T extends { timestamp: string }>(source: 'logs' | 'changes' | 'traces', records: readonly T[] | undefined): { at: number[]; records: readonly T[] } {
    const existing = this.sorted.get(source);
    if (existing) return existing as { at: number[]; records: readonly T[] };
    const timed = (records ?? []).map((record) => ({ record, at: toMillis(record.timestamp) })).sort((a, b) => a.at - b.at);
    const built = { at: timed.map(({ at }) => at), records: timed.map(({ record }) => record) };
    this.sorted.set(source, built);
    return built;
  }

  /** Milliseconds of the window start for "the last N minutes". */
  windowStart(sinceMinutes: number): number {
    return this.nowMillis - sinceMinutes * 60_000;
  }

  private visible<T extends { timestamp: string }>(source: 'logs' | 'changes' | 'traces', records: readonly T[] | undefined, sinceMinutes: number): T[] {
    const { at, records: sorted } = this.index(source, records);
    return sorted.slice(firstAtOrAfter(at, this.windowStart(sinceMinutes)), firstAtOrAfter(at, this.nowMillis + 1));
  }

  get region(): string | undefined {
    return this.environment.region;
  }

  get accountId(): string | undefined {
    return this.environment.accountId;
  }

  get services() {
    return this.environment.services ?? [];
  }

  get runbooks() {
    return this.environment.runbooks ?? [];
  }

  get alarms() {
    return (this.environment.alarms ?? []).filter((alarm) => alarm.since === undefined || toMillis(alarm.since) <= this.nowMillis);
  }

  logs(sinceMinutes: number) {
    return this.visible('logs', this.environment.logs, sinceMinutes);
  }

  changes(sinceMinutes: number) {
    return this.visible('changes', this.environment.changes, sinceMinutes);
  }

  traces(sinceMinutes: number) {
    return this.visible('traces', this.environment.traces, sinceMinutes);
  }

  metrics(sinceMinutes: number) {
    const start = this.windowStart(sinceMinutes);
    return (this.environment.metrics ?? []).map((series) => ({
      ...series,
      points: series.points
        .filter(([timestamp]) => toMillis(timestamp) >= start && toMillis(timestamp) <= this.nowMillis)
        .sort(([a], [b]) => toMillis(a) - toMillis(b)),
    }));
  }

  /** Whether the scenario recorded this kind of data at all (absent means "no data", not "nothing happened"). */
  has(source: 'logs' | 'metrics' | 'changes' | 'alarms' | 'runbooks' | 'traces' | 'services'): boolean {
    return this.environment[source] !== undefined;
  }
}

/** Case-insensitive match of a service filter against a record's service. */
export const serviceMatches = (filter: string | undefined, service: string): boolean =>
  filter === undefined || filter.trim() === '' || service.toLowerCase() === filter.trim().toLowerCase();

/** The index of the first time at or after `target` in ascending `times` (its length when none is). */
const firstAtOrAfter = (times: readonly number[], target: number): number => {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (times[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return low;
};
