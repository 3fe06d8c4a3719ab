/**
 * Keeps one investigation's Logs Insights queries well under the account's limit of 30 concurrent
 * queries (shared with dashboards and people): at most `concurrency` run at once, and starts are
 * spaced so a burst of StartQuery calls does not meet its own request-rate limit.
 */
export interface LimiterOptions {
  concurrency: number;
  spacingMs: number;
}

export const defaultLimiterOptions: LimiterOptions = { concurrency: 7, spacingMs: 250 };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class QueryLimiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private nextStart = 0;

  constructor(private readonly options: LimiterOptions = defaultLimiterOptions) {}

  /** Runs `work` when a slot is free and the spacing since the previous start has passed. */
  async run<Result>(work: () => Promise<Result>): Promise<Result> {
    // A finishing run hands its slot straight to the next waiter, so a newcomer cannot slip in between.
    if (this.running >= this.options.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      const now = Date.now();
      const startAt = Math.max(now, this.nextStart);
      this.nextStart = startAt + this.options.spacingMs;
      if (startAt > now) await sleep(startAt - now);
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
