import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MAX_BODY_BYTES } from '../../lib/api/app.ts';
import { problem } from '../../lib/api/problem.ts';
import { signedHeaders, type SigningIdentity } from './proxy-signer.ts';
import { isLocalApi } from './proxy-target.ts';

export interface ApiProxyOptions {
  /** The API's base URL; its path (an API Gateway stage) prefixes every forwarded path. */
  api: URL;
  /** Present: every request is signed with this identity (SigV4, execute-api). */
  signing?: SigningIdentity;
  /** API Gateway gives up on an integration after 29 s; the default waits a little longer. */
  timeoutMs?: number;
}

export const DEFAULT_PROXY_TIMEOUT_MS = 30_000;

/**
 * Only these travel between the browser and the API. Everything else stays behind, by construction:
 * cookies and the browser's own `authorization`, hop-by-hop headers (`connection`, `keep-alive`,
 * `transfer-encoding`, `upgrade`, ...), and `content-encoding`, since `fetch` has already decoded
 * the body it hands on.
 */
const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept'] as const;
const FORWARDED_RESPONSE_HEADERS = ['content-type'] as const;

/** Statuses whose response must not carry a body (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** The same encoding the signer uses for the canonical query, so what is sent is what is signed. */
const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const searchOf = (params: URLSearchParams): string => {
  const pairs = [...params].map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`);
  return pairs.length ? `?${pairs.join('&')}` : '';
};

const targetUrl = (api: URL, incoming: URL): URL => {
  const url = new URL(api.origin);
  url.pathname = `${api.pathname.replace(/\/+$/, '')}${incoming.pathname}`;
  url.search = searchOf(incoming.searchParams);
  return url;
};

const howToReach = (api: URL): string =>
  isLocalApi(api)
    ? `start the local API with \`sre-agent serve --scenario <fileOrId> --port ${api.port || 80}\`, or point \`sre-agent console --api <URL>\` at a running one`
    : 'check the URL against the stack\'s ApiUrl output (`sre-agent console --api <ApiUrl>`), and your network or VPN';

/** `fetch` says only "fetch failed"; its cause says why (ECONNREFUSED, ENOTFOUND, a certificate error). */
const whyUnreachable = (error: unknown): string => {
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
};

const forward = async (c: Context, options: ApiProxyOptions): Promise<Response> => {
  const { api, signing } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROXY_TIMEOUT_MS;
  const method = c.req.method;
  const url = targetUrl(api, new URL(c.req.url));
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = c.req.header(name);
    if (value !== undefined) headers[name] = value;
  }
  const body = method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(await c.req.arrayBuffer());

  let sent = headers;
  if (signing) {
    try {
      sent = await signedHeaders({ method, url, headers, ...(body ? { body } : {}) }, signing);
    } catch (error) {
      return problem(c, 502, 'no AWS credentials to sign the request to the API with', [
        { path: 'credentials', message: `${error instanceof Error ? error.message : String(error)}; sign in (e.g. \`aws sso login\`) or set AWS_PROFILE, then retry` },
      ]);
    }
    // `fetch` sends the URL's host itself; it is the host that was signed.
    delete sent.host;
  }

  let upstream: Response;
  let upstreamBody: ArrayBuffer;
  try {
    upstream = await fetch(url, { method, headers: sent, ...(body ? { body } : {}), redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    upstreamBody = await upstream.arrayBuffer();
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') {
      return problem(c, 504, `the API at ${api.href} did not answer within ${timeoutMs / 1000} s`, [{ path: 'api', message: 'the request may still complete there; retry, or check the API\'s logs' }]);
    }
    return problem(c, 502, `the API at ${api.href} is unreachable (${whyUnreachable(error)})`, [{ path: 'api', message: howToReach(api) }]);
  }

  const responseHeaders = new Headers();
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) responseHeaders.set(name, value);
  }
  const withoutBody = NULL_BODY_STATUSES.has(upstream.status) || method === 'HEAD';
  return new Response(withoutBody ? null : upstreamBody, { status: upstream.status, headers: responseHeaders });
};

/**
 * Forwards every request it receives to the API: method, path, query, body and content type in;
 * status, body and content type out. Against API Gateway each request is signed with the
 * engineer's own AWS identity, so the API sees them as the caller and approver.
 */
export const apiProxyRoutes = (options: ApiProxyOptions): Hono => {
  const app = new Hono();
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => problem(c, 413, 'the request body is too large', [{ path: 'body', message: `send at most ${MAX_BODY_BYTES} bytes` }]),
    }),
  );
  app.all('*', (c) => forward(c, options));
  return app;
};
