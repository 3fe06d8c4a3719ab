/// <reference lib="dom" />
import { el, jsonDetails, type Child } from '../dom.ts';
import { payloadOf, text } from '../evidence.ts';
import { formatTime } from '../format.ts';
import type { TranscriptEvent } from '../types.ts';

const count = (value: unknown): number => (Array.isArray(value) ? value.length : 0);

/** `{sameAs}` pieces repeat an earlier request's; only the new ones are worth reading. */
const newPieces = (value: unknown): unknown[] => (Array.isArray(value) ? value.filter((piece) => !(typeof piece === 'object' && piece !== null && 'sameAs' in piece)) : []);

const callText = (call: unknown): string => {
  const { name, arguments: args } = (typeof call === 'object' && call !== null ? call : {}) as { name?: unknown; arguments?: unknown };
  return `${String(name)} ${JSON.stringify(args ?? {})}`;
};

/** What one event says, in a line or two; the whole payload is one disclosure away. */
const body = (event: TranscriptEvent): Child[] => {
  const payload = payloadOf(event);
  switch (event.type) {
    case 'plan':
      return [el('p', {}, `The instructions, the alert brief, the checklist and ${count(payload.tools)} tools.`), el('pre', { class: 'text' }, text(payload.brief) ?? '')];
    case 'model.request': {
      const fresh = newPieces(payload.messages);
      return [
        el('p', {}, `Sent ${count(payload.messages)} messages (${fresh.length} new since the last request), tool choice ${text(payload.toolChoice) ?? 'auto'}.`),
        fresh.length > 0 ? jsonDetails('New messages', fresh) : null,
      ];
    }
    case 'model.response': {
      const calls = Array.isArray(payload.toolCalls) ? payload.toolCalls : [];
      return [
        text(payload.text) ? el('pre', { class: 'text' }, text(payload.text)!) : el('p', {}, 'No text.'),
        calls.length > 0 ? el('p', {}, 'Asks for:') : null,
        calls.length > 0 ? el('ul', {}, ...calls.map((call) => el('li', {}, el('code', {}, callText(call))))) : null,
      ];
    }
    case 'tool.call':
      return [el('p', {}, el('code', {}, callText(payload)), ` (${text(payload.sideEffect) ?? 'unknown'})`)];
    case 'tool.result':
      return [
        el('p', {}, el('strong', {}, text(payload.ref) ?? ''), ` ${text(payload.name) ?? ''}: ${text(payload.summary) ?? ''}`),
        text(payload.error) ? el('p', { class: 'error' }, `Error: ${text(payload.error)}`) : null,
      ];
    case 'approval.requested':
      return [el('p', {}, `${text(payload.action) ?? ''} on ${text(payload.target) ?? ''}: ${text(payload.summary) ?? ''}`)];
    case 'approval.decided':
      return [el('p', {}, `${text(payload.decision) ?? 'decided'}${text(payload.by) ? ` by ${text(payload.by)}` : ''}${text(payload.comment) ? `: ${text(payload.comment)}` : ''}`)];
    case 'action.executed':
      return [el('p', {}, `${text(payload.action) ?? ''} on ${text(payload.target) ?? ''}: ${text(payload.status) ?? ''}. ${text(payload.summary) ?? ''}`)];
    case 'action.verified':
      return [el('p', {}, `${payload.recovered === true ? 'Recovered' : payload.recovered === false ? 'Not recovered' : 'Not verifiable'}: ${text(payload.summary) ?? ''}`)];
    case 'reflection':
      return [el('p', {}, payload.passed === true ? 'The draft passed the review against the evidence.' : `The draft failed the review: ${(Array.isArray(payload.problems) ? payload.problems : []).join('; ')}`)];
    case 'error':
      return [el('p', { class: 'error' }, `${text(payload.error) ?? 'Error'}: ${text(payload.message) ?? ''}`)];
    case 'notification':
      return [el('p', {}, `${text(payload.channel) ?? ''}: ${text(payload.subject) ?? ''}`)];
    case 'finding':
      return [el('p', {}, 'The finding (shown as the report above).')];
  }
};

export const eventElementId = (seq: number): string => `event-${seq}`;

/** Every event: model turns, tool calls and results, approvals and actions, each an anchor for its evidence links. */
export const transcriptList = (events: readonly TranscriptEvent[]): HTMLOListElement =>
  el(
    'ol',
    { class: 'transcript' },
    ...events.map((event) =>
      el(
        'li',
        {},
        el(
          'article',
          { id: eventElementId(event.seq), tabindex: -1, class: `event event-${event.type.replace('.', '-')}`, 'aria-labelledby': `${eventElementId(event.seq)}-title` },
          el('h3', { id: `${eventElementId(event.seq)}-title` }, `#${event.seq} ${event.type}`, el('span', { class: 'meta' }, ` ${formatTime(event.at)}, step ${event.step}`)),
          ...body(event),
          jsonDetails('Payload', event.payload),
        ),
      ),
    ),
  );
