import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { loadMasker } from '../workflow/privacy.ts';
import { alarmView } from './alarm-view.ts';
import { investigationId, transcriptQuery } from './investigations-routes.ts';
import type { ApiPorts } from './ports.ts';
import { problem } from './problem.ts';
import { validateParam, validateQuery } from './validate.ts';

const emptyQuery = z.strictObject({});

/**
 * Read-only views the console needs beyond the investigation and its transcript:
 * - `GET /investigations/{id}/alarm`: the alarm that started it (threshold, onset, metric), for the chart;
 * - `GET /investigations/{id}/transcript/unmasked`: the transcript with each placeholder the model saw
 *   resolved through the investigation's mask map (redacted secrets were never stored and stay redacted).
 */
export const consoleRoutes = (ports: Pick<ApiPorts, 'store'>): Hono => {
  const routes = new Hono();
  const { store } = ports;

  const known = async (c: Context) => {
    const id = validateParam(investigationId, c.req.param('id'), 'id');
    if (!id.ok) return { response: problem(c, 400, id.error, id.issues) };
    const head = await store.get(id.value);
    if (!head) return { response: problem(c, 404, `investigation ${id.value} not found`, [{ path: 'path.id', message: 'no investigation has this id' }]) };
    return { id: id.value };
  };

  routes.get('/:id/alarm', async (c) => {
    const query = validateQuery(emptyQuery, c);
    if (!query.ok) return problem(c, 400, query.error, query.issues);
    const found = await known(c);
    if ('response' in found) return found.response;
    const trigger = await store.getTrigger(found.id);
    return c.json({ alarm: trigger ? alarmView(trigger) : null });
  });

  routes.get('/:id/transcript/unmasked', async (c) => {
    const query = validateQuery(transcriptQuery, c);
    if (!query.ok) return problem(c, 400, query.error, query.issues);
    const found = await known(c);
    if ('response' in found) return found.response;
    const after = query.value.cursor === undefined ? 0 : Number(query.value.cursor);
    const events = await store.events(found.id);
    const page = events.filter((event) => event.seq > after).slice(0, query.value.limit);
    const last = page.at(-1);
    const more = last !== undefined && events.some((event) => event.seq > last.seq);
    const masker = await loadMasker(store, found.id);
    return c.json({ events: masker.unmaskJson(page), ...(more ? { nextCursor: String(last.seq) } : {}) });
  });

  return routes;
};
