import { failureKindsIn, failureKindsOfChange } from './change-effects.ts';
import type { Change } from './evidence-board.ts';
import { worded } from './explaining-change.ts';
import type { Signal } from './signals.ts';
import { quoteMessage } from '../text/quote.ts';
import { changeText } from './change-text.ts';

/**
 * A change to where clients connect (a DNS record, an endpoint setting) that sends their writes to
 * a server that only reads (a replica, a cluster's reader endpoint). The server works: it refuses
 * writes because it was never meant to take them, so the fault is the change, and the clients that
 * connected meanwhile keep pooled connections to the reader until they are restarted.
 */
export interface RepointedEndpoint {
  change: Change;
  /** The clients whose writes were refused: the one the alert is about first, then first refused first. */
  clients: string[];
  /** The first refusal. */
  refusal: Signal;
}

const refusesWrites = (signal: Signal): boolean => worded.has(signal.kind) && failureKindsIn([signal]).has('wrong endpoint');

export const repointedEndpointOf = (change: Change | undefined, current: readonly Signal[], symptom: string | undefined): RepointedEndpoint | undefined => {
  if (!change || !failureKindsOfChange(change).has('wrong endpoint')) return undefined;
  const refusals = current.filter((signal) => refusesWrites(signal)).sort((a, b) => a.at - b.at);
  if (refusals.length === 0) return undefined;
  // A line that names the server it was refused by is the writing client's: the client is who wrote it.
  const clients = refusals.flatMap((signal) => (signal.kind === 'mentioned' ? (signal.from ? [signal.from] : []) : [signal.service]));
  // Restarting the client the alert is about first brings back what its users were paged for.
  const ordered = [...new Set(clients)].sort((a, b) => Number(b === symptom) - Number(a === symptom));
  return { change, clients: ordered, refusal: refusals[0]! };
};

const recordWords = /\bdns\b|resource.?record|record.?set|hosted.?zone|\bcname\b/i;

export const repointedEndpointWords = ({ change, clients, refusal }: RepointedEndpoint): string => {
  const what = recordWords.test(changeText(change)) ? 'a DNS record change' : 'an endpoint change';
  return `${change.service} made ${what} that points ${clients.join(' and ')} at a read-only server (a reader or replica) instead of the writer: their writes are refused ("${quoteMessage(refusal.text)}").`;
};
