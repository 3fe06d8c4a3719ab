import type { Investigation } from '../domain/investigation.ts';
import type { Notice } from '../notify/port.ts';
import { InvestigationNotFoundError } from '../store/port.ts';
import { controlState, type ControlState } from './control.ts';
import type { StepDependencies } from './dependencies.ts';
import { NOTIFICATION_TIMING, once } from './once.ts';
import { runStep } from './run-step.ts';

const noticeOf = (head: Investigation): Notice => {
  if (!head.finding) throw new Error(`investigation ${head.id} has no finding to publish`);
  const subject = head.finding.incident
    ? `[sre-agent] ${head.finding.rootCause.service}: ${head.finding.rootCause.category}`
    : '[sre-agent] no incident found';
  return { investigationId: head.id, subject, finding: head.finding };
};

/**
 * Closes the investigation as succeeded and announces the finding. The notification is committed
 * first, as the step's event, and sent after the commit, once: a retried or replayed step finds the
 * commit and sends only if no send (keyed by the investigation and this step) has completed.
 */
export const publish = async (dependencies: StepDependencies['publish'], input: unknown): Promise<ControlState> => {
  const state = controlState.parse(input);
  const outcome = await runStep(dependencies, state.investigationId, 'publish', async (head) => ({
    events: [{ type: 'notification', payload: { channel: dependencies.notifier.channel, subject: noticeOf(head).subject } }],
    head: { ...head, status: 'succeeded' },
    outcome: state,
  }));
  const head = await dependencies.store.get(state.investigationId);
  if (!head) throw new InvestigationNotFoundError(state.investigationId);
  await once(dependencies.store, head.id, 'publish/notification', () => dependencies.notifier.publish(noticeOf(head)), NOTIFICATION_TIMING);
  return outcome;
};
