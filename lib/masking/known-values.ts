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

const CONTEXT_TYPES = new Set<string>([PlaceholderType.user, PlaceholderType.bucket, PlaceholderType.logGroup]);

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
  // A user, bucket or log group called by a single plain word is only masked where context says so.
  return /[-_.@/\d\s]/.test(value) || /[a-z][A-Z]/.test(value);
};

/**
 * A known value as a whole token, with the detectors' token edges: not inside a longer word, not
 * a later label of a longer host (`api.orders.internal`), not its first labels (`orders.internal.example`).
 */
export const knownValueSource = (values: Iterable<string>): string =>
  `(?<![A-Za-z0-9_-]|[A-Za-z0-9_-]\\.)(?:${literalTrieSource(values)})(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`;

const wrap = (values: readonly string[]): RegExp => new RegExp(knownValueSource(values), 'g');

/** Values per compiled pattern: bounds the size of one regex and the cost of rebuilding the newest one. */
const SEGMENT_SIZE = 4000;

interface Segment {
  pattern: RegExp;
  count: number;
}

/**
 * Matchers over the map's entries, grown as the map grows. Entries are append-only, so full
 * segments are compiled once; only the newest, partial segment is rebuilt when values are added.
 */
export class KnownValueMatcher {
  readonly #segments: Segment[] = [];
  readonly #lookup: (value: string) => MaskEntry | undefined;
  readonly #include: (entry: MaskEntry) => boolean;
  #pending: string[] = [];
  #seen = 0;
  readonly #values: string[] = [];

  /** `include` picks the entries this matcher hunts, among those distinctive enough (isHuntedEverywhere). */
  constructor(lookup: (value: string) => MaskEntry | undefined, include: (entry: MaskEntry) => boolean = () => true) {
    this.#lookup = lookup;
    this.#include = include;
  }

  /** Every value this matcher hunts. */
  values(): readonly string[] {
    return this.#values;
  }

  /** Brings the matcher up to date with the map's entries; returns how many values it added. */
  update(entries: readonly MaskEntry[]): number {
    if (entries.length === this.#seen) return 0;
    const fresh = entries
      .slice(this.#seen)
      .filter((entry) => isHuntedEverywhere(entry) && this.#include(entry))
      .map((entry) => entry.value);
    this.#seen = entries.length;
    if (fresh.length === 0) return 0;
    this.#values.push(...fresh);
    const last = this.#segments.at(-1);
    if (last && last.count < SEGMENT_SIZE) this.#segments.pop();
    else this.#pending = [];
    this.#pending.push(...fresh);
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
      result = result.replace(segment.pattern, (value) => {
        const entry = this.#lookup(value);
        return entry ? replacement(entry) : value;
      });
    }
    return result;
  }

  forEach(text: string, visit: (entry: MaskEntry) => void): void {
    for (const segment of this.#segments) {
      for (const match of text.matchAll(segment.pattern)) {
        const entry = this.#lookup(match[0]);
        if (entry) visit(entry);
      }
    }
  }
}
