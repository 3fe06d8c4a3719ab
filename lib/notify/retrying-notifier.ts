import { DeliveryError } from './delivery-error.ts';
import type { ApprovalNotice, Notice, Notifier } from './port.ts';

export interface RetryPolicy {
  attempts: number;
  /** First pause; each retry doubles it, with full jitter. */
  baseDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 4, baseDelayMs: 500 };

/** Retries a notifier's transient failures with exponential backoff; a refusal (4xx) fails at once. */
export class RetryingNotifier implements Notifier {
  readonly channel: string;

  constructor(
    private readonly inner: Notifier,
    private readonly policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  ) {
    this.channel = inner.channel;
  }

  async publish(notice: Notice): Promise<{ messageId?: string }> {
    return this.retried(() => this.inner.publish(notice));
  }

  async announceApproval(notice: ApprovalNotice): Promise<{ messageId?: string }> {
    if (!this.inner.announceApproval) return {};
    return this.retried(() => this.inner.announceApproval!(notice));
  }

  private async retried(send: () => Promise<{ messageId?: string }>): Promise<{ messageId?: string }> {
    const sleep = this.policy.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    for (let attempt = 1; ; attempt++) {
      try {
        return await send();
      } catch (error) {
        const retryable = !(error instanceof DeliveryError) || error.retryable;
        if (!retryable || attempt >= this.policy.attempts) throw error;
        await sleep(Math.random() * this.policy.baseDelayMs * 2 ** (attempt - 1));
      }
    }
  }
}
