import type { MaskEntry } from './placeholder-map.ts';
import { PlaceholderType } from './placeholders.ts';
import { literalTrieSource } from './regex-text.ts';

/**
 * Raw values the map knows, matched wherever they stand as a whole token.
 *
 * Masking runs one after the scan over the values the scan cannot find by itself: those learned
 * from context (an account id inside an ARN, a bucket from a `bucketName` field, a user from
 * `user=`, a host from a URL whatever its TLD). So such a value is masked where it appears alone,
 * even earlier in the same text. Leak checks run one over every known value.
 */

/** Context-learned values that are plain words are not hunted elsewhere: "root" or "deploy" would eat prose. */
const COMMON_WORDS = new Set([
  'root', 'admin', 'administrator', 'user', 'users', 'test', 'guest', 'ubuntu', 'ec2-user', 'postgres', 'mysql',
  'master', 'default', 'system', 'service', 'app', 'api', 'nobody', 'anonymous', 'deploy', 'deployer', 'jenkins',
  'github', 'gitlab', 'runner', 'lambda', 'ecs', 'bot', 'none', 'null', 'unknown', 'operator', 'readonly',
  'readwrite', 'reader', 'writer', 'dev', 'prod', 'staging', 'production', 'logs', 'data', 'backup', 'backups',
]);

const CONTEXT_TYPES = new Set<string>([PlaceholderType.user, PlaceholderType.bucket, PlaceholderType.logGroup, PlaceholderType.cluster]);

/** Longer values are left to the detectors: they are whole structures that a token match adds nothing to. */
const MAX_SWEPT_LENGTH = 1024;

/** Whether a known value is distinctive enough to mask (and to flag as a leak) wherever it appears. */
export const isHuntedEverywhere = (entry: MaskEntry): boolean => {
  const value = entry.value;
  // Quotes and escapes are read differently once text is re-quoted (JSON.stringify): leave such values to context.
  if (value.length > MAX_SWEPT_LENGTH || /["\\]/.test(value)) return false;
  if (entry.type === PlaceholderType.name || entry.type === PlaceholderType.service) return true;
  if (value.length < 4 || COMMON_WORDS.has(value.toLowerCase())) return false;
  if (!CONTEXT_TYPES.has(entry.type)) return true;
  // A user, bucket, log group or cluster called by a single plain word is only masked where context says so.
  return /[-_.@/\d\s]/.test(value) || /[a-z][A-Z]/.test(value);
};

/**
 * A known value as a whole token, with the detectors' token edges: not inside a longer word, not
 * a later label of a longer host (`api.orders.internal`), not its first labels (`orders.internal.example`).
 */
const KNOWN_VALUE_END = String.raw`(?![A-Za-z0-9_-]|\.[A-Za-z0-9])`;

/**
 * A known account id is a token between any characters but letters and digits: AWS writes it into
 * hyphenated names (`cdk-hnb659fds-cfn-exec-role-123456789012-eu-west-1`, `aws-athena-query-results-123456789012-us-east-1`),
 * and twelve digits in a row are distinctive where a word would not be.
 */
const ACCOUNT_ID = /^\d{12}$/;
const ACCOUNT_END = '(?![A-Za-z0-9])';

/** The values in two tries, each with its own edges; `wordStart` and `accountStart` are lookbehinds. No values match nothing. */
const edgedSource = (values: Iterable<string>, wordStart: string, accountStart: string): string => {
  const all = [...values];
  const accounts = all.filter((value) => ACCOUNT_ID.test(value));
  const words = all.filter((value) => !ACCOUNT_ID.test(value));
  return [
    ...(words.length > 0 ? [`${wordStart}(?:${literalTrieSource(words)})${KNOWN_VALUE_END}`] : []),
    ...(accounts.length > 0 ? [`${accountStart}(?:${literalTrieSource(accounts)})${ACCOUNT_END}`] : []),
  ].join('|') || '(?!)';
};

export const knownValueSource = (values: Iterable<string>): string =>
  edgedSource(values, String.raw`(?<![A-Za-z0-9_-]|[A-Za-z0-9_-]\.)`, '(?<![A-Za-z0-9])');

/**
 * The same, read in escaped text too: a letter or digit that ends an escape (`\n`, `\t` in JSON
 * text, `%2F` in a URL) is an edge, since the character it stands for is one.
 */
const escapedTextSource = (values: Iterable<string>): string =>
  edgedSource(
    values,
    String.raw`(?<![A-Za-z0-9_-](?<!\\[nrtbf]|%[0-9A-Fa-f]{2})|[A-Za-z0-9_-]\.)`,
    String.raw`(?<![A-Za-z0-9](?<!\\[nrtbf]|%[0-9A-Fa-f]{2}))`,
  );

/**
 * How a value can be written besides itself: percent-encoded (in a URL or a console link) and with
 * JSON's optional escaped slash (`\/aws\/lambda\/x`). Quotes and escapes around it are edges already.
 */
export const writtenForms = (value: string): string[] => {
  const forms = [value];
  const encoded = encodeURIComponent(value);
  if (encoded !== value) forms.push(encoded);
  if (value.includes('/')) forms.push(value.replaceAll('/', '\\/'));
  return forms;
};

const wrap = (values: readonly string[]): RegExp => new RegExp(escapedTextSource(values), 'g');

/** Values per compiled pattern: bounds the size of one regex and the cost of rebuilding the newest one. */
const SEGMENT_SIZE = 4000;

interface Segment {
  pattern: RegExp;
  count: number;
}

/**
 * Matchers over the map's entries, grown as the map grows. Entries are append-only, so full
 * segments are compiled once; only the newest, partial segment is rebuilt when values are added.
 * Matches are read in escaped text too (see escapedTextSource).
 */
export class KnownValueMatcher {
  readonly #segments: Segment[] = [];
  readonly #include: (entry: MaskEntry) => boolean;
  readonly #forms: (value: string) => readonly string[];
  /** Every form this matcher hunts, to the entry it stands for. */
  readonly #byForm = new Map<string, MaskEntry>();
  #pending: string[] = [];
  #seen = 0;
  readonly #values: string[] = [];

  /**
   * `include` picks the entries this matcher hunts, among those distinctive enough
   * (isHuntedEverywhere); `forms` lists how each is written (see writtenForms).
   */
  constructor(include: (entry: MaskEntry) => boolean = () => true, forms: (value: string) => readonly string[] = (value) => [value]) {
    this.#include = include;
    this.#forms = forms;
  }

  /** Every raw value this matcher hunts. */
  values(): readonly string[] {
    return this.#values;
  }

  /** Brings the matcher up to date with the map's entries; returns how many values it added. */
  update(entries: readonly MaskEntry[]): number {
    if (entries.length === this.#seen) return 0;
    const fresh = entries.slice(this.#seen).filter((entry) => isHuntedEverywhere(entry) && this.#include(entry));
    this.#seen = entries.length;
    if (fresh.length === 0) return 0;
    const forms: string[] = [];
    for (const entry of fresh) {
      this.#values.push(entry.value);
      for (const form of this.#forms(entry.value)) {
        if (this.#byForm.has(form)) continue;
        this.#byForm.set(form, entry);
        forms.push(form);
      }
    }
    const last = this.#segments.at(-1);
    if (last && last.count < SEGMENT_SIZE) this.#segments.pop();
    else this.#pending = [];
    this.#pending.push(...forms);
    while (this.#pending.length > SEGMENT_SIZE) {
      const full = this.#pending.slice(0, SEGMENT_SIZE);
      this.#segments.push({ pattern: wrap(full), count: full.length });
      this.#pending = this.#pending.slice(SEGMENT_SIZE);
    }
    this.#segments.push({ pattern: wrap(this.#pending), count: this.#pending.length });
    if (this.#pending.length === SEGMENT_SIZE) this.#pending = [];
    return fresh.length;
  }

  replace(text: string, replacement: (entry: MaskEntry) => string): string {
    let result = text;
    for (const segment of this.#segments) {
      result = result.replace(segment.pattern, (form) => {
        const entry = this.#byForm.get(form);
        return entry ? replacement(entry) : form;
      });
    }
    return result;
  }

  forEach(text: string, visit: (entry: MaskEntry) => void): void {
    for (const segment of this.#segments) {
      for (const match of text.matchAll(segment.pattern)) {
        const entry = this.#byForm.get(match[0]);
        if (entry) visit(entry);
      }
    }
  }
}
