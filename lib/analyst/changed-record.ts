import { z } from 'zod';
import type { Change } from './evidence-board.ts';
import type { Signal } from './signals.ts';
import { quoteMessage } from '../text/quote.ts';
import { connectionFailed } from './rule-ports.ts';

/**
 * A DNS record decides where the clients of a name connect. When a change set or deleted the record
 * of a name that failing connections name (Route 53 ChangeResourceRecordSets, an UPSERT to an old
 * address, a DELETE), the clients go where the record now points, or nowhere: the service behind the
 * name may be healthy, and the record change is what to undo.
 */
export interface ChangedRecord {
  change: Change;
  /** The record's name, as the failures name it. */
  name: string;
  action: string;
  /** What the record now points at, when the change set it. */
  values: string[];
  /** The first failure that names it. */
  failure: Signal;
}

/** One entry of a Route 53 `changeBatch.changes`, as CloudTrail records the request. */
const recordChange = z
  .object({
    action: z.string(),
    resourceRecordSet: z.object({
      name: z.string(),
      resourceRecords: z.array(z.object({ value: z.string() })).optional(),
      aliasTarget: z.object({ dNSName: z.string() }).optional(),
    }),
  })
  .transform(({ action, resourceRecordSet: set }) => ({
    action: action.toUpperCase(),
    name: set.name.replace(/\.$/, ''),
    values: [...(set.resourceRecords ?? []).map((record) => record.value), ...(set.aliasTarget ? [set.aliasTarget.dNSName] : [])],
  }));
type RecordChange = z.infer<typeof recordChange>;

const changeBatch = z.object({ changeBatch: z.object({ changes: z.array(z.unknown()) }) });

/** The record changes a change's request lists (`changeBatch.changes`), wherever in its details the request sits. */
const recordChangesOf = (change: Change): RecordChange[] => {
  const found: RecordChange[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 6 || typeof value !== 'object' || value === null) return;
    const batch = changeBatch.safeParse(value);
    if (batch.success) found.push(...batch.data.changeBatch.changes.flatMap((entry) => recordChange.safeParse(entry).data ?? []));
    else for (const inner of Object.values(value)) visit(inner, depth + 1);
  };
  visit(change.details, 0);
  return found;
};

/** Words of a name that resolves to nothing. */
const nameUnresolved = /ENOTFOUND|NXDOMAIN|getaddrinfo|could not resolve|unknown host/i;
const failedToConnect = (text: string): boolean => connectionFailed.test(text) || nameUnresolved.test(text);

/** The record `change` set or deleted whose name the failing connections in `evidence` name, the earliest failure first. */
export const changedRecordOf = (change: Change | undefined, evidence: readonly Signal[]): ChangedRecord | undefined => {
  if (!change) return undefined;
  const failures = evidence.filter((signal) => failedToConnect(signal.text)).sort((a, b) => a.at - b.at);
  for (const record of recordChangesOf(change)) {
    const failure = failures.find((signal) => signal.text.toLowerCase().includes(record.name.toLowerCase()));
    if (failure) return { change, name: record.name, action: record.action, values: record.values, failure };
  }
  return undefined;
};

export const changedRecordWords = ({ change, name, action, values, failure }: ChangedRecord): string => {
  const did = action === 'DELETE' ? `deleted the DNS record of ${name}` : `set the DNS record of ${name}${values.length > 0 ? ` to ${values.join(', ')}` : ''} (${action})`;
  return `${change.service}'s change ${did}, and connections to ${name} fail since: "${quoteMessage(failure.text, 200)}". Clients of ${name} go where its record now points, whatever the health of the service they meant to reach.`;
};
