import type { MiddlewareHandler } from 'hono';
import { problem } from '../lib/api/problem.ts';

const LOOPBACK_HOSTNAMES = new Set(['127.0.0.1', 'localhost']);

const hostnameOf = (host: string): string => host.replace(/:\d+$/, '');

/**
 * `sre-agent serve` decides approvals and the console signs what it forwards with the engineer's
 * identity, so only the engineer's own pages and tools may use them. Listening on 127.0.0.1 keeps
 * other machines out; this keeps other web pages in the engineer's browser out: a page reaching
 * 127.0.0.1 through a DNS name of its own (DNS rebinding) sends its own name as Host, and a
 * cross-site request (a form POST to /approvals/{id}) carries its Origin and
 * `Sec-Fetch-Site: cross-site`. Clients that send neither header, such as curl, are the engineer's own.
 */
export const sameMachineOnly = (): MiddlewareHandler => async (c, next) => {
  const host = c.req.header('host') ?? '';
  if (!LOOPBACK_HOSTNAMES.has(hostnameOf(host))) {
    return problem(c, 403, `sre-agent answers only as 127.0.0.1 or localhost, not as ${JSON.stringify(host)}`, [{ path: 'header.host', message: 'open the URL sre-agent printed when it started' }]);
  }
  const origin = c.req.header('origin');
  if (origin !== undefined && origin !== `http://${host}`) {
    return problem(c, 403, `requests from ${JSON.stringify(origin)} are refused: only pages served by this sre-agent may call it`, [{ path: 'header.origin', message: `expected http://${host}` }]);
  }
  if (c.req.header('sec-fetch-site') === 'cross-site') {
    return problem(c, 403, 'cross-site requests are refused: only pages served by this sre-agent may call it', [{ path: 'header.sec-fetch-site', message: 'open the URL sre-agent printed when it started' }]);
  }
  await next();
};
