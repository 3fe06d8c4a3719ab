/// <reference lib="dom" />
import { errorText, getJson } from '../api.ts';
import { chartCaption, metricChart } from '../chart.ts';
import { chartData, type ChartData } from '../chart-data.ts';
import { el, facts, keepingFocus } from '../dom.ts';
import { evidenceEvents } from '../evidence.ts';
import { formatConfidence, formatCost, formatTime } from '../format.ts';
import { renderMarkdown } from '../markdown.ts';
import { timelineOf } from '../timeline.ts';
import type { AlarmView, ApprovalView, InvestigationDetail, TranscriptEvent, TranscriptPage } from '../types.ts';
import { investigationHref, poll, type Route, type View } from '../view.ts';
import { approvalCards } from './approvals.ts';
import { statusBadge } from './investigations-list.ts';
import { eventElementId, transcriptList } from './transcript.ts';

const REFRESH_MS = 2000;
const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

type Values = 'masked' | 'unmasked';

/** The transcript as stored (what the model saw) or with its placeholders resolved; fetched from the last event seen. */
const transcriptReader = (id: string, values: Values) => {
  const events: TranscriptEvent[] = [];
  const path = `/investigations/${encodeURIComponent(id)}/transcript${values === 'unmasked' ? '/unmasked' : ''}`;
  return {
    events,
    async refresh(): Promise<boolean> {
      const before = events.length;
      for (;;) {
        const cursor = events.at(-1)?.seq;
        const page = await getJson<TranscriptPage>(`${path}?limit=500${cursor === undefined ? '' : `&cursor=${cursor}`}`);
        events.push(...page.events);
        if (!page.nextCursor) break;
      }
      return events.length !== before;
    },
  };
};

/** Evidence refs (`E3`) in report text become links to the event that holds them. */
const linkRefs = (id: string, refs: Map<string, number>) => (text: string): (Node | string)[] =>
  text.split(/\b(E\d+)\b/).map((part, index) => {
    const seq = index % 2 === 1 ? refs.get(part) : undefined;
    return seq === undefined ? part : el('a', { href: investigationHref(id, seq), class: 'ref' }, part);
  });

const section = (id: string, title: string, ...children: Node[]): HTMLElement => el('section', { 'aria-labelledby': id }, el('h2', { id }, title), ...children);

/**
 * One investigation: its facts, approvals waiting for a decision, the alarm's metric, the timeline,
 * the report and the transcript. Refreshed while it runs; `/events/{seq}` in the route focuses an event.
 */
export const investigationPage = (main: HTMLElement, route: Extract<Route, { name: 'investigation' }>): View => {
  const { id } = route;
  let target = route.seq;
  let values: Values = 'masked';
  const readers: Record<Values, ReturnType<typeof transcriptReader>> = { masked: transcriptReader(id, 'masked'), unmasked: transcriptReader(id, 'unmasked') };
  let detail: InvestigationDetail | undefined;
  let alarm: AlarmView | null | undefined;
  let shownChart = '';
  let disposeChart = () => {};

  const heading = el('h1', { tabindex: -1 }, `Investigation ${id}`);
  const summary = el('div');
  const announcer = el('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
  const problem = el('p', { class: 'message', role: 'alert' });
  const approvalsList = el('div', { class: 'approvals' });
  const approvalsNote = el('p', { class: 'message', role: 'status' });
  const approvalsSection = section('approvals-heading', 'Approvals waiting for a decision', approvalsNote, approvalsList);
  const chartNote = el('p', { class: 'message', role: 'status' });
  approvalsSection.hidden = true;
  const chartBox = el('div', {}, el('p', {}, 'Loading…'));
  const timelineBox = el('div', {}, el('p', {}, 'Loading…'));
  const reportBox = el('div', { class: 'report' }, el('p', {}, 'Loading…'));
  const transcriptBox = el('div', {}, el('p', {}, 'Loading…'));
  const masked = el('input', { type: 'radio', name: 'values', id: 'values-masked', value: 'masked', checked: true });
  const unmasked = el('input', { type: 'radio', name: 'values', id: 'values-unmasked', value: 'unmasked' });
  const toggle = el(
    'fieldset',
    { class: 'toggle' },
    el('legend', {}, 'Values in the timeline, chart and transcript'),
    el('label', { for: masked.id }, masked, ' As the model saw them (masked)'),
    el('label', { for: unmasked.id }, unmasked, ' Unmasked (placeholders resolved; redacted secrets were never stored)'),
  );
  main.replaceChildren(
    el('p', { class: 'breadcrumb' }, el('a', { href: '#/' }, 'Investigations'), ' / ', id),
    heading,
    summary,
    announcer,
    problem,
    approvalsSection,
    toggle,
    section('chart-heading', 'Alarm metric', chartNote, chartBox),
    section('timeline-heading', 'Timeline', timelineBox),
    section('report-heading', 'Report', reportBox),
    section('transcript-heading', 'Transcript', transcriptBox),
  );

  const eventLink = (seq: number, label: string): Node => el('a', { href: investigationHref(id, seq) }, label);

  const focusTarget = () => {
    if (target === undefined) return;
    const element = document.getElementById(eventElementId(target));
    if (!element) return;
    document.querySelectorAll('.event.targeted').forEach((other) => other.classList.remove('targeted'));
    element.classList.add('targeted');
    element.closest('details')?.setAttribute('open', '');
    element.scrollIntoView({ block: 'start' });
    element.focus({ preventScroll: true });
    target = undefined;
  };

  const showSummary = (item: InvestigationDetail) => {
    heading.textContent = item.triggerSummary ?? `Investigation ${id}`;
    const finding = item.finding;
    summary.replaceChildren(
      facts([
        ['Status', statusBadge(item.status)],
        ['Trigger', `${item.triggerKind ?? 'unknown'}${item.triggerCount > 1 ? ` (${item.triggerCount} triggers joined)` : ''}`],
        ['Service', item.service ?? 'none'],
        ['Verdict', finding ? `${finding.incomplete ? 'incomplete' : finding.incident ? 'incident' : 'no incident'}: ${finding.rootCause.service} (${finding.rootCause.category})` : 'not yet'],
        ['Confidence', finding ? formatConfidence(finding.confidence) : 'not yet'],
        ['Cost', item.usage ? `${formatCost(item.usage.costUsd)} (${item.usage.modelCalls} model calls, ${item.usage.toolCalls} tool calls)` : 'none yet'],
        ['Started', formatTime(item.createdAt)],
        ['Updated', formatTime(item.updatedAt)],
        ...(item.error ? ([['Error', item.error]] as [string, string][]) : []),
      ]),
    );
  };

  const showChart = (events: TranscriptEvent[], data: ChartData | null) => {
    const key = JSON.stringify(data);
    if (key === shownChart) return;
    shownChart = key;
    disposeChart();
    disposeChart = () => {};
    if (!data) {
      chartBox.replaceChildren(el('p', {}, events.length === 0 ? 'No transcript yet.' : alarm ? 'The transcript holds no datapoints of the alarm’s metric yet.' : 'No alarm started this investigation, and no metric was read for its service.'));
      return;
    }
    const chart = metricChart(data, chartCaption(data, 'chart-caption', eventLink));
    chartBox.replaceChildren(chart.figure);
    disposeChart = chart.dispose;
  };

  const showEvidence = () => keepingFocus(main, renderEvidence);

  const renderEvidence = () => {
    const events = readers[values].events;
    const data = detail ? chartData(detail, alarm ?? null, events) : null;
    showChart(events, data);
    const entries = timelineOf(events, alarm ?? null, data);
    timelineBox.replaceChildren(
      entries.length === 0
        ? el('p', {}, 'Nothing to place on the timeline yet.')
        : el(
            'ol',
            { class: 'timeline' },
            ...entries.map((entry) =>
              el('li', {}, el('time', { datetime: entry.at }, formatTime(entry.at)), ' ', el('span', { class: `kind kind-${entry.kind.replace(' ', '-')}` }, entry.kind), ' ', entry.seq === null ? entry.text : eventLink(entry.seq, entry.text)),
            ),
          ),
    );
    const refs = evidenceEvents(events);
    const finding = detail?.finding;
    if (finding) {
      reportBox.replaceChildren(
        renderMarkdown(finding.report, { topLevel: 3, renderText: linkRefs(id, refs) }),
        el('h3', {}, 'Evidence'),
        el('ul', { class: 'evidence' }, ...finding.evidence.map((item) => el('li', {}, refs.has(item.ref) ? eventLink(refs.get(item.ref)!, item.ref) : item.ref, `: ${item.summary}`))),
      );
    } else {
      reportBox.replaceChildren(el('p', {}, detail && ENDED.has(detail.status) ? 'This investigation ended without a finding.' : 'The report is written when the investigation finishes.'));
    }
    transcriptBox.replaceChildren(events.length === 0 ? el('p', {}, 'No events yet.') : transcriptList(events));
    focusTarget();
  };

  const cards = approvalCards(approvalsList, {
    headingLevel: 3,
    linkInvestigation: false,
    empty: 'None.',
    onDecided: () => (announcer.textContent = 'Decision recorded; the investigation continues.'),
  });

  const refresh = async (): Promise<boolean> => {
    const previous = detail?.status;
    detail = await getJson<InvestigationDetail>(`/investigations/${encodeURIComponent(id)}`);
    // The alarm and the approvals add to the page; an API without their routes still shows the rest.
    if (alarm === undefined && detail.status !== 'queued') {
      try {
        alarm = (await getJson<{ alarm: AlarmView | null }>(`/investigations/${encodeURIComponent(id)}/alarm`)).alarm;
        chartNote.textContent = '';
      } catch (error) {
        chartNote.textContent = `The alarm could not be read (${errorText(error)}), so its threshold and onset are not marked.`;
      }
    }
    const changed = await readers[values].refresh();
    try {
      const { items } = await getJson<{ items: ApprovalView[] }>('/approvals?status=pending&limit=100');
      approvalsNote.textContent = '';
      cards.show(items.filter((approval) => approval.investigationId === id));
    } catch (error) {
      approvalsNote.textContent = `The approvals could not be read: ${errorText(error)}`;
    }
    approvalsSection.hidden = cards.count === 0 && approvalsNote.textContent === '';
    showSummary(detail);
    if (changed || previous !== detail.status) showEvidence();
    if (previous !== undefined && previous !== detail.status) announcer.textContent = `Investigation ${detail.status}.`;
    return ENDED.has(detail.status);
  };

  let stop = () => {};
  const start = () => {
    stop = poll(REFRESH_MS, async () => {
      try {
        const ended = await refresh();
        problem.textContent = '';
        // An ended investigation changes no more; its decided approvals are in the transcript.
        if (ended) stop();
      } catch (error) {
        problem.textContent = `Could not load the investigation: ${errorText(error)}`;
        throw error;
      }
    });
  };
  start();

  const onToggle = async () => {
    values = unmasked.checked ? 'unmasked' : 'masked';
    shownChart = '';
    try {
      await readers[values].refresh();
      showEvidence();
    } catch (error) {
      problem.textContent = `Could not load the ${values} transcript: ${errorText(error)}`;
    }
  };
  masked.addEventListener('change', onToggle);
  unmasked.addEventListener('change', onToggle);
  const clock = setInterval(() => cards.tick(Date.now()), 1000);

  return {
    dispose: () => {
      stop();
      clearInterval(clock);
      disposeChart();
    },
    update: (next) => {
      if (next.name !== 'investigation' || next.id !== id) return false;
      target = next.seq;
      focusTarget();
      return true;
    },
  };
};
