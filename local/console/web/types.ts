/** The API's answers, as the page reads them; the shapes are the API's own (type-only imports, erased from the bundle). */
import type { AlarmView } from '../../../lib/api/alarm-view.ts';
import type { InvestigationView } from '../../../lib/api/investigation-view.ts';
import type { Approval } from '../../../lib/domain/approval.ts';
import type { TranscriptEvent } from '../../../lib/domain/transcript.ts';

export type { AlarmView, InvestigationView, TranscriptEvent };

export type InvestigationDetail = InvestigationView & { joinedTriggers: { receivedAt: string; summary: string }[] };

export interface InvestigationPage {
  items: InvestigationView[];
  nextCursor?: string;
}

export interface TranscriptPage {
  events: TranscriptEvent[];
  nextCursor?: string;
}

/** `GET /approvals` and `POST /approvals/{id}` answer with the record minus what only the workflow needs. */
export type ApprovalView = Pick<Approval, 'id' | 'investigationId' | 'action' | 'target' | 'summary' | 'arguments' | 'previousValue' | 'reason' | 'status' | 'expiresAt' | 'decidedBy' | 'decidedAt' | 'comment'>;
