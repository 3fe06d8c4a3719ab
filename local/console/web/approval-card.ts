/// <reference lib="dom" />
import { errorText, postJson } from './api.ts';
import { el, facts } from './dom.ts';
import { formatTime, timeLeft } from './format.ts';
import type { ApprovalView } from './types.ts';

export interface ApprovalCard {
  element: HTMLElement;
  /** Re-reads the clock: the time left, and the buttons once the approval has expired. */
  tick(now: number): void;
}

const decisionDetails = (approval: ApprovalView): string =>
  `${approval.decidedBy ? `by ${approval.decidedBy}` : ''}${approval.decidedAt ? ` at ${formatTime(approval.decidedAt)}` : ''}${approval.comment ? `, comment: ${approval.comment}` : ''}`;

const decisionText = (approval: ApprovalView): string => `${approval.status} ${decisionDetails(approval)}`.trim();

/**
 * One approval: the exact call, its target, the value it replaces, the reason, the time left, and
 * (while pending) approve or reject with a comment. Once decided or expired the form is gone; an
 * answer the API refuses (403, 409 already decided, 410 expired) is shown as the API says it.
 */
export const approvalCard = (initial: ApprovalView, options: { headingLevel: 2 | 3; investigationLink?: Node; onDecided?: (approval: ApprovalView) => void }): ApprovalCard => {
  let approval = initial;
  const headingId = `approval-${approval.id}`;
  const status = el('span', { class: `status status-${approval.status}` }, approval.status);
  const details = el('span', {}, decisionDetails(approval));
  const left = el('time', { datetime: approval.expiresAt }, formatTime(approval.expiresAt));
  const message = el('p', { class: 'message', role: 'status', 'aria-live': 'polite' });
  const comment = el('textarea', { id: `${headingId}-comment`, name: 'comment', rows: 2, maxlength: 2000 });
  const approve = el('button', { type: 'submit', name: 'decision', value: 'approve' }, 'Approve');
  const reject = el('button', { type: 'submit', name: 'decision', value: 'reject' }, 'Reject');
  const form = el(
    'form',
    { class: 'decision', 'aria-labelledby': headingId },
    el('label', { for: comment.id }, 'Comment (optional)'),
    comment,
    el('div', { class: 'buttons' }, approve, reject),
  );
  const element = el(
    'article',
    { class: 'approval', 'aria-labelledby': headingId, 'data-approval-id': approval.id },
    el(`h${options.headingLevel}`, { id: headingId }, `${approval.action} on ${approval.target}`),
    facts([
      ['Status', [status, ' ', details]],
      ['Action', el('code', {}, approval.action)],
      ['Target', approval.target],
      ['What it does', approval.summary],
      ['Arguments', el('pre', { class: 'json' }, JSON.stringify(approval.arguments, null, 2))],
      ['Previous value', approval.previousValue ?? 'none recorded'],
      ['Reason', approval.reason],
      ['Expires', [left]],
      ...(options.investigationLink ? ([['Investigation', options.investigationLink]] as [string, Node][]) : []),
    ]),
    form,
    message,
  );

  const show = () => {
    status.className = `status status-${approval.status}`;
    status.textContent = approval.status;
    details.textContent = decisionDetails(approval);
    if (approval.status !== 'pending') form.remove();
  };
  const tick = (now: number) => {
    const remaining = timeLeft(approval.expiresAt, now);
    left.textContent = `${formatTime(approval.expiresAt)} (${remaining ?? 'expired'})`;
    if (approval.status === 'pending' && remaining === null && form.isConnected) {
      approve.disabled = true;
      reject.disabled = true;
      status.textContent = 'expired';
      details.textContent = 'it can no longer be decided';
    }
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const decision = ((event as SubmitEvent).submitter as HTMLButtonElement | null)?.value;
    if (decision !== 'approve' && decision !== 'reject') return;
    approve.disabled = true;
    reject.disabled = true;
    message.textContent = decision === 'approve' ? 'Approving…' : 'Rejecting…';
    try {
      const text = comment.value.trim();
      approval = await postJson<ApprovalView>(`/approvals/${encodeURIComponent(approval.id)}`, { decision, ...(text === '' ? {} : { comment: text }) });
      message.textContent = `Decision recorded: ${decisionText(approval)}`;
      show();
      options.onDecided?.(approval);
    } catch (error) {
      message.textContent = `The API refused the decision: ${errorText(error)}`;
      message.setAttribute('role', 'alert');
      // A decision already taken or an expired approval cannot be retried; anything else can.
      const final = /^(409|410):/.test(errorText(error));
      approve.disabled = final;
      reject.disabled = final;
    }
  });

  show();
  tick(Date.now());
  return { element, tick };
};
