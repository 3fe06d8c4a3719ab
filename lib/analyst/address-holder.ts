import { causesIn } from './cause-signals.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { dependenciesOf } from './service-map.ts';
import type { Signal } from './signals.ts';
import { changeText } from './change-text.ts';

/**
 * A service that cannot start its tasks for want of IP addresses in its subnets (every task of an
 * awsvpc service, every pod, every function in the VPC takes one) is starved by what else runs in
 * those subnets; one refused a network interface by the account's quota, by what else runs in the account. A workload that started many copies there before the trouble (a load-test fleet, a
 * backfill's workers) holds the addresses, idle or not: scaling it in frees them.
 */
export interface AddressHolder {
  /** The workload whose copies hold the addresses. */
  holder: string;
  /** The service that cannot get one. */
  starved: string;
  /** The change that started the holder's copies, and how many it started. */
  change: Change;
  copies: number;
  /** The subnets both run in; none when the account's quota of network interfaces ran out. */
  subnets: string[];
}

/** Subnet ids, written out or masked as resource ids (the masking keeps one placeholder per id). */
const subnetIds = (text: string): string[] => text.match(/subnet-[0-9a-f]{8,17}|<RESOURCE_ID_\d+>/g) ?? [];

/** The subnets a failure names: "in subnet 'subnet-09d5…'". */
const subnetsNamedIn = (text: string): string[] => [...text.matchAll(/subnet\W{1,3}(subnet-[0-9a-f]{8,17}|<RESOURCE_ID_\d+>)/gi)].map((match) => match[1]!);

/** A change's count of the copies it starts: "desiredCount 640", `"taskCount": 160`, "160 Fargate tasks". */
const copiesStartedBy = (change: Change): number => {
  const text = changeText(change);
  const counts = [
    ...text.matchAll(/(?:desired.?(?:count|capacity)|task.?count|desired|tasks|agents|instances|replicas|workers)\W{0,4}(?:\d+\s*(?:->|→|to)\s*)?(\d{2,})/gi),
    ...text.matchAll(/(\d{2,}) (?:\w+ ){0,2}(?:tasks|agents|instances|replicas|pods|workers)\b/gi),
  ].map((match) => Number(match[1]));
  return counts.length > 0 ? Math.max(...counts) : 0;
};

/** Copies enough to hold a subnet's worth of addresses: a /24 has 251 to give. */
const MANY_COPIES = 50;
/** How long a fleet holds what it took: until it is scaled in, often days. */
const HOLDING_REACH_MS = 7 * 24 * 60 * 60_000;

/** The account's quota of network interfaces, which every subnet of the Region draws on. */
const interfaceQuota = /NetworkInterfaceLimitExceeded|maximum number of network interfaces/i;

export const addressHolderOf = (board: EvidenceBoard, candidates: readonly string[], signals: readonly Signal[]): AddressHolder | undefined => {
  const starvedSignals = (service: string) =>
    signals.filter((signal) => signal.service === service && (interfaceQuota.test(signal.text) || causesIn(signal.text).some((hit) => hit.label === 'IP addresses')));
  const reporter = candidates.find((service) => starvedSignals(service).length > 0);
  if (!reporter) return undefined;
  const reported = starvedSignals(reporter);
  // The subnets a service runs in, as its tags name them.
  const taggedSubnets = (service: string): string[] =>
    Object.entries(board.services?.find((candidate) => candidate.name === service)?.tags ?? {}).flatMap(([key, value]) => (/subnet/i.test(key) ? subnetIds(value) : []));
  // A caller may report its callee's failure to get an address (a gateway whose function cannot set up its VPC access): the callee in subnets is starved.
  const inSubnets = [reporter, ...dependenciesOf(board, reporter)].filter((service) => taggedSubnets(service).length > 0);
  const starved = taggedSubnets(reporter).length > 0 || reported.some((signal) => subnetsNamedIn(signal.text).length > 0) || inSubnets.length !== 1 ? reporter : inSubnets[0]!;
  const subnets = new Set([...reported.flatMap((signal) => subnetsNamedIn(signal.text)), ...taggedSubnets(starved)]);
  const accountWide = reported.some((signal) => interfaceQuota.test(signal.text));
  if (subnets.size === 0 && !accountWide) return undefined;
  const troubleAt = Math.min(...reported.map((signal) => signal.at));
  const fleets = (board.services ?? [])
    .map((node) => node.name)
    .filter((service) => service !== starved && service !== reporter)
    .flatMap((service) => {
      const changes = board.changes.filter((change) => change.service === service && change.at <= troubleAt && troubleAt - change.at <= HOLDING_REACH_MS);
      const shared = [...new Set([...taggedSubnets(service), ...changes.flatMap((change) => subnetIds(changeText(change)))])].filter((id) => subnets.has(id));
      const started = changes.map((change) => ({ change, copies: copiesStartedBy(change) })).filter(({ copies }) => copies >= MANY_COPIES).sort((a, b) => b.copies - a.copies)[0];
      return (shared.length > 0 || accountWide) && started ? [{ holder: service, starved, ...started, subnets: shared }] : [];
    });
  return fleets.length === 1 ? fleets[0] : undefined;
};

export const addressHolderWords = ({ holder, starved, change, copies, subnets }: AddressHolder): string =>
  (subnets.length > 0
    ? `${starved} cannot start its tasks: its subnets (${subnets.join(', ')}) have no free IP addresses left for their network interfaces. ${holder}, in the same subnets, holds them: `
    : `${starved} cannot start its tasks: the account has reached its quota of network interfaces (ENI), and each task needs one. ${holder} holds them: `) +
  `its change at ${new Date(change.at).toISOString().replace('.000Z', 'Z')} started ${copies} copies, each taking a network interface and its address, and they still hold them.`;
