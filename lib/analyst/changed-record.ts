import type { Change } from './evidence-board.ts';
import type { Signal } from './signals.ts';
import { quoteMessage } from '../text/quote.ts';

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

const recordChangeSchema = (value: unknown): { action: string; name: string; values: string[] } | undefined => {
  if (typeof value !== 'object' || value === null) return undefined;
  const { action, resourceRecordSet } = value as { action?: unknown; resourceRecordSet?: unknown };
  if (typeof action !== 'string' || typeof resourceRecordSet !== 'object' || resourceRecordSet === null) return undefined;
  const set = resourceRecordSet as { name?: unknown; resourceRecords?: unknown; aliasTarget?: { dNSName?: unknown } };
  if (typeof set.name !== 'string') return undefined;
  const records = Array.isArray(set.resourceRecords) ? set.resourceRecords.flatMap((record: { value?: unknown }) => (typeof record?.value === 'string' ? [record.value] : [])) : [];
  const alias = typeof set.aliasTarget?.dNSName === 'string' ? [set.aliasTarget.dNSName] : [];
  return { action: action.toUpperCase(), name: set.name.replace(/\.$/, ''), values: [...records, ...alias] };
};

/** The record changes a change's request lists (`changeBatch.changes`), wherever in its details the request sits. */
const recordChangesOf = (change: Change): { action: string; name: string; values: string[] }[] => {
  const found: { action: string; name: string; values: string[] }[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 6 || typeof value !== 'object' || value === null) return;
    const batch = (value as { changeBatch?: { changes?: unknown } }).changeBatch;
    if (Array.isArray(batch?.changes)) found.push(...batch.changes.flatMap((entry) => recordChangeSchema(entry) ?? []));
    else for (const inner of Object.values(value)) visit(inner, depth + 1);
  };
  visit(change.details, 0);
  return found;
};

/** Words of a connection that failed or found nothing at the name. */
const failedToConnect = /time.?d?.?out|ETIMEDOUT|refused|ECONNREFUSED|unreachable|EHOSTUNREACH|no response|ENOTFOUND|NXDOMAIN|getaddrinfo|could not resolve|unknown host/i;

/** The record `change` set or deleted whose name the failing connections in `evidence` name, the earliest failure first. */
export const changedRecordOf = (change: Change | undefined, evidence: readonly Signal[]): ChangedRecord | undefined => {
  if (!change) return undefined;
  const failures = evidence.filter((signal) => failedToConnect.test(signal.text)).sort((a, b) => a.at - b.at);
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
