import { createInterface } from 'node:readline/promises';
import { decideApproval } from '../lib/approval/decide.ts';
import type { TaskCallbacks } from '../lib/approval/task-callbacks.ts';
import type { ApprovalStore } from '../lib/store/approval-store.ts';

/** `--approve`: ask a human at the terminal, approve every proposal, or approve none. */
export const approveModes = ['ask', 'all', 'none'] as const;
export type ApproveMode = (typeof approveModes)[number];

/** The local decider's name on the record: who ran the CLI. */
const localApprover = (): string => `local:${process.env.USER ?? 'unknown'}`;

/**
 * Decides each local approval as the mode says, through the same decision code as the API. `ask`
 * without a terminal to ask on behaves as `none`: nothing runs unasked.
 */
export const localApprovalPolicy = (
  mode: ApproveMode,
  ports: { approvals: ApprovalStore; callbacks: TaskCallbacks },
  io: { interactive: boolean; input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream } = { interactive: Boolean(process.stdin.isTTY) },
): ((approvalId: string) => void) => {
  const effective = mode === 'ask' && !io.interactive ? 'none' : mode;
  const decide = async (approvalId: string) => {
    let decision: 'approve' | 'reject' = effective === 'all' ? 'approve' : 'reject';
    if (effective === 'ask') {
      const approval = await ports.approvals.getApproval(approvalId);
      const prompt = createInterface({ input: io.input ?? process.stdin, output: io.output ?? process.stderr });
      try {
        const answer = await prompt.question(
          `\nApproval ${approvalId}: ${approval?.summary ?? approvalId}\n  previous value: ${approval?.previousValue ?? 'none'}\n  reason: ${approval?.reason ?? ''}\nApprove? [y/N] `,
        );
        decision = /^y(es)?$/i.test(answer.trim()) ? 'approve' : 'reject';
      } finally {
        prompt.close();
      }
    }
    await decideApproval(ports, approvalId, { decision, ...(effective === 'none' ? { comment: `--approve ${mode}: declined without asking` } : {}) }, localApprover());
  };
  return (approvalId) => {
    decide(approvalId).catch((error: unknown) => process.stderr.write(`approval ${approvalId}: ${error instanceof Error ? error.message : String(error)}\n`));
  };
};
