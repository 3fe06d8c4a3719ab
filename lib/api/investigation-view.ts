import type { Investigation } from '../domain/investigation.ts';
import type { Admission } from '../triggers/ledger.ts';

export type ApiStatus = 'queued' | Investigation['status'];

/** What the API says about one investigation: its head once the workflow created it, its admission before. */
export interface InvestigationView {
  id: string;
  status: ApiStatus;
  service: string | null;
  triggerCount: number;
  triggerKind: Investigation['triggerKind'] | null;
  triggerSummary: string | null;
  createdAt: string;
  updatedAt: string;
  finding: Investigation['finding'] | null;
  usage: Investigation['usage'] | null;
  error: string | null;
}

const statusOf = (head: Investigation | undefined, admission: Admission | undefined): ApiStatus => {
  if (head) return head.status;
  if (admission?.state === 'cancelled') return 'cancelled';
  // Started but the workflow has not written its head yet.
  if (admission?.state === 'started') return 'running';
  return 'queued';
};

export const investigationView = (id: string, head: Investigation | undefined, admission: Admission | undefined): InvestigationView => ({
  id,
  status: statusOf(head, admission),
  service: head?.service ?? admission?.service ?? null,
  triggerCount: admission?.triggerCount ?? 1,
  triggerKind: head?.triggerKind ?? null,
  triggerSummary: head?.triggerSummary ?? null,
  createdAt: head?.createdAt ?? admission?.receivedAt ?? '',
  updatedAt: head?.updatedAt ?? admission?.receivedAt ?? '',
  finding: head?.finding ?? null,
  usage: head?.usage ?? null,
  error: head?.error ?? null,
});
