/** The clock and the wait a spacer uses; tests pass their own so nothing really sleeps. */
export interface SpacerTiming {
  now: () => number;
  sleep: (milliseconds: number) => Promise<void>;
}

export const realTiming: SpacerTiming = {
  now: () => Date.now(),
  sleep: (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)),
};

/**
 * Keeps calls to an API at least `intervalMs` apart (CloudTrail LookupEvents allows 2 requests a
 * second per account and region), so the tool stays under the limit instead of being throttled;
 * a throttle that happens anyway is the SDK's retry strategy's to handle.
 */
export class RequestSpacer {
  private nextAllowed = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly timing: SpacerTiming = realTiming,
  ) {}

  async wait(): Promise<void> {
    const now = this.timing.now();
    const start = Math.max(now, this.nextAllowed);
    this.nextAllowed = start + this.intervalMs;
    if (start > now) await this.timing.sleep(start - now);
  }
}
