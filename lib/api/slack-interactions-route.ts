import { Hono } from 'hono';
import { z } from 'zod';
import { decideApproval, type DecisionPorts } from '../approval/decide.ts';
import { verifySlackRequest } from '../approval/slack-signature.ts';
import { problem } from './problem.ts';

import { SLACK_APPROVE_ACTION, SLACK_REJECT_ACTION } from '../notify/slack-notifier.ts';

export interface SlackInteractionPorts extends DecisionPorts {
  /** The Slack app's signing secret; undefined when Slack buttons are not configured (every request is refused). */
  slackSigningSecret(): Promise<string | undefined>;
  /** Slack user id → the approver principal recorded on the decision (and checked against the approvers list). */
  slackApprovers: Readonly<Record<string, string>>;
}

const blockActions = z.object({
  type: z.literal('block_actions'),
  user: z.object({ id: z.string().min(1) }),
  actions: z.array(z.object({ action_id: z.enum([SLACK_APPROVE_ACTION, SLACK_REJECT_ACTION]), value: z.string().regex(/^apr-[0-9a-f]{24}$/) })).min(1),
});

/** Slack shows the answer to the person who clicked; it never carries more than the decision's outcome. */
const ephemeral = (text: string) => ({ response_type: 'ephemeral', replace_original: false, text });

/**
 * `POST /webhooks/slack`: the approval notice's Approve/Reject buttons. Signed by Slack (not SigV4),
 * so the signature and the request's age are checked before anything is read; the clicking Slack
 * user must map to an approver principal; the button carries only the approval id.
 */
export const slackInteractionsRoute = (ports: SlackInteractionPorts): Hono => {
  const route = new Hono();
  route.post('/', async (c) => {
    const rawBody = await c.req.text();
    const secret = await ports.slackSigningSecret();
    if (!secret) return problem(c, 401, 'Slack interactions are not configured', [{ path: 'header.x-slack-signature', message: 'set the Slack signing secret' }]);
    const now = (ports.clock ?? (() => new Date()))();
    const verified = verifySlackRequest({ signature: c.req.header('x-slack-signature'), timestamp: c.req.header('x-slack-request-timestamp'), rawBody }, secret, now);
    if (!verified.ok) return problem(c, 401, verified.reason, [{ path: 'header.x-slack-signature', message: verified.reason }]);
    let payload: unknown;
    try {
      payload = JSON.parse(new URLSearchParams(rawBody).get('payload') ?? '');
    } catch {
      return problem(c, 400, 'the body has no JSON payload field', [{ path: 'body.payload', message: 'expected Slack\'s form-encoded payload=<json>' }]);
    }
    const parsed = blockActions.safeParse(payload);
    if (!parsed.success) return problem(c, 400, 'not an approval button click', parsed.error.issues.map((issue) => ({ path: `body.payload.${issue.path.join('.')}`, message: issue.message })));
    const { user, actions } = parsed.data;
    const approver = ports.slackApprovers[user.id];
    if (!approver) return c.json(ephemeral(`Slack user ${user.id} is not mapped to an approver: nothing was decided.`), 200);
    const [action] = actions;
    const outcome = await decideApproval(ports, action!.value, { decision: action!.action_id === SLACK_APPROVE_ACTION ? 'approve' : 'reject' }, approver);
    return c.json(ephemeral(outcome.status === 200 ? `Approval ${outcome.approval.id} ${outcome.approval.status} by ${approver}.` : `Not decided: ${outcome.error}.`), 200);
  });
  return route;
};
