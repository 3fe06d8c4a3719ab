/// <reference lib="dom" />
import { errorText, getJson } from '../api.ts';
import { el, keepingFocus } from '../dom.ts';
import { formatAge, formatConfidence, formatCost } from '../format.ts';
import type { InvestigationPage, InvestigationView } from '../types.ts';
import { investigationHref, poll, type Route, type View } from '../view.ts';

const STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
const REFRESH_MS = 3000;

const verdictOf = (item: InvestigationView): string => {
  if (!item.finding) return item.status === 'running' || item.status === 'queued' ? 'not yet' : 'none';
  const verdict = item.finding.incomplete ? 'incomplete' : item.finding.incident ? 'incident' : 'no incident';
  return `${verdict}: ${item.finding.rootCause.service} (${item.finding.rootCause.category})`;
};

export const statusBadge = (status: string): HTMLElement => el('span', { class: `status status-${status}` }, status);

const row = (item: InvestigationView, now: number): HTMLTableRowElement =>
  el(
    'tr',
    {},
    el('td', {}, statusBadge(item.status)),
    el('th', { scope: 'row' }, el('a', { href: investigationHref(item.id) }, item.triggerSummary ?? `${item.triggerKind ?? 'trigger'} ${item.id}`)),
    el('td', {}, item.service ?? 'none'),
    el('td', {}, verdictOf(item)),
    el('td', { class: 'number' }, item.finding ? formatConfidence(item.finding.confidence) : '–'),
    el('td', { class: 'number' }, item.usage ? formatCost(item.usage.costUsd) : '–'),
    el('td', {}, el('time', { datetime: item.createdAt }, formatAge(item.createdAt, now))),
  );

/** The investigations, newest first, filtered by status and service; refreshed every few seconds. */
export const investigationsList = (main: HTMLElement, route: Extract<Route, { name: 'investigations' }>): View => {
  const status = el('select', { id: 'filter-status', name: 'status' }, el('option', { value: '' }, 'any'), ...STATUSES.map((value) => el('option', { value, selected: value === route.status }, value)));
  const service = el('input', { id: 'filter-service', name: 'service', type: 'text', value: route.service ?? '', list: 'known-services', autocomplete: 'off' });
  const known = el('datalist', { id: 'known-services' });
  const form = el(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter investigations' },
    el('label', { for: status.id }, 'Status'),
    status,
    el('label', { for: service.id }, 'Service'),
    service,
    known,
    el('button', { type: 'submit' }, 'Filter'),
  );
  const body = el('tbody');
  const caption = el('caption', {}, 'Loading investigations…');
  const problem = el('p', { class: 'message', role: 'alert' });
  main.replaceChildren(
    el('h1', { tabindex: -1 }, 'Investigations'),
    form,
    problem,
    el(
      'table',
      { class: 'investigations' },
      caption,
      el('thead', {}, el('tr', {}, ...['Status', 'Trigger', 'Service', 'Verdict', 'Confidence', 'Cost', 'Age'].map((name) => el('th', { scope: 'col' }, name)))),
      body,
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const query = new URLSearchParams();
    if (status.value) query.set('status', status.value);
    if (service.value.trim()) query.set('service', service.value.trim());
    const search = query.toString();
    location.hash = search === '' ? '#/' : `#/?${search}`;
  });
  status.addEventListener('change', () => form.requestSubmit());

  let shown = '';
  const services = new Set<string>();
  const stop = poll(REFRESH_MS, async () => {
    const query = new URLSearchParams({ limit: '50' });
    if (route.status) query.set('status', route.status);
    if (route.service) query.set('service', route.service);
    try {
      const page = await getJson<InvestigationPage>(`/investigations?${query}`);
      problem.textContent = '';
      const now = Date.now();
      body.querySelectorAll('time').forEach((time) => (time.textContent = formatAge(time.dateTime, now)));
      // Rows are rebuilt only when an investigation changed, keeping keyboard focus where it was.
      const key = JSON.stringify(page.items.map((item) => [item.id, item.status, item.updatedAt]));
      if (key === shown) return;
      shown = key;
      keepingFocus(body, () =>
        body.replaceChildren(...(page.items.length === 0 ? [el('tr', {}, el('td', { colspan: 7 }, 'No investigations match.'))] : page.items.map((item) => row(item, now)))),
      );
      const running = page.items.filter((item) => item.status === 'running' || item.status === 'queued').length;
      caption.textContent = `${page.items.length} investigation${page.items.length === 1 ? '' : 's'}${running > 0 ? `, ${running} running or queued` : ''}${page.nextCursor ? ' (newest 50 shown)' : ''}`;
      for (const item of page.items) if (item.service && !services.has(item.service)) known.append(el('option', { value: item.service }));
      for (const item of page.items) if (item.service) services.add(item.service);
    } catch (error) {
      problem.textContent = `Could not load the investigations: ${errorText(error)}`;
      throw error;
    }
  });
  return { dispose: stop };
};
