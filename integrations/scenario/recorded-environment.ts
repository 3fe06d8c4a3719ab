import type { Environment } from '../../lib/domain/scenario.ts';
import { toMillis } from '../../lib/domain/time.ts';

/** A scenario's environment as the tools see it: nothing after the incident's `now`. */
export class RecordedEnvironment {
  readonly nowMillis: number;

  constructor(
    private readonly environment: Environment,
    readonly now: Date,
  ) {
    this.nowMillis = now.getTime();
  }

  /** Milliseconds of the window start for "the last N minutes". */
  windowStart(sinceMinutes: number): number {
    return this.nowMillis - sinceMinutes * 60_000;
  }

  private visible<T extends { timestamp: string }>(records: readonly T[] | undefined, sinceMinutes: number): T[] {
    const start = this.windowStart(sinceMinutes);
    return (records ?? [])
      .filter((record) => {
        const at = toMillis(record.timestamp);
        return at >= start && at <= this.nowMillis;
      })
      .sort((a, b) => toMillis(a.timestamp) - toMillis(b.timestamp));
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
    return this.visible(this.environment.logs, sinceMinutes);
  }

  changes(sinceMinutes: number) {
    return this.visible(this.environment.changes, sinceMinutes);
  }

  traces(sinceMinutes: number) {
    return this.visible(this.environment.traces, sinceMinutes);
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
