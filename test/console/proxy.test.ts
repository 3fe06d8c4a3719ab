import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../lib/api/app.ts';
import { startConsoleServer, type ConsoleServer } from '../../local/console/proxy-server.ts';
import type { AwsCredentials, CredentialsProvider } from '../../local/console/proxy-signer.ts';
import { apiTarget, ApiTargetError } from '../../local/console/proxy-target.ts';

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

type Reply = (request: Recorded, response: ServerResponse) => void;

/** A local API that records every request it receives and answers with the test's `reply`. */
const fakeApi = async () => {
  const requests: Recorded[] = [];
  let reply: Reply = (_, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const recorded = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) };
      requests.push(recorded);
      reply(recorded, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    requests,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answer: (next: Reply) => (reply = next),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * node:http rather than fetch, so a test can send any Host, Cookie or Connection header a browser
 * might. One connection per request (`agent: false`): a refused body leaves its connection unusable.
 */
const send = (base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Answer> =>
  new Promise((resolve, reject) => {
    // node:http sends a DELETE's body without a length unless told.
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const outgoing = httpRequest(`${base}${path}`, { method, headers: { ...length, ...headers }, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });

/** Stands in for the web app: the console serves these routes itself and forwards everything else. */
const assets = () => {
  const routes = new Hono();
  routes.get('/', (c) => c.html('<title>console</title>'));
  routes.get('/console/app.js', (c) => c.body('export {}', 200, { 'content-type': 'text/javascript' }));
  return routes;
};

const sessionCredentials: AwsCredentials = { accessKeyId: 'AKID', secretAccessKey: 'test-secret-key', sessionToken: 'test-session-token' };
const staticCredentials = (credentials: AwsCredentials): CredentialsProvider => async () => credentials;

const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const dateOf = (amzDate: string): Date => {
  const [, year, month, day, hour, minute, second] = AMZ_DATE.exec(amzDate) ?? [];
  return new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
};

/**
 * What API Gateway does with a signed request: recompute the signature from the request as it
 * arrived (method, host, path, query, the signed headers, the body) with the caller's secret key.
 */
const recomputedAuthorization = async (recorded: Recorded, region: string, credentials: AwsCredentials, body: Buffer = recorded.body): Promise<string> => {
  const authorization = String(recorded.headers.authorization);
  const signedHeaderNames = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
  const headers: Record<string, string> = {};
  // The payload hash is recomputed from the body received, not taken from the request's header.
  for (const name of signedHeaderNames) if (name !== 'x-amz-content-sha256') headers[name] = String(recorded.headers[name]);
  const url = new URL(recorded.url, `http://${recorded.headers.host}`);
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  const signer = new SignatureV4({ service: 'execute-api', region, credentials, sha256: Hash.bind(null, 'sha256') });
  const signed = await signer.sign(
    { method: recorded.method, protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: url.pathname, query, headers, ...(body.length ? { body: new Uint8Array(body) } : {}) },
    { signingDate: dateOf(String(recorded.headers['x-amz-date'])) },
  );
  return String(signed.headers.authorization);
};

describe('sre-agent console: the API proxy', () => {
  let api: Awaited<ReturnType<typeof fakeApi>>;
  let consoleServer: ConsoleServer;
  const logged: string[] = [];

  beforeAll(async () => {
    api = await fakeApi();
    // The API's base path (an API Gateway stage) prefixes every forwarded path.
    consoleServer = await startConsoleServer({ assets: assets(), api: new URL(`${api.url}/prod/`), port: 0, log: (line) => logged.push(line) });
  });
  afterAll(async () => {
    await consoleServer.close();
    await api.close();
  });
  afterEach(() => {
    api.requests.length = 0;
    logged.length = 0;
  });

  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])('forwards %s with its path, query, body and content type, and answers with the API\'s status, body and content type', async (method) => {
    api.answer((request, response) =>
      response.writeHead(409, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ error: 'already decided', echo: { method: request.method, url: request.url } })),
    );
    const body = method === 'GET' ? undefined : JSON.stringify({ decision: 'approve', comment: 'ok with ü and & = ?' });
    const answer = await send(consoleServer.url, method, '/approvals/apr-1?status=pending&service=check%20out&tag=a&tag=b', body ? { 'content-type': 'application/json' } : {}, body);

    expect(api.requests).toHaveLength(1);
    const forwarded = api.requests[0]!;
    expect(forwarded.method).toBe(method);
    expect(forwarded.url).toBe('/prod/approvals/apr-1?status=pending&service=check%20out&tag=a&tag=b');
    expect(forwarded.body.toString('utf8')).toBe(body ?? '');
    if (body) expect(forwarded.headers['content-type']).toBe('application/json');

    expect(answer.status).toBe(409);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body)).toEqual({ error: 'already decided', echo: { method, url: '/prod/approvals/apr-1?status=pending&service=check%20out&tag=a&tag=b' } });
  });

  it('answers an empty 204 and a 404 from the API as they are', async () => {
    api.answer((_, response) => response.writeHead(204).end());
    expect(await send(consoleServer.url, 'POST', '/investigations/inv-1/cancel')).toMatchObject({ status: 204, body: '' });
    api.answer((_, response) => response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no investigation inv-2","issues":[]}'));
    expect(await send(consoleServer.url, 'GET', '/investigations/inv-2')).toMatchObject({ status: 404, body: '{"error":"no investigation inv-2","issues":[]}' });
  });

  it('serves the web app itself and forwards every other path, /events included', async () => {
    const page = await send(consoleServer.url, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>console</title>');
    expect((await send(consoleServer.url, 'GET', '/console/app.js')).body).toBe('export {}');
    expect(api.requests).toHaveLength(0);

    await send(consoleServer.url, 'POST', '/events', { 'content-type': 'application/json' }, '{"detail-type":"CloudWatch Alarm State Change"}');
    await send(consoleServer.url, 'GET', '/investigations?limit=5');
    expect(api.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['POST /prod/events', 'GET /prod/investigations?limit=5']);
  });

  it('forwards neither the browser\'s cookies, authorization nor hop-by-hop headers, and returns only the content type', async () => {
    api.answer((_, response) =>
      response.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'session=upstream', 'x-amzn-requestid': 'req-1', 'www-authenticate': 'Basic' }).end('{}'),
    );
    const answer = await send(
      consoleServer.url,
      'POST',
      '/investigations',
      {
        'content-type': 'application/json',
        accept: 'application/json',
        cookie: 'session=browser-secret',
        authorization: 'Bearer browser-token',
        connection: 'keep-alive, x-private',
        'keep-alive': 'timeout=5',
        'proxy-authorization': 'Basic cHJveHk=',
        te: 'trailers',
        upgrade: 'websocket',
        'x-private': 'hop',
        'x-forwarded-for': '10.0.0.1',
      },
      '{"question":"why?"}',
    );
    const forwarded = api.requests[0]!;
    expect(forwarded.headers.accept).toBe('application/json');
    for (const name of ['cookie', 'authorization', 'keep-alive', 'proxy-authorization', 'te', 'upgrade', 'x-private', 'x-forwarded-for', 'x-amz-date']) {
      expect(forwarded.headers, name).not.toHaveProperty(name);
    }
    expect(forwarded.headers.connection ?? 'keep-alive').toBe('keep-alive');
    expect(answer.status).toBe(200);
    for (const name of ['set-cookie', 'x-amzn-requestid', 'www-authenticate']) expect(answer.headers, name).not.toHaveProperty(name);
  });

  it(`refuses a body over ${MAX_BODY_BYTES} bytes with 413 and forwards nothing`, async () => {
    const answer = await send(consoleServer.url, 'POST', '/events', { 'content-type': 'application/json' }, Buffer.alloc(MAX_BODY_BYTES + 1, 'a'));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'the request body is too large', issues: [{ path: 'body' }] });
    expect(api.requests).toHaveLength(0);
  });

  it('refuses other web pages: a foreign Host (DNS rebinding), a foreign Origin or a cross-site fetch, before forwarding anything', async () => {
    const port = new URL(consoleServer.url).port;
    const refused: Record<string, string>[] = [
      { host: `attacker.example:${port}` },
      { host: `127.0.0.1:${port}`, origin: 'https://attacker.example', 'content-type': 'application/json' },
      { host: `127.0.0.1:${port}`, origin: 'http://localhost:3000' },
      { host: `127.0.0.1:${port}`, 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of refused) {
      const answer = await send(consoleServer.url, 'POST', '/approvals/apr-1', headers, '{"decision":"approve"}');
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(answer.body).issues[0].path, JSON.stringify(headers)).toMatch(/^header\./);
    }
    expect(await send(consoleServer.url, 'GET', '/', { host: `evil.example:${port}` })).toMatchObject({ status: 403 });
    expect(api.requests).toHaveLength(0);

    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const answer = await send(consoleServer.url, 'POST', '/approvals/apr-1', { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, '{}');
      expect(answer.status, host).toBe(200);
    }
    expect(api.requests).toHaveLength(2);
  });

  it('logs one line per request: method, path, status and time, without the query or the body', async () => {
    await send(consoleServer.url, 'POST', '/investigations?token=do-not-log', { 'content-type': 'application/json' }, '{"question":"secret question"}');
    await send(consoleServer.url, 'GET', '/');
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/^POST \/investigations 200 \d+ms$/);
    expect(logged[1]).toMatch(/^GET \/ 200 \d+ms$/);
  });

  it('forwards unsigned to a local API', async () => {
    await send(consoleServer.url, 'GET', '/investigations');
    for (const name of ['authorization', 'x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256']) expect(api.requests[0]!.headers, name).not.toHaveProperty(name);
  });
});

describe('sre-agent console: requests signed for API Gateway', () => {
  let api: Awaited<ReturnType<typeof fakeApi>>;
  const started: ConsoleServer[] = [];
  const region = 'eu-west-1';

  const signingConsole = async (credentials: CredentialsProvider) => {
    const server = await startConsoleServer({ assets: assets(), api: new URL(`${api.url}/prod`), signing: { region, credentials }, port: 0 });
    started.push(server);
    return server;
  };

  beforeAll(async () => {
    api = await fakeApi();
  });
  afterAll(async () => {
    await Promise.all(started.map((server) => server.close()));
    await api.close();
  });
  afterEach(() => {
    api.requests.length = 0;
  });

  it('signs each request with the caller\'s credentials (SigV4, execute-api) so that the signature verifies on the request as received', async () => {
    const server = await signingConsole(staticCredentials(sessionCredentials));
    const body = JSON.stringify({ decision: 'approve', comment: 'restart it' });
    await send(server.url, 'POST', '/approvals/apr-1?b=2&a=1&a=0&name=o%27brien%20(x)', { 'content-type': 'application/json', cookie: 'session=x' }, body);
    await send(server.url, 'GET', '/investigations/inv%2F1/transcript?limit=50');

    expect(api.requests).toHaveLength(2);
    for (const recorded of api.requests) {
      const authorization = String(recorded.headers.authorization);
      expect(authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/eu-west-1\/execute-api\/aws4_request, SignedHeaders=[^,]*host[^,]*, Signature=[0-9a-f]{64}$/);
      const amzDate = String(recorded.headers['x-amz-date']);
      expect(amzDate).toMatch(AMZ_DATE);
      expect(authorization).toContain(`Credential=AKID/${amzDate.slice(0, 8)}/`);
      expect(recorded.headers['x-amz-security-token']).toBe('test-session-token');
      expect(authorization).toContain('x-amz-security-token');
      expect(recorded.headers['x-amz-content-sha256']).toBe(createHash('sha256').update(recorded.body).digest('hex'));
      expect(recorded.headers).not.toHaveProperty('cookie');
      expect(await recomputedAuthorization(recorded, region, sessionCredentials)).toBe(authorization);
    }
    expect(api.requests[0]!.body.toString('utf8')).toBe(body);
    expect(api.requests[1]!.url).toBe('/prod/investigations/inv%2F1/transcript?limit=50');
  });

  it('the verification fails for a different body, key or region (so the check above can fail)', async () => {
    const server = await signingConsole(staticCredentials(sessionCredentials));
    await send(server.url, 'POST', '/approvals/apr-1', { 'content-type': 'application/json' }, '{"decision":"approve"}');
    const recorded = api.requests[0]!;
    const authorization = String(recorded.headers.authorization);
    expect(await recomputedAuthorization(recorded, region, sessionCredentials)).toBe(authorization);
    expect(await recomputedAuthorization(recorded, region, sessionCredentials, Buffer.from('{"decision":"reject"}'))).not.toBe(authorization);
    expect(await recomputedAuthorization(recorded, region, { ...sessionCredentials, secretAccessKey: 'other' })).not.toBe(authorization);
    expect(await recomputedAuthorization(recorded, 'us-east-1', sessionCredentials)).not.toBe(authorization);
  });

  it('long-lived credentials (no session token) send no x-amz-security-token', async () => {
    const server = await signingConsole(staticCredentials({ accessKeyId: 'AKID', secretAccessKey: 'test-secret-key' }));
    await send(server.url, 'GET', '/investigations?status=running');
    const recorded = api.requests[0]!;
    expect(recorded.headers).not.toHaveProperty('x-amz-security-token');
    expect(String(recorded.headers.authorization)).not.toContain('x-amz-security-token');
    expect(await recomputedAuthorization(recorded, region, { accessKeyId: 'AKID', secretAccessKey: 'test-secret-key' })).toBe(recorded.headers.authorization);
  });

  it('missing credentials are a 502 saying how to sign in, and nothing is sent', async () => {
    const server = await signingConsole(async () => {
      throw new Error('Could not load credentials from any providers');
    });
    const answer = await send(server.url, 'GET', '/investigations');
    expect(answer.status).toBe(502);
    const problem = JSON.parse(answer.body) as { error: string; issues: { path: string; message: string }[] };
    expect(problem.error).toContain('no AWS credentials');
    expect(problem.issues[0]!.message).toMatch(/Could not load credentials.*aws sso login/);
    expect(api.requests).toHaveLength(0);
  });
});

describe('sre-agent console: an API that does not answer', () => {
  it('an unreachable API is a 502 naming the URL and how to start it', async () => {
    const closed = await fakeApi();
    await closed.close();
    const server = await startConsoleServer({ assets: assets(), api: new URL(closed.url), port: 0 });
    try {
      const answer = await send(server.url, 'GET', '/investigations');
      expect(answer.status).toBe(502);
      expect(answer.headers['content-type']).toContain('application/json');
      const problem = JSON.parse(answer.body) as { error: string; issues: { path: string; message: string }[] };
      expect(problem.error).toBe(`the API at ${closed.url}/ is unreachable (ECONNREFUSED)`);
      expect(problem.issues).toEqual([{ path: 'api', message: expect.stringContaining(`sre-agent serve --scenario <fileOrId> --port ${new URL(closed.url).port}`) }]);
    } finally {
      await server.close();
    }
  });

  it('an API slower than the timeout is a 504', async () => {
    const slow = await fakeApi();
    slow.answer(() => undefined);
    const server = await startConsoleServer({ assets: assets(), api: new URL(slow.url), timeoutMs: 200, port: 0 });
    try {
      const answer = await send(server.url, 'POST', '/investigations', { 'content-type': 'application/json' }, '{"question":"why?"}');
      expect(answer.status).toBe(504);
      expect(JSON.parse(answer.body)).toMatchObject({ error: `the API at ${slow.url}/ did not answer within 0.2 s`, issues: [{ path: 'api' }] });
      expect(slow.requests).toHaveLength(1);
    } finally {
      await server.close();
      await slow.close();
    }
  });

  it('a port in use is reported with how to choose another', async () => {
    const first = await startConsoleServer({ assets: assets(), api: new URL('http://127.0.0.1:8787'), port: 0 });
    try {
      const port = Number(new URL(first.url).port);
      await expect(startConsoleServer({ assets: assets(), api: new URL('http://127.0.0.1:8787'), port })).rejects.toThrow(`port ${port} on 127.0.0.1 is in use: pass --port <n>`);
    } finally {
      await first.close();
    }
  });
});

describe('sre-agent console: which API, signed or not', () => {
  it.each([
    ['https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/prod/', undefined, 'eu-west-1'],
    ['https://a1b2c3d4e5-vpce-0123456789abcdef0.execute-api.ap-southeast-2.amazonaws.com/prod', undefined, 'ap-southeast-2'],
    ['https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/prod', 'eu-central-1', 'eu-central-1'],
    ['https://sre.internal.example.com/', 'us-east-1', 'us-east-1'],
    ['http://127.0.0.1:8787', undefined, undefined],
    ['http://localhost:9000/', undefined, undefined],
  ])('%s with --region %s signs for %s', (url, region, signingRegion) => {
    const target = apiTarget(new URL(url), region);
    expect(target.signingRegion).toBe(signingRegion);
    expect(target.url.href).toBe(new URL(url).href);
  });

  it.each([
    ['http://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/prod', undefined, /use https/],
    ['https://sre.internal.example.com/', undefined, /add --region <region>/],
    ['http://sre.internal.example.com/', 'us-east-1', /use https/],
    ['http://127.0.0.1:8787', 'eu-west-1', /drop --region/],
  ])('%s with --region %s is refused', (url, region, message) => {
    expect(() => apiTarget(new URL(url), region)).toThrow(ApiTargetError);
    expect(() => apiTarget(new URL(url), region)).toThrow(message);
  });
});
