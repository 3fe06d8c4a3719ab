/// <reference lib="dom" />
import { approvalCard, type ApprovalCard } from '../approval-card.ts';
import { errorText, getJson } from '../api.ts';
import { el } from '../dom.ts';
import type { ApprovalView } from '../types.ts';
import { investigationHref, poll, type Route, type View } from '../view.ts';

const STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;
const REFRESH_MS = 3000;

/**
 * Keeps one card per approval across refreshes, so a comment being typed survives them. A card
 * decided here stays until the user leaves; the rest follow the API's list.
 */
export const approvalCards = (container: HTMLElement, options: { headingLevel: 2 | 3; linkInvestigation: boolean; empty: string; onDecided?: () => void }) => {
  const cards = new Map<string, ApprovalCard>();
  const decidedHere = new Set<string>();
  const empty = el('p', {}, options.empty);
  const show = (approvals: ApprovalView[]) => {
    const listed = new Set(approvals.map((approval) => approval.id));
    for (const [id, card] of cards) {
      if (!listed.has(id) && !decidedHere.has(id)) {
        card.element.remove();
        cards.delete(id);
      }
    }
    for (const approval of approvals) {
      if (cards.has(approval.id)) continue;
      const card = approvalCard(approval, {
        headingLevel: options.headingLevel,
        ...(options.linkInvestigation ? { investigationLink: el('a', { href: investigationHref(approval.investigationId) }, approval.investigationId) } : {}),
        onDecided: () => {
          decidedHere.add(approval.id);
          options.onDecided?.();
        },
      });
      cards.set(approval.id, card);
      container.append(card.element);
    }
    if (cards.size === 0) container.replaceChildren(empty);
    else empty.remove();
  };
  const tick = (now: number) => cards.forEach((card) => card.tick(now));
  return { show, tick, get count() { return cards.size; } };
};

/** Approvals by status (pending first): each with the exact call, and the decision once taken. */
export const approvalsPage = (main: HTMLElement, route: Extract<Route, { name: 'approvals' }>): View => {
  const status = STATUSES.find((value) => value === route.status) ?? 'pending';
  const select = el('select', { id: 'approval-status' }, ...STATUSES.map((value) => el('option', { value, selected: value === status }, value)));
  const problem = el('p', { class: 'message', role: 'alert' });
  const list = el('div', { class: 'approvals' });
  main.replaceChildren(
    el('h1', { tabindex: -1 }, 'Approvals'),
    el('form', { class: 'filters', 'aria-label': 'Show approvals' }, el('label', { for: select.id }, 'Status'), select),
    problem,
    list,
  );
  select.addEventListener('change', () => (location.hash = `#/approvals?status=${select.value}`));
  const cards = approvalCards(list, { headingLevel: 2, linkInvestigation: true, empty: `No ${status} approvals.` });
  const stop = poll(REFRESH_MS, async () => {
    try {
      const { items } = await getJson<{ items: ApprovalView[] }>(`/approvals?status=${status}`);
      problem.textContent = '';
      cards.show(items);
    } catch (error) {
      problem.textContent = `Could not load the approvals: ${errorText(error)}`;
      throw error;
    }
  });
  const clock = setInterval(() => cards.tick(Date.now()), 1000);
  return {
    dispose: () => {
      stop();
      clearInterval(clock);
    },
  };
};
