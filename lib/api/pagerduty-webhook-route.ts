import { Hono } from 'hono';
import { z } from 'zod';
import { pagerDutyWebhook } from '../domain/trigger.ts';
import { admitTrigger } from '../triggers/admit.ts';
import { verifyPagerDutySignature } from '../triggers/pagerduty-signature.ts';
import { SRE_AGENT_NOTE_MARKER } from '../triggers/pagerduty-note.ts';
import type { ApiPorts } from './ports.ts';
import { problem } from './problem.ts';
import { validateJson, validateQuery } from './validate.ts';

/** Notes carry their text in `data.content`, which the trigger schema does not keep. */
const noteContent = z.object({ event: z.object({ data: z.object({ content: z.string().optional() }) }) });

/**
 * PagerDuty V3 webhooks. PagerDuty drops a 4xx without retrying and retries a 5xx or a timeout,
 * so a bad signature or body is a 4xx that starts nothing, and the 202 comes as soon as the
 * investigation is admitted (it runs asynchronously).
 */
export const pagerDutyWebhookRoute = (ports: ApiPorts): Hono => {
  const routes = new Hono();
  routes.post('/', async (c) => {
    const raw = await c.req.text();
    const secret = await ports.secrets.pagerDutyWebhookSecret();
    if (secret === undefined) return problem(c, 503, 'the PagerDuty webhook secret is not configured', [{ path: 'server', message: 'set PAGERDUTY_WEBHOOK_SECRET (locally) or the webhook secret in Secrets Manager' }]);
    const signature = verifyPagerDutySignature(raw, c.req.header('x-pagerduty-signature'), secret);
    if (!signature.valid) return problem(c, 401, 'the webhook signature is not valid', [{ path: 'header.x-pagerduty-signature', message: signature.reason }]);
    const query = validateQuery(z.strictObject({}), c);
    if (!query.ok) return problem(c, 400, query.error, query.issues);
    const body = validateJson(pagerDutyWebhook, raw);
    if (!body.ok) return problem(c, 400, body.error, body.issues);
    const { event } = body.value;
    if (event.event_type !== 'incident.triggered') {
      const content = noteContent.safeParse(JSON.parse(raw));
      const ownNote = content.success && content.data.event.data.content?.includes(SRE_AGENT_NOTE_MARKER) === true;
      return c.json({ ignored: ownNote ? 'a note sre-agent wrote itself' : `event type ${event.event_type} starts nothing` }, 202);
    }
    const webhookId = c.req.header('x-webhook-id');
    const admitted = await admitTrigger(ports, { pagerduty: body.value }, [
      ...(webhookId ? [`pagerduty-webhook|${webhookId}`] : []),
      `pagerduty-event|${event.id}`,
    ]);
    return c.json({ id: admitted.investigationId, outcome: admitted.outcome }, 202);
  });
  return routes;
};
