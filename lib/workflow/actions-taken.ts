import type { TranscriptEvent } from '../domain/transcript.ts';

export interface ApprovalSummary {
  id: string;
  action: string;
  target: string;
  decision: string;
  by?: string;
  at?: string;
}

export interface ActionSummary {
  action: string;
  target: string;
  status: 'executed' | 'declined' | 'expired' | 'failed';
  verification?: string;
}

const payloadOf = (event: TranscriptEvent) => event.payload as Record<string, unknown>;

/** Every approval requested in the investigation, with its decision, in the order they were asked. */
export const approvalsOf = (events: readonly TranscriptEvent[]): ApprovalSummary[] => {
  const decided = new Map(events.filter((event) => event.type === 'approval.decided').map((event) => [String(payloadOf(event).approvalId), payloadOf(event)]));
  return events
    .filter((event) => event.type === 'approval.requested')
    .map((event) => {
      const requested = payloadOf(event);
      const decision = decided.get(String(requested.approvalId));
      return {
        id: String(requested.approvalId),
        action: String(requested.action),
        target: String(requested.target),
        decision: decision ? String(decision.decision) : 'pending',
        ...(typeof decision?.by === 'string' ? { by: decision.by } : {}),
        ...(typeof decision?.at === 'string' ? { at: decision.at } : {}),
      };
    });
};

/** What became of each proposed action, in order, with the verification that followed an executed one. */
export const actionsOf = (events: readonly TranscriptEvent[]): ActionSummary[] => {
  const executed = new Map(events.filter((event) => event.type === 'action.executed').map((event) => [String(payloadOf(event).approvalId), payloadOf(event)]));
  const verified = new Map(events.filter((event) => event.type === 'action.verified').map((event) => [String(payloadOf(event).approvalId), payloadOf(event)]));
  return approvalsOf(events)
    .filter((approval) => approval.decision !== 'pending')
    .map((approval) => {
      const run = executed.get(approval.id);
      const status: ActionSummary['status'] = run ? (run.status === 'failed' ? 'failed' : 'executed') : approval.decision === 'expired' ? 'expired' : 'declined';
      const verification = verified.get(approval.id)?.summary;
      return { action: approval.action, target: approval.target, status, ...(typeof verification === 'string' ? { verification } : {}) };
    });
};

/** The report's account of actions: what ran, what was declined or expired, and whether the service recovered. */
export const actionsSection = (events: readonly TranscriptEvent[], unmask: (text: string) => string): string | undefined => {
  const actions = actionsOf(events);
  if (actions.length === 0) return undefined;
  const lines = actions.map((action) => {
    const what = `**${action.action}** on ${unmask(action.target)}`;
    switch (action.status) {
      case 'executed':
        return `- ${what}: executed after approval.${action.verification ? ` Verification: ${unmask(action.verification)}.` : ''}`;
      case 'failed':
        return `- ${what}: approved, but it failed.`;
      case 'declined':
        return `- ${what}: declined by the approver; the investigation went on without it.`;
      case 'expired':
        return `- ${what}: no decision before the approval expired; not run.`;
    }
  });
  return `## Actions\n${lines.join('\n')}`;
};
