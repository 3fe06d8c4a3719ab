import { controlState, type ControlState } from './control.ts';
import type { WorkflowDependencies } from './dependencies.ts';
import { runStep } from './run-step.ts';

/** Announces the finding and closes the investigation as succeeded. */
export const publish = async (dependencies: WorkflowDependencies, input: unknown): Promise<ControlState> => {
  const state = controlState.parse(input);
  return runStep(dependencies, state.investigationId, 'publish', async (head) => {
    if (!head.finding) throw new Error(`investigation ${head.id} has no finding to publish`);
    const subject = head.finding.incident
      ? `[sre-agent] ${head.finding.rootCause.service}: ${head.finding.rootCause.category}`
      : '[sre-agent] no incident found';
    const { messageId } = await dependencies.notifier.publish({ investigationId: head.id, subject, finding: head.finding });
    return {
      events: [{ type: 'notification', payload: { channel: dependencies.notifier.channel, subject, ...(messageId ? { messageId } : {}) } }],
      head: { ...head, status: 'succeeded' },
      outcome: state,
    };
  });
};
