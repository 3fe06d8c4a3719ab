import type { RootCauseCategory } from '../domain/vocabulary.ts';
import { causesIn } from './cause-signals.ts';
import type { Change } from './evidence-board.ts';
import type { Signal } from './signals.ts';

/**
 * How the fault works, in plain words, read from the evidence at the root: what ran out, what was
 * rejected, what changed. The category follows from the mechanism, not from where it shows.
 */
export interface Mechanism {
  /** The evidence label it rests on (cause-signals labels), or the change kind. */
  label: string;
  category: RootCauseCategory;
  /** One sentence for the summary. */
  words: string;
}

const rises = (signals: readonly Signal[], pattern: RegExp): boolean =>
  signals.some((signal) => (signal.kind === 'trend' || signal.kind === 'metric') && pattern.test(signal.text) && /rising|went up/.test(signal.description));

/** Labels the evidence at `root` shows, strongest first (errors and metrics count double). */
export const labelsAt = (rootSignals: readonly Signal[]): string[] => {
  const votes = new Map<string, number>();
  for (const signal of rootSignals) {
    const weight = signal.kind === 'errors' || signal.kind === 'metric' ? 2 : 1;
    for (const hit of causesIn(signal.text)) votes.set(hit.label, (votes.get(hit.label) ?? 0) + weight);
  }
  return [...votes.entries()].sort((a, b) => b[1] - a[1]).map(([label]) => label);
};

const phrase = (label: string, root: string, signals: readonly Signal[], text: string): string => {
  switch (label) {
    case 'memory':
      return rises(signals, /mem|heap/i)
        ? `${root} runs out of memory: its memory use climbs steadily until the process is killed, the pattern of a memory leak.`
        : `${root} runs out of memory.`;
    case 'connections':
      return rises(signals, /connection|pool|checked.?out/i)
        ? `${root} exhausts its connections: the connections it holds keep growing and are not released (a connection leak), until the limit is reached.`
        : `The connection limit at ${root} is reached, so new connections are refused.`;
    case 'disk':
      return `A storage volume at ${root} is filling: free space keeps falling toward zero.`;
    case 'threads':
      return `${root} runs out of threads or file descriptors.`;
    case 'replication lag':
      return `Replication lag at ${root}: the replica cannot keep up with the write load it is sent.`;
    case 'table scan':
      return `A query at ${root} scans far more rows than it returns (a missing index), saturating the database.`;
    case 'throttling':
      return /concurren/i.test(text)
        ? `${root} is throttled: requests exceed its concurrency limit.`
        : `${root} is throttled: requests exceed its provisioned capacity or rate limit.`;
    case 'certificate':
      return /expir/i.test(text) ? `An expired TLS certificate at ${root} makes handshakes fail.` : `TLS handshakes with ${root} fail on its certificate.`;
    case 'disabled key':
      return `A KMS key that ${root} needs is disabled, so encrypt and decrypt calls fail.`;
    case 'credentials':
      return `${root} authenticates with credentials that are no longer valid (a rotated secret still cached by the application).`;
    case 'access denied':
      return `Calls by ${root} are denied: a permission it needs is missing.`;
    case 'network':
      if (/ENOTFOUND|NXDOMAIN|resolve|DNS|unknown host|getaddrinfo/i.test(text)) return `A DNS name ${root} depends on no longer resolves.`;
      if (/security group|ingress|NACL|network acl/i.test(text)) return `A security-group or network ACL rule no longer lets traffic reach ${root}.`;
      return `Connections to ${root} time out at the network level.`;
    case 'bad data':
      return /duplicate|twice|double/i.test(text) ? `${root} writes the same data twice (duplicate records).` : `${root} handles bad data (malformed or invalid records).`;
    case 'AWS infrastructure':
      return `The AWS infrastructure under ${root} is impaired.`;
    case 'configuration':
      return `A configuration of ${root} is wrong.`;
    default:
      return '';
  }
};

const changeWords: Readonly<Record<string, string>> = {
  deploy: 'a new release',
  config: 'a configuration change',
  'feature-flag': 'a feature-flag change',
  iam: 'a permission change',
  certificate: 'a certificate change',
  network: 'a network change',
  infrastructure: 'an infrastructure event',
};

/** The mechanism at `root`: from its evidence, or failing that from the change that started it. */
export const mechanismOf = (root: string, rootSignals: readonly Signal[], change: Change | undefined, changeCategory: RootCauseCategory | undefined): Mechanism | undefined => {
  const labels = labelsAt(rootSignals);
  const text = rootSignals.map((signal) => signal.text).join(' ');
  const label = labels[0];
  if (label) {
    const category = causesIn(text).find((hit) => hit.label === label)?.category ?? 'dependency';
    const words = phrase(label, root, rootSignals, text);
    if (words) return { label, category, words };
  }
  if (change && changeCategory) return { label: change.kind, category: changeCategory, words: `${changeWords[change.kind] ?? 'a change'} to ${change.service} started it.` };
  return undefined;
};
