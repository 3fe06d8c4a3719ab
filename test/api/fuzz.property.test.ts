import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Hono } from 'hono';
import { createApp } from '../../lib/api/app.ts';
import { DynamoDbApprovalStore } from '../../lib/store/dynamodb-approval-store.ts';
import { signPagerDutyBody } from '../../lib/triggers/pagerduty-signature.ts';
import { apiOnFreshTable, samples, WEBHOOK_SECRET, type RecordingStarter } from './support.ts';

const RUNS = 1000;

interface Rejection {
  status: number;
  error: string;
  paths: string[];
}

/** A 4xx with `{error, issues}` whose every issue says where and what; never a 5xx. */
const rejection = async (response: Response): Promise<Rejection> => {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  const body = (await response.json()) as { error: unknown; issues: { path: unknown; message: unknown }[] };
  expect(typeof body.error).toBe('string');
  expect(body.issues.length).toBeGreaterThan(0);
  for (const issue of body.issues) {
    expect(issue.path).toMatch(/^(body|query|path|header)\b/);
    expect(typeof issue.message === 'string' && issue.message.length > 0).toBe(true);
  }
  return { status: response.status, error: body.error as string, paths: body.issues.map((issue) => issue.path as string) };
};

/** The issue names the broken field, or a field on the way to it. */
const names = (paths: string[], broken: string) => paths.some((path) => path === broken || path.startsWith(`${broken}.`) || broken.startsWith(`${path}.`));

const notJson = fc.string().filter((text) => {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
});
const wrongType = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }));
const notObject = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string(), fc.array(fc.anything(), { maxLength: 3 }));

type Mutation = { body: unknown; broken: string };

const setPath = (value: Record<string, any>, path: string[], replacement: unknown | typeof REMOVE) => {
  const copy = structuredClone(value);
  let cursor: Record<string, any> = copy;
  for (const key of path.slice(0, -1)) cursor = cursor[key];
  const last = path.at(-1)!;
  if (replacement === REMOVE) delete cursor[last];
  else cursor[last] = replacement;
  return copy;
};
const REMOVE = Symbol('remove');

/** A valid body with one field removed (required fields only) or given a wrong type. */
const brokenField = (valid: Record<string, any>, requiredPaths: string[], invalidStrings: string[], optionalPaths: string[]) =>
  fc
    .record({
      path: fc.constantFrom(...requiredPaths, ...optionalPaths),
      replacement: fc.oneof(fc.constant<typeof REMOVE>(REMOVE), wrongType, fc.constantFrom(...invalidStrings)),
    })
    .map(({ path, replacement }): Mutation => {
      const segments = path.split('.');
      const isTime = segments.some((segment) => TIME_FIELDS.has(segment));
      // Removing an optional field, or putting a string where any string goes, would leave the body valid.
      const usable =
        (replacement === REMOVE && optionalPaths.includes(path)) || (typeof replacement === 'string' && !isTime) ? 42 : replacement;
      return { body: setPath(valid, segments, usable), broken: `body.${path}` };
    });
const TIME_FIELDS = new Set(['time', 'occurred_at', 'since']);

const malformedBody = (valid: Record<string, any>, requiredPaths: string[], invalidStrings: string[], optionalPaths: string[] = []) =>
  fc.oneof(
    notJson.map((text): Mutation & { raw: true } => ({ body: text, broken: 'body', raw: true })),
    notObject.map((value): Mutation => ({ body: value, broken: 'body' })),
    brokenField(valid, requiredPaths, invalidStrings, optionalPaths),
  );

const encode = (mutation: Mutation & { raw?: true }): string => ('raw' in mutation && mutation.raw ? String(mutation.body) : JSON.stringify(mutation.body));

describe('fuzzed malformed requests on every route', () => {
  let app: Hono;
  let starter: RecordingStarter;

  beforeAll(async () => {
    ({ app, starter } = await apiOnFreshTable());
  });

  const send = (path: string, init: RequestInit = {}) => app.request(path, init);

  it('POST /investigations: malformed bodies get a 400 naming the field', async () => {
    const valid = { question: 'why is checkout slow?', service: 'checkout', since: '2026-04-06T04:00:00Z' };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          malformedBody(valid, ['question'], ['not a time', ''], ['service', 'since']),
          fc.string({ minLength: 1, maxLength: 10 }).filter((key) => !(key in valid) && key !== '__proto__').map((key): Mutation => ({ body: { ...valid, [key]: 1 }, broken: 'body' })),
        ),
        async (mutation) => {
          const response = await send('/investigations', { method: 'POST', body: encode(mutation), headers: { 'content-type': 'application/json' } });
          const { paths } = await rejection(response);
          expect(names(paths, mutation.broken)).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
    expect(starter.started).toHaveLength(0);
  });

  it('GET /investigations: malformed queries get a 400 naming the parameter', async () => {
    const badQuery = fc.oneof(
      fc.string().filter((value) => !['queued', 'running', 'succeeded', 'failed', 'cancelled'].includes(value)).map((value) => ({ query: `status=${encodeURIComponent(value)}`, broken: 'query.status' })),
      fc.oneof(fc.integer({ min: -1000, max: 0 }).map(String), fc.integer({ min: 101, max: 100_000 }).map(String), fc.string().filter((value) => !/^\d+$/.test(value)))
        .map((value) => ({ query: `limit=${encodeURIComponent(value)}`, broken: 'query.limit' })),
      fc.string({ minLength: 1, maxLength: 8 }).filter((key) => !['status', 'service', 'limit', 'cursor'].includes(key)).map((key) => ({ query: `${encodeURIComponent(key)}=1`, broken: 'query' })),
      fc.constantFrom('status', 'service', 'limit', 'cursor').map((key) => ({ query: `${key}=a&${key}=b`, broken: `query.${key}` })),
      fc.constant({ query: 'service=', broken: 'query.service' }),
      fc.string({ minLength: 1, maxLength: 40 }).map((value) => ({ query: `cursor=${encodeURIComponent(value)}`, broken: 'query.cursor' })),
    );
    await fc.assert(
      fc.asyncProperty(badQuery, async ({ query, broken }) => {
        const { paths } = await rejection(await send(`/investigations?${query}`));
        expect(names(paths, broken)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it.each([
    ['GET', ''],
    ['GET', '/transcript'],
    ['POST', '/cancel'],
  ])('%s /investigations/{id}%s: bad or unknown ids get a 400 or 404 naming the id', async (method, suffix) => {
    const id = fc.oneof(
      fc.string({ minLength: 1, maxLength: 120 }),
      fc.stringMatching(/^[A-Za-z0-9._-]{1,100}$/),
    );
    await fc.assert(
      fc.asyncProperty(id, async (raw) => {
        const response = await send(`/investigations/${encodeURIComponent(raw)}${suffix}`, { method });
        const { status, paths } = await rejection(response);
        expect([400, 404]).toContain(status);
        expect(paths.some((path) => path === 'path.id' || path === 'path')).toBe(true);
      }),
      { numRuns: RUNS },
    );
    expect(starter.stopped).toHaveLength(0);
  });

  it('GET /investigations/{id}/transcript: malformed paging gets a 400 naming the parameter', async () => {
    const badQuery = fc.oneof(
      fc.string().filter((value) => !/^\d{1,9}$/.test(value)).map((value) => ({ query: `cursor=${encodeURIComponent(value)}`, broken: 'query.cursor' })),
      fc.oneof(fc.integer({ min: 501, max: 9999 }).map(String), fc.constant('0'), fc.string().filter((value) => !/^\d+$/.test(value))).map((value) => ({ query: `limit=${encodeURIComponent(value)}`, broken: 'query.limit' })),
      fc.string({ minLength: 1, maxLength: 8 }).filter((key) => !['cursor', 'limit'].includes(key)).map((key) => ({ query: `${encodeURIComponent(key)}=x`, broken: 'query' })),
    );
    await fc.assert(
      fc.asyncProperty(badQuery, async ({ query, broken }) => {
        const { paths } = await rejection(await send(`/investigations/inv-1/transcript?${query}`));
        expect(names(paths, broken)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('POST /events: malformed alarm events get a 400 naming the field', async () => {
    const valid = samples.singleMetricAlarm();
    const required = ['id', 'detail-type', 'source', 'account', 'time', 'region', 'detail', 'detail.alarmName', 'detail.state', 'detail.state.value'];
    await fc.assert(
      fc.asyncProperty(malformedBody(valid, required, ['yesterday', 'not a time']), async (mutation) => {
        const response = await send('/events', { method: 'POST', body: encode(mutation), headers: { 'content-type': 'application/json' } });
        const { paths } = await rejection(response);
        expect(names(paths, mutation.broken)).toBe(true);
      }),
      { numRuns: RUNS },
    );
    expect(starter.started).toHaveLength(0);
  });

  it('POST /webhooks/pagerduty: signed malformed bodies get a 400 naming the field; unsigned ones a 401', async () => {
    const valid = samples.incidentTriggered();
    const required = ['event', 'event.id', 'event.event_type', 'event.resource_type', 'event.occurred_at', 'event.data'];
    await fc.assert(
      fc.asyncProperty(malformedBody(valid, required, ['soon', 'not a time']), fc.boolean(), async (mutation, signed) => {
        const raw = encode(mutation);
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (signed) headers['x-pagerduty-signature'] = signPagerDutyBody(raw, WEBHOOK_SECRET);
        const { status, paths } = await rejection(await send('/webhooks/pagerduty', { method: 'POST', body: raw, headers }));
        if (signed) {
          expect(status).toBe(400);
          expect(names(paths, mutation.broken)).toBe(true);
        } else {
          expect(status).toBe(401);
          expect(paths).toEqual(['header.x-pagerduty-signature']);
        }
      }),
      { numRuns: RUNS },
    );
    expect(starter.started).toHaveLength(0);
  });

  describe('the approval routes', () => {
    let approvalsApp: Hono;
    const callbacks: string[] = [];

    beforeAll(async () => {
      const { ports, client, tableName } = await apiOnFreshTable();
      approvalsApp = createApp({
        ...ports,
        approvalRoutes: {
          approvals: new DynamoDbApprovalStore({ client, tableName }),
          callbacks: { succeed: async () => void callbacks.push('success'), fail: async () => void callbacks.push('failure') },
          callerIdentity: () => 'arn:aws:iam::123456789012:role/oncall',
        },
      });
    });

    it('GET /approvals: malformed queries get a 400 naming the parameter', async () => {
      const badQuery = fc.oneof(
        fc.string().filter((value) => !['pending', 'approved', 'rejected', 'expired'].includes(value)).map((value) => ({ query: `status=${encodeURIComponent(value)}`, broken: 'query.status' })),
        fc.oneof(fc.integer({ min: -1000, max: 0 }).map(String), fc.integer({ min: 101, max: 100_000 }).map(String), fc.string().filter((value) => !(Number.isInteger(Number(value)) && Number(value) >= 1 && Number(value) <= 100)))
          .map((value) => ({ query: `limit=${encodeURIComponent(value)}`, broken: 'query.limit' })),
        fc.constantFrom('status', 'limit').map((key) => ({ query: `${key}=a&${key}=b`, broken: `query.${key}` })),
      );
      await fc.assert(
        fc.asyncProperty(badQuery, async ({ query, broken }) => {
          const { status, paths } = await rejection(await approvalsApp.request(`/approvals?${query}`));
          expect(status).toBe(400);
          expect(names(paths, broken)).toBe(true);
        }),
        { numRuns: RUNS },
      );
    });

    it('POST /approvals/{id}: malformed decisions get a 400 naming the field, and decide nothing', async () => {
      const valid = { decision: 'approve', comment: 'looks right' };
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            malformedBody(valid, ['decision'], ['maybe', 'APPROVE'], ['comment']),
            fc.string({ minLength: 1, maxLength: 10 }).filter((key) => !(key in valid) && key !== '__proto__').map((key): Mutation => ({ body: { ...valid, [key]: 1 }, broken: 'body' })),
          ),
          fc.stringMatching(/^[A-Za-z0-9-]{1,40}$/),
          async (mutation, id) => {
            const response = await approvalsApp.request(`/approvals/${id}`, { method: 'POST', body: encode(mutation), headers: { 'content-type': 'application/json' } });
            const { status, paths } = await rejection(response);
            expect(status).toBe(400);
            expect(names(paths, mutation.broken)).toBe(true);
          },
        ),
        { numRuns: RUNS },
      );
      expect(callbacks).toEqual([]);
    });
  });

  it('unknown routes and methods answer 404 JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.webPath(), fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), async (path, method) => {
        fc.pre(!/^\/(investigations|events|webhooks\/pagerduty)(\/|$|\?)/.test(path));
        const response = await send(path.startsWith('/') ? path : `/${path}`, { method });
        const { status } = await rejection(response);
        expect(status).toBe(404);
      }),
      { numRuns: RUNS },
    );
    expect(starter.started).toHaveLength(0);
  });
});
