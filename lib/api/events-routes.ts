import { Hono } from 'hono';
import { z } from 'zod';
import { cloudWatchAlarmEvent } from '../domain/trigger.ts';
import { admitTrigger } from '../triggers/admit.ts';
import type { ApiPorts } from './ports.ts';
import { problem } from './problem.ts';
import { validateJson, validateQuery } from './validate.ts';

/** An EventBridge event; the only kind accepted today is a CloudWatch alarm state change. */
export const eventsRoutes = (ports: ApiPorts): Hono => {
  const routes = new Hono();
  routes.post('/', async (c) => {
    const query = validateQuery(z.strictObject({}), c);
    if (!query.ok) return problem(c, 400, query.error, query.issues);
    const body = validateJson(cloudWatchAlarmEvent, await c.req.text());
    if (!body.ok) return problem(c, 400, body.error, body.issues);
    const event = body.value;
    if (event.detail.state.value !== 'ALARM') {
      return c.json({ ignored: `alarm ${event.detail.alarmName} changed to ${event.detail.state.value}; only ALARM starts an investigation` }, 202);
    }
    // The alarm ARN and state time identify the occurrence; EventBridge's own id changes between sources.
    const admitted = await admitTrigger(ports, { cloudwatchAlarm: event });
    return c.json({ id: admitted.investigationId, outcome: admitted.outcome }, 202);
  });
  return routes;
};
