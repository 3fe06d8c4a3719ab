import type { InvestigationStore } from '../store/port.ts';
import { pagerDutyNote } from '../triggers/pagerduty-note.ts';
import { checkHttpDelivery, DeliveryError } from './delivery-error.ts';
import type { ApprovalNotice, Notice, Notifier } from './port.ts';

export interface PagerDutyNotifierOptions {
  /** Reads the trigger: only investigations a PagerDuty incident started get a note. */
  store: Pick<InvestigationStore, 'getTrigger'>;
  /** A PagerDuty REST API key. */
  apiToken: string;
  /** The email of a PagerDuty user; the REST API requires it on writes (`From` header). */
  from: string;
  /** Default https://api.pagerduty.com; tests point it at a local server. */
  baseUrl?: string;
  /** Where a human reads the whole investigation: `<link base>/investigations/<id>`. */
  linkBase?: string;
  fetch?: typeof fetch;
}

export const PAGERDUTY_API_URL = 'https://api.pagerduty.com';

/** Adds the finding to the PagerDuty incident that started the investigation, as a note. */
export class PagerDutyNotifier implements Notifier {
  readonly channel = 'pagerduty';

  constructor(private readonly options: PagerDutyNotifierOptions) {}

  async publish(notice: Notice): Promise<{ messageId?: string }> {
    const link = this.options.linkBase ? `${this.options.linkBase.replace(/\/$/, '')}/investigations/${notice.investigationId}` : undefined;
    return this.note(notice.investigationId, pagerDutyNote(notice.finding, link));
  }

  async announceApproval(notice: ApprovalNotice): Promise<{ messageId?: string }> {
    return this.note(notice.investigationId, `${notice.subject}\n\n${notice.text}`);
  }

  /** A note on the PagerDuty incident that started the investigation; none for other triggers. */
  private async note(investigationId: string, content: string): Promise<{ messageId?: string }> {
    const trigger = await this.options.store.getTrigger(investigationId);
    if (!trigger || !('pagerduty' in trigger)) return {};
    const incidentId = trigger.pagerduty.event.data.id;
    if (!incidentId) return {};
    const url = `${(this.options.baseUrl ?? PAGERDUTY_API_URL).replace(/\/$/, '')}/incidents/${encodeURIComponent(incidentId)}/notes`;
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(url, {
        method: 'POST',
        headers: {
          Authorization: `Token token=${this.options.apiToken}`,
          From: this.options.from,
          Accept: 'application/vnd.pagerduty+json;version=2',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ note: { content } }),
      });
    } catch (error) {
      throw new DeliveryError(`PagerDuty could not be reached: ${error instanceof Error ? error.message : String(error)}`, true);
    }
    await checkHttpDelivery(response, `PagerDuty (note on incident ${incidentId})`);
    const body = (await response.json().catch(() => ({}))) as { note?: { id?: unknown } };
    return typeof body.note?.id === 'string' ? { messageId: body.note.id } : {};
  }
}
