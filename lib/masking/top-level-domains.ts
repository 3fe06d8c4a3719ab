import { literalTrieSource } from './regex-text.ts';

/**
 * Which dotted words are host names. A host detector that accepted any `word.word` would eat file
 * names (`app.js`, `config.yaml`), code paths (`event.detail.id`) and sentence ends, so a name is a
 * host only when its last label is a real top-level domain or an internal suffix.
 *
 * Some real top-level domains are also common file extensions or property names (`main.py`,
 * `README.md`, `item.id`, `id_rsa.pub`). Those count only in registry form (`shop.co.id`); the
 * gap is accepted: `example.id` alone stays unmasked.
 */

/** Country codes that collide with file extensions or property names. */
const AMBIGUOUS_COUNTRY_CODES = [
  'am', 'ar', 'as', 'at', 'be', 'by', 'bz', 'cc', 'do', 'gs', 'id', 'in', 'is', 'it', 'la', 'md',
  'mk', 'ml', 'mm', 'mo', 'ms', 'no', 'pk', 'pl', 'pm', 'ps', 'py', 're', 'rs', 'sc', 'sh', 'so',
  'sv', 'tf', 'to', 'tz',
] as const;

const COUNTRY_CODES = [
  'ac', 'ad', 'ae', 'af', 'ag', 'ai', 'al', 'ao', 'aq', 'au', 'aw', 'ax', 'az', 'ba', 'bb', 'bd',
  'bf', 'bg', 'bh', 'bi', 'bj', 'bm', 'bn', 'bo', 'br', 'bs', 'bt', 'bw', 'ca', 'cd', 'cf', 'cg',
  'ch', 'ci', 'ck', 'cl', 'cm', 'cn', 'co', 'cr', 'cu', 'cv', 'cw', 'cx', 'cy', 'cz', 'de', 'dj',
  'dk', 'dm', 'dz', 'ec', 'ee', 'eg', 'er', 'es', 'et', 'eu', 'fi', 'fj', 'fk', 'fm', 'fo', 'fr',
  'ga', 'gd', 'ge', 'gf', 'gg', 'gh', 'gi', 'gl', 'gm', 'gn', 'gp', 'gq', 'gr', 'gt', 'gu', 'gw',
  'gy', 'hk', 'hm', 'hn', 'hr', 'ht', 'hu', 'ie', 'il', 'im', 'io', 'iq', 'ir', 'je', 'jm', 'jo',
  'jp', 'ke', 'kg', 'kh', 'ki', 'km', 'kn', 'kp', 'kr', 'kw', 'ky', 'kz', 'lb', 'lc', 'li', 'lk',
  'lr', 'ls', 'lt', 'lu', 'lv', 'ly', 'ma', 'mc', 'me', 'mg', 'mh', 'mn', 'mp', 'mq', 'mr', 'mt',
  'mu', 'mv', 'mw', 'mx', 'my', 'mz', 'na', 'nc', 'ne', 'nf', 'ng', 'ni', 'nl', 'np', 'nr', 'nu',
  'nz', 'om', 'pa', 'pe', 'pf', 'pg', 'ph', 'pn', 'pr', 'pt', 'pw', 'qa', 'ro', 'ru', 'rw', 'sa',
  'sb', 'sd', 'se', 'sg', 'si', 'sk', 'sl', 'sm', 'sn', 'sr', 'ss', 'st', 'su', 'sx', 'sy', 'sz',
  'tc', 'td', 'tg', 'th', 'tj', 'tk', 'tl', 'tm', 'tn', 'tr', 'tt', 'tv', 'tw', 'ua', 'ug', 'uk',
  'us', 'uy', 'uz', 'va', 'vc', 've', 'vg', 'vi', 'vn', 'vu', 'wf', 'ws', 'ye', 'yt', 'za', 'zm',
  'zw',
] as const;

/**
 * Generic top-level domains seen on real infrastructure. Left out on purpose: those that are also
 * file extensions or identifiers (`app`, `zip`, `mov`, `java`, `pub`, `name`, `page`, `link`,
 * `run`, `build`, `help`, `host`, `live`, `new`).
 */
const GENERIC_DOMAINS = [
  'com', 'net', 'org', 'edu', 'gov', 'mil', 'int', 'info', 'biz', 'pro', 'aero', 'coop', 'museum',
  'jobs', 'mobi', 'travel', 'asia', 'dev', 'cloud', 'tech', 'online', 'site', 'website', 'space',
  'store', 'shop', 'blog', 'xyz', 'top', 'club', 'life', 'world', 'today', 'news', 'media',
  'digital', 'network', 'systems', 'services', 'solutions', 'software', 'tools', 'engineering',
  'agency', 'company', 'group', 'global', 'email', 'zone', 'team', 'works', 'studio', 'design',
  'art', 'guru', 'ninja', 'rocks', 'expert', 'consulting', 'security', 'finance', 'bank',
  'insurance', 'health', 'care', 'energy', 'academy', 'center', 'support', 'foundation', 'institute',
  'legal', 'money', 'capital', 'ventures', 'holdings', 'partners', 'wiki', 'inc', 'llc', 'ltd',
  'gmbh', 'icu', 'vip', 'one', 'uno', 'moe', 'ovh', 'sbs', 'cfd', 'africa', 'berlin', 'london',
  'nyc', 'paris', 'tokyo', 'aws', 'amazon', 'google', 'azure', 'microsoft', 'apple', 'cisco',
  'ibm', 'oracle', 'intel', 'hsbc', 'barclays',
] as const;

/** Suffixes of private networks: EC2 (`ec2.internal`, `compute.internal`), mDNS, corporate LANs, RFC 2606. */
const INTERNAL_SUFFIXES = [
  'internal', 'local', 'localdomain', 'lan', 'corp', 'intranet', 'localhost', 'example', 'invalid',
] as const;

/** Second-level labels of registries that publish under a country code (`co.uk`, `com.au`, `co.id`). */
const REGISTRY_SECOND_LEVELS = ['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'or', 'ne', 'go', 'gob', 'mil', 'nic'] as const;

/**
 * Suffixes that count only with two labels before them: Kubernetes and Consul namespaces
 * (`orders.prod.svc`, `web.service.consul`), and `.app`, which is also a macOS bundle extension.
 */
const NAMESPACED_SUFFIXES = ['svc', 'consul', 'app'] as const;

const withUpperCase = (values: readonly string[]): string[] => values.flatMap((value) => [value, value.toUpperCase()]);

const AMBIGUOUS = new Set<string>(AMBIGUOUS_COUNTRY_CODES);
const NAMESPACED = new Set<string>(NAMESPACED_SUFFIXES);
const REGISTRY = new Set<string>(REGISTRY_SECOND_LEVELS);

/** A TLD ends the name: nothing word-like follows, and no further label (`example.com.conf` is a file). */
export const HOST_END = String.raw`(?![\w-]|\.[A-Za-z0-9])`;

/**
 * Regex source of a host name (no port, no scheme): labels, then any listed TLD as one trie. The
 * stricter rules for ambiguous suffixes are checked by `isHostName` on the match, which keeps the
 * pattern to one pass over the labels. Also bare EC2 private DNS names such as `ip-10-0-3-17`,
 * which name an address even without their domain.
 */
export const hostNameSource = (): string => {
  const suffixes = withUpperCase([
    ...COUNTRY_CODES,
    ...GENERIC_DOMAINS,
    ...INTERNAL_SUFFIXES,
    ...AMBIGUOUS_COUNTRY_CODES,
    ...NAMESPACED_SUFFIXES,
  ]);
  return String.raw`(?:[A-Za-z0-9_][A-Za-z0-9_-]*\.)+${`(?:${literalTrieSource(suffixes)})`}|(?:ip|ec2)-\d{1,3}(?:-\d{1,3}){3}`;
};

/**
 * Whether a name matched by `hostNameSource` is a host: ambiguous country codes only in registry
 * form (`shop.co.id`, not `user.id` or `main.py`), namespaced suffixes only after two labels
 * (`orders.prod.svc`), both in lower case, as DNS names in logs are.
 */
export const isHostName = (name: string): boolean => {
  const labels = name.split('.');
  const last = labels[labels.length - 1]!;
  if (AMBIGUOUS.has(last)) return labels.length >= 3 && REGISTRY.has(labels[labels.length - 2]!) && name === name.toLowerCase();
  if (NAMESPACED.has(last)) return labels.length >= 3 && name === name.toLowerCase();
  if (AMBIGUOUS.has(last.toLowerCase()) || NAMESPACED.has(last.toLowerCase())) return false;
  return true;
};
