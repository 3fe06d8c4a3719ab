import { hostNameSource, HOST_END, isHostName } from '../masking/host-names.ts';
import { placeholderPattern } from '../masking/placeholders.ts';
import { escapeRegExp } from '../masking/regex-text.ts';
import type { ServiceNode } from './evidence-board.ts';

/**
 * The host names a service answers on, as its tags give them (a DNS record, a balancer's host, a
 * CDN's domain). Callers' errors name a dependency by the address they called
 * (`GET https://api.example.com/v3/cart -> 503`), not by the service map's name for it. Masking
 * replaces host names with placeholders throughout one investigation, so a tag and a log line name
 * the same host by the same placeholder.
 */

/**
 * Where a line names the host it called: in a URL, after a request's method, or after words of
 * calling or connecting. A URL given as a setting's value (`'base_url': 'https://…'`, `url=https://…`)
 * names where calls would go, not one that failed.
 */
const calledAt = String.raw`(?:(?<!\w['"]?\s*[:=]\s*['"]?)https?://|\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+|\b(?:call(?:ing|ed)?|connect(?:ing|ed)?|request(?:ing|ed)?|reach(?:ing)?|resolv(?:e|ing))\s+(?:to\s+)?)`;

/** Placeholders that stand for an address a caller calls. */
const addressPlaceholder = /^<(HOST|DB_ENDPOINT)_\d+>$/;

const hostsInText = (text: string): string[] => [
  ...[...text.matchAll(new RegExp(`${hostNameSource()}${HOST_END}`, 'g'))].map((match) => match[0].toLowerCase()).filter(isHostName),
  ...[...text.matchAll(placeholderPattern)].map((match) => match[0]).filter((placeholder) => addressPlaceholder.test(placeholder)),
];

const hostsInTags = (node: ServiceNode): string[] => Object.values(node.tags ?? {}).flatMap(hostsInText);

/**
 * How a line calls each of our services by a host name it answers on, one service's alone: what its
 * tags give and no other service's tags give too.
 */
export type ServiceHosts = ReadonlyMap<string, readonly RegExp[]>;

const callsHost = (host: string): RegExp => new RegExp(`${calledAt}${escapeRegExp(host)}(?![A-Za-z0-9-]|\\.[A-Za-z0-9])`, 'i');

/**
 * Its callers' tags may give a service's host as the upstream they call; a host that other
 * services' tags give as well (blue and green stacks behind one weighted name) names none of them.
 * A third party's endpoint names where calls went, not why they failed: the way there (a NAT, a
 * firewall) may be why, so third parties have none.
 */
export const serviceHostsOf = (services: readonly ServiceNode[]): ServiceHosts => {
  const tagged = new Map(services.map((node) => [node.name, hostsInTags(node)]));
  return new Map(
    services
      .filter((node) => node.kind !== 'external')
      .map((node) => {
        const others = services.filter((other) => other.name !== node.name && !other.dependsOn.includes(node.name));
        const own = tagged.get(node.name)!.filter((host) => !others.some((other) => tagged.get(other.name)!.includes(host)));
        return [node.name, own.map(callsHost)];
      }),
  );
};

/** Whether `text` calls `service` by one of its own hosts. */
export const namesServiceHost = (hosts: ServiceHosts, text: string, service: string): boolean =>
  (hosts.get(service) ?? []).some((call) => call.test(text));
