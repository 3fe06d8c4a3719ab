import type { Investigation } from '../domain/investigation.ts';
import type { Finding } from '../domain/finding.ts';
import type { Notice } from '../notify/port.ts';
import { InvestigationNotFoundError } from '../store/port.ts';
import { controlState, type ControlState } from './control.ts';
import type { StepDependencies } from './dependencies.ts';
import { NOTIFICATION_TIMING, once } from './once.ts';
import { runStep } from './run-step.ts';

const findingOf = (head: Investigation): Finding => {
  if (!head.finding) throw new Error(`investigation ${head.id} has no finding to publish`);
  return head.finding;
};

const noticeOf = (head: Investigation): Notice => {
  const finding = findingOf(head);
  const subject = finding.incident ? `[sre-agent] ${finding.rootCause.service}: ${finding.rootCause.category}` : '[sre-agent] no incident found';
  return { investigationId: head.id, subject, finding };
};

/**
 * The one rule on who is told. A finished investigation is announced on every channel (the topic,
 * the PagerDuty incident, Slack), except a scheduled health sweep whose digest found nothing: its
 * finding stays on the investigation and pages no one. A sweep that found something, or could not
 * finish (its finding says incomplete), is announced like any investigation.
 */
export const withheldBecause = (head: Pick<Investigation, 'triggerKind'>, finding: Pick<Finding, 'incident' | 'incomplete'>): string | undefined =>
  head.triggerKind === 'schedule' && !finding.incident && finding.incomplete === undefined
    ? 'a health sweep that found nothing pages no one; the digest is on the investigation'
    : undefined;

/**
 * Closes the investigation as succeeded and announces the finding. The notification is committed
 * first, as the step's event, and sent after the commit, once: a retried or replayed step finds the
 * commit and sends only if no send (keyed by the investigation and this step) has completed.
 */
export const publish = async (dependencies: StepDependencies['publish'], input: unknown): Promise<ControlState> => {
  const state = controlState.parse(input);
  const outcome = await runStep(dependencies, state.investigationId, 'publish', async (head) => {
    const { subject } = noticeOf(head);
    const withheld = withheldBecause(head, findingOf(head));
    return {
      events: [{ type: 'notification', payload: withheld ? { channel: 'none', subject, withheld } : { channel: dependencies.notifier.channel, subject } }],
      head: { ...head, status: 'succeeded' },
      outcome: state,
    };
  });
  const head = await dependencies.store.get(state.investigationId);
  if (!head) throw new InvestigationNotFoundError(state.investigationId);
  if (withheldBecause(head, findingOf(head))) return outcome;
  await once(dependencies.store, head.id, 'publish/notification', () => dependencies.notifier.publish(noticeOf(head)), NOTIFICATION_TIMING);
  return outcome;
};
