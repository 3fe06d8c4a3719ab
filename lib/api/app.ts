import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { approvalsRoutes } from './approvals-routes.ts';
import { consoleRoutes } from './console-routes.ts';
import { eventsRoutes } from './events-routes.ts';
import { investigationsRoutes } from './investigations-routes.ts';
import { pagerDutyWebhookRoute } from './pagerduty-webhook-route.ts';
import type { ApiPorts } from './ports.ts';
import { problem } from './problem.ts';
import { slackInteractionsRoute } from './slack-interactions-route.ts';

/** Largest body any route accepts; PagerDuty and EventBridge events are a few kilobytes. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * The one HTTP app behind API Gateway (Lambda proxy integration) and `sre-agent serve`.
 * Every body and query is validated; every error is JSON `{error, issues: [{path, message}]}`.
 */
export const createApp = (ports: ApiPorts): Hono => {
  const app = new Hono();
  app.use('*', async (c, next) => {
    const started = Date.now();
    await next();
    ports.log?.(`${c.req.method} ${c.req.path} ${c.res.status} ${Date.now() - started}ms`);
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => problem(c, 413, 'the request body is too large', [{ path: 'body', message: `send at most ${MAX_BODY_BYTES} bytes` }]),
    }),
  );
  app.route('/investigations', investigationsRoutes(ports));
  app.route('/investigations', consoleRoutes(ports));
  app.route('/events', eventsRoutes(ports));
  app.route('/webhooks/pagerduty', pagerDutyWebhookRoute(ports));
  if (ports.approvalRoutes) app.route('/approvals', approvalsRoutes(ports.approvalRoutes));
  if (ports.slackInteractions) app.route('/webhooks/slack', slackInteractionsRoute(ports.slackInteractions));
  app.notFound((c) => problem(c, 404, `no route ${c.req.method} ${c.req.path}`, [{ path: 'path', message: 'see the README for the routes' }]));
  app.onError((error, c) => {
    ports.log?.(`error ${c.req.method} ${c.req.path}: ${error instanceof Error ? error.message : String(error)}`);
    return problem(c, 500, 'internal error; the request may be retried');
  });
  return app;
};
