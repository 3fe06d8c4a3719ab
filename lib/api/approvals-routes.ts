import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { decideApproval, redeliverDecisions, type DecisionPorts } from '../approval/decide.ts';
import { approvalStatus, type Approval } from '../domain/approval.ts';
import { problem } from './problem.ts';
import { validateJson, validateQuery } from './validate.ts';

/** What the approval routes need: the records, the callbacks, the allow-list, and who is calling. */
export interface ApprovalPorts extends DecisionPorts {
  /**
   * The caller's principal from the request context (API Gateway's IAM identity; the local user
   * under `serve`); undefined when the request carries none, which is refused.
   */
  callerIdentity(c: Context): string | undefined;
}

const decisionBody = z.object({ decision: z.enum(['approve', 'reject']), comment: z.string().max(2000).optional() }).strict();
const listQuery = z.object({ status: approvalStatus.default('pending'), limit: z.coerce.number().int().min(1).max(100).default(50) });

/** The public view of a record: never the task token (no record holds it), and the arguments humans decide on. */
const view = (approval: Approval) => ({
  id: approval.id,
  investigationId: approval.investigationId,
  action: approval.action,
  target: approval.target,
  summary: approval.summary,
  arguments: approval.arguments,
  previousValue: approval.previousValue,
  reason: approval.reason,
  status: approval.status,
  expiresAt: approval.expiresAt,
  ...(approval.decidedBy ? { decidedBy: approval.decidedBy, decidedAt: approval.decidedAt } : {}),
  ...(approval.comment ? { comment: approval.comment } : {}),
});

/** `GET /approvals?status=pending` and `POST /approvals/{id}` `{decision, comment?}`: one decision per approval, by an allowed caller. */
export const approvalsRoutes = (ports: ApprovalPorts): Hono => {
  const routes = new Hono();
  // Decisions recorded whose callback failed are sent again whenever the approvals are used, until Step Functions answers.
  routes.use('*', async (_, next) => {
    await redeliverDecisions(ports).catch((error: unknown) => ports.log?.(`redelivering decisions failed: ${error instanceof Error ? error.name : 'error'}`));
    await next();
  });
  routes.get('/', async (c) => {
    const query = validateQuery(listQuery, c);
    if (!query.ok) return problem(c, 400, query.error, query.issues);
    const items = await ports.approvals.listApprovals(query.value.status, query.value.limit);
    return c.json({ items: items.map(view) });
  });
  routes.post('/:id', async (c) => {
    const approver = ports.callerIdentity(c);
    if (!approver) return problem(c, 403, 'the request carries no caller identity', [{ path: 'header.authorization', message: 'sign the request (IAM auth)' }]);
    const body = validateJson(decisionBody, await c.req.text());
    if (!body.ok) return problem(c, 400, body.error, body.issues);
    const outcome = await decideApproval(ports, c.req.param('id'), body.value, approver);
    if (outcome.status === 200) return c.json(view(outcome.approval));
    return problem(c, outcome.status, outcome.error, [{ path: 'path.id', message: outcome.error }]);
  });
  return routes;
};
