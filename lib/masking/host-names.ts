import { parse } from 'tldts';

/**
 * Which dotted words are host names. A host detector that accepted any `word.word` would eat file
 * names (`app.js`, `config.yaml`), code paths (`event.detail.id`) and sentence ends, so the scan
 * finds dotted words whose last label could be a top-level domain, and `isHostName` keeps those
 * whose suffix is a real one (the Public Suffix List, through `tldts`) or an internal one.
 *
 * Some real top-level domains are also common file extensions or property names (`main.py`,
 * `README.md`, `item.id`, `self.app`). Those count only in registry form (`shop.co.id`); the gap
 * is accepted: `example.id` alone stays unmasked.
 */

/** Top-level domains that are also file extensions or property names: hosts only in registry form. */
const WORDS_THAT_ARE_ALSO_DOMAINS = new Set([
  // Country codes.
  'am', 'ar', 'as', 'at', 'be', 'by', 'bz', 'cc', 'do', 'gs', 'id', 'in', 'is', 'it', 'la', 'md',
  'mk', 'ml', 'mm', 'mo', 'ms', 'no', 'pk', 'pl', 'pm', 'ps', 'py', 're', 'rs', 'sc', 'sh', 'so',
  'sv', 'tf', 'to', 'tz',
  // Generic domains.
  'zip', 'mov', 'pub', 'name', 'page', 'link', 'run', 'build', 'help', 'host', 'live', 'new', 'data',
  'events', 'map', 'now', 'bar', 'foo', 'call', 'show', 'next', 'open', 'read', 'save', 'search',
  'select', 'play', 'stream', 'watch', 'tab',
]);

/** Suffixes of private networks, outside the Public Suffix List: EC2 (`ec2.internal`), mDNS, corporate LANs, RFC 2606. */
const INTERNAL_SUFFIXES = new Set(['internal', 'local', 'localdomain', 'lan', 'corp', 'intranet', 'localhost', 'example', 'invalid']);

/**
 * Suffixes that count only with two labels before them: Kubernetes and Consul namespaces
 * (`orders.prod.svc`, `web.service.consul`), and `.app`, which is also a macOS bundle extension.
 */
const NAMESPACED_SUFFIXES = new Set(['svc', 'consul', 'app']);

/** A TLD ends the name: nothing word-like follows, and no further label (`example.com.conf` is a file). */
export const HOST_END = String.raw`(?![\w-]|\.[A-Za-z0-9])`;

/**
 * Regex source of a host name candidate (no port, no scheme): labels, then a last label that could
 * be a top-level domain, in one case (DNS names in logs are). `isHostName` decides. Also bare EC2
 * private DNS names such as `ip-10-0-3-17`, which name an address even without their domain.
 */
export const hostNameSource = (): string =>
  String.raw`(?:[A-Za-z0-9_][A-Za-z0-9_-]*\.)+(?:[a-z]{2,24}|[A-Z]{2,24}|xn--[a-z0-9-]{1,59})|(?:ip|ec2)-\d{1,3}(?:-\d{1,3}){3}`;

const decide = (name: string): boolean => {
  if (/^(?:ip|ec2)-\d/.test(name) && !name.includes('.')) return true;
  // One case throughout: `com.example.Foo.bar` is a Java class path, `API.EXAMPLE.COM` a host.
  const lower = name.toLowerCase();
  if (name !== lower && name !== name.toUpperCase()) return false;
  const labels = lower.split('.');
  const last = labels[labels.length - 1]!;
  if (NAMESPACED_SUFFIXES.has(last)) return labels.length >= 3 && name === lower;
  if (INTERNAL_SUFFIXES.has(last)) return true;
  const parsed = parse(lower, { extractHostname: false });
  if (!parsed.isIcann || parsed.domain === null || parsed.publicSuffix === null) return false;
  if (WORDS_THAT_ARE_ALSO_DOMAINS.has(last)) return parsed.publicSuffix.includes('.') && name === lower;
  return true;
};

/** Names repeat: remembered decisions skip the suffix lookup. Bounded, cleared when full. */
const decisions = new Map<string, boolean>();
const MAX_DECISIONS = 20_000;

/**
 * Whether a name matched by `hostNameSource` is a host: its suffix is a real top-level domain or an
 * internal one; ambiguous suffixes only in registry form (`shop.co.id`, not `user.id` or `main.py`),
 * namespaced suffixes only after two labels (`orders.prod.svc`), both in lower case.
 */
export const isHostName = (name: string): boolean => {
  let decision = decisions.get(name);
  if (decision === undefined) {
    if (decisions.size >= MAX_DECISIONS) decisions.clear();
    decision = decide(name);
    decisions.set(name, decision);
  }
  return decision;
};
