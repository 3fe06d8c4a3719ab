import { Hono } from 'hono';
import { z } from 'zod';
import { isoTimestamp } from '../domain/time.ts';
import type { TranscriptEvent } from '../domain/transcript.ts';
import { admitTrigger } from '../triggers/admit.ts';
import { cancelInvestigation } from './cancel-investigation.ts';
import { investigationView, type InvestigationView } from './investigation-view.ts';
import type { ApiPorts } from './ports.ts';
import { problem } from './problem.ts';
import { validateJson, validateParam, validateQuery } from './validate.ts';

export const investigationId = z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'expected an investigation id: 1-100 letters, digits, dots, dashes or underscores');

const serviceName = z.string().min(1).max(200);

const newQuestion = z.strictObject({
  question: z.string().trim().min(1, 'ask a question').max(4000),
  service: serviceName.optional(),
  since: isoTimestamp.optional(),
});

const listStatus = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
const pageLimit = (max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d{1,4}$/, `expected a whole number from 1 to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `expected a whole number from 1 to ${max}`).max(max, `expected a whole number from 1 to ${max}`))
    .default(fallback);

const listQuery = z.strictObject({
  status: listStatus.optional(),
  service: serviceName.optional(),
  limit: pageLimit(100, 20),
  cursor: z.string().min(1).max(2000).optional(),
});

export const transcriptQuery = z.strictObject({
  cursor: z.string().regex(/^\d{1,9}$/, 'expected the nextCursor of the previous page').optional(),
  limit: pageLimit(500, 100),
});

const emptyQuery = z.strictObject({});

/** Pages of the index scanned per list request before answering with what matched. */
const MAX_LIST_PAGES = 20;

export const investigationsRoutes = (ports: ApiPorts): Hono => {
  const routes = new Hono();
  const { store, ledger } = ports;

  const view = async (id: string): Promise<InvestigationView | undefined> => {
    const [head, admission] = await Promise.all([store.get(id), ledger.admission(id)]);
    if (!head && !admission) return undefined;
    return investigationView(id, head, admission);
  };

  routes.post('/', async (c) => {
    const query = validateQuery(emptyQuery, c);
    if (!query.ok) return problem(c, 400, query.error, query.issues);
    const body = validateJson(newQuestion, await c.req.text());
    if (!body.ok) return problem(c, 400, body.error, body.issues);
    const { question, service, since } = body.value;
    const admitted = await admitTrigger(ports, {
      question: { text: question, ...(service === undefined ? {} : { service }), ...(since === undefined ? {} : { since }) },
    });
    return c.json({ id: admitted.investigationId, status: admitted.outcome === 'started' ? 'running' : 'queued' }, 202);
  });

  routes.get('/', async (c) => {
    const query = validateQuery(listQuery, c);
    if (!query.ok) return problem(c, 400, query.error, query.issues);
    const { status, service, limit, cursor } = query.value;
    const matches = (item: InvestigationView) => (status === undefined || item.status === status) && (service === undefined || item.service === service);
    const items: InvestigationView[] = [];
    // Queued investigations have no head yet; they are the newest, so the first page shows them first.
    if (cursor === undefined && (status === undefined || status === 'queued')) {
      const queued = await ledger.queued(100);
      for (const id of queued.reverse()) {
        const item = await view(id);
        if (item && matches(item) && items.length < limit) items.push(item);
      }
    }
    let next: string | undefined = cursor;
    for (let pages = 0; items.length < limit && pages < MAX_LIST_PAGES; pages++) {
      let page;
      try {
        page = await ledger.investigations(limit, next);
      } catch (error) {
        if (error instanceof Error && error.name === 'InvalidCursorError') {
          return problem(c, 400, 'the request query is not valid', [{ path: 'query.cursor', message: 'expected the nextCursor of a previous page' }]);
        }
        throw error;
      }
      const views = await Promise.all(page.ids.map(view));
      for (const item of views) if (item && matches(item) && items.length < limit) items.push(item);
      next = page.cursor;
      if (next === undefined) break;
    }
    return c.json({ items, ...(next === undefined ? {} : { nextCursor: next }) });
  });

  routes.get('/:id', async (c) => {
    const query = validateQuery(emptyQuery, c);
    if (!query.ok) return problem(c, 400, query.error, query.issues);
    const id = validateParam(investigationId, c.req.param('id'), 'id');
    if (!id.ok) return problem(c, 400, id.error, id.issues);
    const item = await view(id.value);
    if (!item) return problem(c, 404, `investigation ${id.value} not found`, [{ path: 'path.id', message: 'no investigation has this id' }]);
    const joined = await ledger.joinedTriggers(id.value);
    return c.json({ ...item, joinedTriggers: joined.map(({ receivedAt, summary }) => ({ receivedAt, summary })) });
  });

  routes.get('/:id/transcript', async (c) => {
    const query = validateQuery(transcriptQuery, c);
    if (!query.ok) return problem(c, 400, query.error, query.issues);
    const id = validateParam(investigationId, c.req.param('id'), 'id');
    if (!id.ok) return problem(c, 400, id.error, id.issues);
    if (!(await view(id.value))) return problem(c, 404, `investigation ${id.value} not found`, [{ path: 'path.id', message: 'no investigation has this id' }]);
    const after = query.value.cursor === undefined ? 0 : Number(query.value.cursor);
    const events: TranscriptEvent[] = await store.events(id.value);
    const page = events.filter((event) => event.seq > after).slice(0, query.value.limit);
    const last = page.at(-1);
    const more = last !== undefined && events.some((event) => event.seq > last.seq);
    return c.json({ events: page, ...(more ? { nextCursor: String(last.seq) } : {}) });
  });

  routes.post('/:id/cancel', async (c) => {
    const query = validateQuery(emptyQuery, c);
    if (!query.ok) return problem(c, 400, query.error, query.issues);
    const id = validateParam(investigationId, c.req.param('id'), 'id');
    if (!id.ok) return problem(c, 400, id.error, id.issues);
    const result = await cancelInvestigation(ports, id.value);
    if (result.outcome === 'not-found') return problem(c, 404, `investigation ${id.value} not found`, [{ path: 'path.id', message: 'no investigation has this id' }]);
    if (result.outcome === 'already-ended') {
      return problem(c, 409, `investigation ${id.value} already ended as ${result.status}`, [{ path: 'path.id', message: 'only a queued or running investigation can be cancelled' }]);
    }
    return c.json({ id: id.value, status: 'cancelled' }, 202);
  });

  return routes;
};
