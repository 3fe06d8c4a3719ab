import type { ScanContext } from './detector.ts';
import { fieldRoleOfName, maskFieldValue, type FieldRole } from './field-context.ts';
import { mapLeaves, mapStrings, isPlainObject, parseJsonDocument } from './json-documents.ts';
import { KnownValueMatcher, writtenForms } from './known-values.ts';
import type { MaskMapState } from './map-state.ts';
import { redactSecretKeysNearKeyIds } from './nearby-secret-keys.ts';
import { redactPrivateKeyBlocks } from './private-key-blocks.ts';
import { resolveMaskingOptions, type MaskingOptions } from './options.ts';
import { PlaceholderMap } from './placeholder-map.ts';
import { PlaceholderType, placeholderPattern, redactionMarker } from './placeholders.ts';
import { Scanner, type ScanNotes } from './scanner.ts';

export interface Leak {
  /** The placeholder type of a known value, or `secret:<kind>` for a secret. */
  type: string;
  /** The placeholder the value should have been written as (known values only). */
  placeholder?: string;
}

/** Types whose every value the scan recognises by shape alone, wherever it stands: no need to probe them. */
const SELF_EVIDENT_TYPES = new Set<string>([
  PlaceholderType.arn,
  PlaceholderType.ip,
  PlaceholderType.email,
  PlaceholderType.resourceId,
  PlaceholderType.iamId,
  PlaceholderType.pod,
]);

/**
 * Rare: a replacement glued to the next word changes that word's edges (a placeholder's `>` is an
 * edge where the raw value was not), so a second scan reads the output as the leak check will.
 */
const scanTwiceIfGlued = (scanner: Scanner, text: string, context: ScanContext): string => {
  const notes: ScanNotes = { glued: false };
  const scanned = scanner.scan(text, context, notes);
  return notes.glued ? scanner.scan(scanned, context) : scanned;
};

/**
 * AWS writes some fields as name/value pairs (metric dimensions, tags, ECS environment entries):
 * `{"Name": "ClusterName", "Value": "prod"}`. The value then has the role its name gives it.
 */
const nameValueRole = (value: Record<string, unknown>): FieldRole | undefined => {
  const name = value['Name'] ?? value['name'] ?? value['Key'] ?? value['key'];
  return typeof name === 'string' ? fieldRoleOfName(name) : undefined;
};

/** Secrets that span lines or sit next to their key id are redacted before the scan (see their modules). */
const redactBeforeScan = (text: string): string =>
  redactSecretKeysNearKeyIds(
    redactPrivateKeyBlocks(text, () => redactionMarker('private_key')),
    () => redactionMarker('aws_secret_access_key'),
  );

/**
 * The masking chokepoint of one investigation. Identifiers become stable placeholders
 * (`<ARN_3>`, `<IP_1>`) that `unmask` restores before a tool runs; secrets become
 * `[REDACTED:kind]` and are never stored. The map travels between workflow steps as `state()`.
 */
export class Masker {
  readonly #map: PlaceholderMap;
  readonly #scanner: Scanner;
  /**
   * Known values the detectors cannot find alone (learned from context). The scan carries them as
   * one more detector; a value learned during a scan is swept from that scan's output.
   */
  readonly #learned: KnownValueMatcher;
  /** Every known value; the leak check's net. Built on first use. */
  #everyKnown: KnownValueMatcher | undefined;
  readonly #maskContext: ScanContext;

  constructor(options?: MaskingOptions, state?: MaskMapState) {
    this.#map = new PlaceholderMap(state);
    this.#scanner = new Scanner(resolveMaskingOptions(options));
    this.#learned = new KnownValueMatcher((entry) => !SELF_EVIDENT_TYPES.has(entry.type) && !this.#scanner.findsAlone(entry.value));
    const map = this.#map;
    const scanner = this.#scanner;
    const context: ScanContext = {
      placeholder: (type, value) => map.placeholderFor(type, value),
      known: (value) => map.lookup(value)?.placeholder,
      remember: (type, value) => {
        map.placeholderFor(type, value);
      },
      redact: (kind) => redactionMarker(kind),
      rescan: (segment) => scanTwiceIfGlued(scanner, segment, context),
    };
    this.#maskContext = context;
  }

  /** Identifiers to placeholders, secrets to `[REDACTED:kind]`. */
  mask(text: string): string {
    if (text === '') return text;
    this.#syncLearned();
    const scanned = this.#scan(text);
    // Values learned in this scan may stand unmasked earlier in the same text.
    return this.#syncLearned() ? this.#sweep(scanned) : scanned;
  }

  /** A deep copy with every string value and object key masked. Field names give context (`accountId`, `password`). */
  maskJson<T>(value: T): T {
    this.#syncLearned();
    const scanned = this.#maskValue(value, undefined);
    // A value learned late in the walk (a `bucketName` after a message naming the bucket) is masked everywhere.
    return (this.#syncLearned() ? mapLeaves(scanned, (text) => this.#sweep(text)) : scanned) as T;
  }

  /**
   * `maskJson`, then proof: what the leak check would flag is masked before it is checked. A
   * second pass replaces every value the check hunts, learned anywhere in the value, in every form
   * it is written in (inside escaped quotes, percent-encoded, after a JSON escape); a string that
   * still leaks is masked once more as text. `leaks` is what remains, and a request with any must
   * not be sent.
   */
  maskJsonForModel<T>(value: T): { masked: T; leaks: Leak[] } {
    const first = this.maskJson(value);
    const sweep = (text: string): string => this.#everyKnownMatcher().replace(text, (entry) => entry.placeholder);
    const swept = mapLeaves(first, sweep);
    const remasked = mapLeaves(swept, (text) => (this.findLeaks(text).length === 0 ? text : sweep(this.mask(text))));
    return { masked: remasked as T, leaks: this.findLeaksJson(remasked) };
  }

  /** Placeholders back to raw values; redactions stay redacted; unknown placeholders are left as written. */
  unmask(text: string): string {
    return text.replace(placeholderPattern, (placeholder) => this.#map.resolve(placeholder)?.value ?? placeholder);
  }

  unmaskJson<T>(value: T): T {
    return mapStrings(value, (text) => this.unmask(text)) as T;
  }

  /**
   * Known raw values and detectable secrets present in `text`. A non-empty result blocks a model
   * request. Never returns a raw value. It runs the same scan as masking plus a net over every
   * known value, so anything masking would have replaced is reported.
   */
  findLeaks(text: string): Leak[] {
    const leaks = new Map<string, Leak>();
    const map = this.#map;
    const scanner = this.#scanner;
    const noteKnown = (value: string): void => {
      const entry = map.lookup(value);
      if (entry) leaks.set(entry.placeholder, { type: entry.type, placeholder: entry.placeholder });
    };
    const noteSecret = (kind: string): string => {
      leaks.set(`secret:${kind}`, { type: `secret:${kind}` });
      return redactionMarker(kind);
    };
    const context: ScanContext = {
      placeholder: (_type, value) => {
        noteKnown(value);
        return value;
      },
      known: (value) => {
        noteKnown(value);
        return map.lookup(value)?.placeholder;
      },
      remember: (_type, value) => noteKnown(value),
      redact: noteSecret,
      rescan: (segment) => scanner.scan(segment, context),
    };
    this.#syncLearned();
    redactSecretKeysNearKeyIds(text, () => noteSecret('aws_secret_access_key'));
    scanner.scan(redactPrivateKeyBlocks(text, () => noteSecret('private_key')), context);
    this.#everyKnownMatcher().forEach(text, (entry) => leaks.set(entry.placeholder, { type: entry.type, placeholder: entry.placeholder }));
    return [...leaks.values()];
  }

  /**
   * `findLeaks` over every string and object key of a JSON-like value, each read on its own as
   * `maskJson` masked it (a string holding a JSON document, leaf by leaf). Prefer it to
   * `findLeaks(JSON.stringify(value))`: re-quoting adds a level of escapes (`\\\"`), and text
   * right at the edge of an escaped quote can read differently.
   */
  findLeaksJson(value: unknown): Leak[] {
    const leaks = new Map<string, Leak>();
    mapLeaves(value, (text) => {
      for (const leak of this.findLeaks(text)) leaks.set(leak.placeholder ?? leak.type, leak);
      return text;
    });
    return [...leaks.values()];
  }

  /** The map as plain JSON, a new object each time; contains no secrets. */
  state(): MaskMapState {
    return this.#map.toState();
  }

  /** The leak check's net: every known value the map hunts everywhere, in every written form. */
  #everyKnownMatcher(): KnownValueMatcher {
    this.#everyKnown ??= new KnownValueMatcher(undefined, writtenForms);
    this.#everyKnown.update(this.#map.entries());
    return this.#everyKnown;
  }

  #scan(text: string): string {
    return this.#scanPrepared(redactBeforeScan(text));
  }

  #scanPrepared(text: string): string {
    return scanTwiceIfGlued(this.#scanner, text, this.#maskContext);
  }

  /**
   * Takes in values learned since the last call; true when there were any. The scan is then
   * recompiled with them, unless there are too many, in which case every scan is followed by a sweep.
   */
  #syncLearned(): boolean {
    if (this.#learned.update(this.#map.entries()) === 0) return !this.#scanner.coversKnownValues;
    this.#scanner.setKnownValues(this.#learned.values());
    return true;
  }

  #sweep(text: string): string {
    return this.#learned.replace(text, (entry) => entry.placeholder);
  }

  #maskValue(value: unknown, role: FieldRole | undefined): unknown {
    if (typeof value === 'string') {
      // A JSON document in a string (a tool result, a structured log line) is masked as the value it holds.
      const document = role?.role === 'secret' ? undefined : parseJsonDocument(value);
      if (document !== undefined) return JSON.stringify(this.#maskValue(document, undefined));
      if (!role) return this.#scan(value);
      // Key blocks and key pairs come out first, whatever the field says the value is.
      const prepared = redactBeforeScan(value);
      return prepared === value ? maskFieldValue(role, value, this.#maskContext) : this.#scanPrepared(prepared);
    }
    if (typeof value === 'number' && role) return this.#maskNumberField(value, role);
    if (Array.isArray(value)) return value.map((item) => this.#maskValue(item, role));
    if (isPlainObject(value)) {
      const copy: Record<string, unknown> = {};
      const pairRole = nameValueRole(value);
      for (const [key, item] of Object.entries(value)) {
        copy[this.#scan(key)] = this.#maskValue(item, pairRole && /^value$/i.test(key) ? pairRole : fieldRoleOfName(key));
      }
      return copy;
    }
    return value;
  }

  /**
   * Numbers stay numbers, with two exceptions where the field name leaves no doubt: a secret
   * (a numeric PIN or password) and a 12-digit account id stored as a number.
   */
  #maskNumberField(value: number, role: FieldRole): unknown {
    if (role.role === 'secret' && role.strong) return redactionMarker(role.kind);
    if (role.role === 'account' && Number.isInteger(value) && String(value).length === 12) {
      return this.#map.placeholderFor(PlaceholderType.account, String(value));
    }
    return value;
  }
}
