import type { ApprovalNotice, Notice, Notifier } from './port.ts';

/**
 * Announces a finding on several channels. The finding is already stored when this runs, so a
 * channel that still fails after its retries is reported (`onFailure`, and in the message id)
 * rather than failing the investigation; only when every channel fails does publishing fail.
 */
export class FanOutNotifier implements Notifier {
  readonly channel: string;

  constructor(
    private readonly notifiers: readonly Notifier[],
    private readonly onFailure: (channel: string, error: unknown) => void = () => undefined,
  ) {
    this.channel = notifiers.map((notifier) => notifier.channel).join('+');
  }

  async publish(notice: Notice): Promise<{ messageId?: string }> {
    return this.toEvery(this.notifiers, (notifier) => notifier.publish(notice));
  }

  async announceApproval(notice: ApprovalNotice): Promise<{ messageId?: string }> {
    return this.toEvery(
      this.notifiers.filter((notifier) => notifier.announceApproval),
      (notifier) => notifier.announceApproval!(notice),
    );
  }

  private async toEvery(notifiers: readonly Notifier[], send: (notifier: Notifier) => Promise<{ messageId?: string }>): Promise<{ messageId?: string }> {
    const results = await Promise.allSettled(notifiers.map(send));
    const failures = results.flatMap((result, index) => (result.status === 'rejected' ? [{ channel: notifiers[index]!.channel, error: result.reason }] : []));
    for (const failure of failures) this.onFailure(failure.channel, failure.error);
    if (failures.length > 0 && failures.length === notifiers.length) {
      throw new Error(`every channel failed: ${failures.map(({ channel, error }) => `${channel}: ${error instanceof Error ? error.message : String(error)}`).join('; ')}`);
    }
    const ids = results.map((result, index) =>
      result.status === 'fulfilled' ? `${notifiers[index]!.channel}:${result.value.messageId ?? 'sent'}` : `${notifiers[index]!.channel}:failed`,
    );
    return { messageId: ids.join(',') };
  }
}
