import { maskMapStateSchema, type MaskMapState } from './map-state.ts';
import { formatPlaceholder, parsePlaceholder } from './placeholders.ts';

export interface MaskEntry {
  readonly placeholder: string;
  readonly type: string;
  readonly value: string;
}

/**
 * The raw value <-> placeholder map of one investigation. A raw value keeps the first placeholder it
 * was given, whatever detector sees it later, so the model reads one stable name per thing.
 */
export class PlaceholderMap {
  readonly #byValue = new Map<string, MaskEntry>();
  readonly #byPlaceholder = new Map<string, MaskEntry>();
  readonly #lastNumber = new Map<string, number>();
  readonly #entries: MaskEntry[] = [];
  #version = 0;

  constructor(state?: MaskMapState) {
    if (!state) return;
    const parsed = maskMapStateSchema.parse(state);
    for (const entry of parsed.entries) {
      const placeholder = parsePlaceholder(entry.placeholder);
      if (!placeholder || placeholder.type !== entry.type) {
        throw new Error(`mask map entry ${entry.placeholder} does not match its type ${entry.type}`);
      }
      if (this.#byValue.has(entry.value) || this.#byPlaceholder.has(entry.placeholder)) {
        throw new Error(`mask map state has a duplicate entry for ${entry.placeholder}`);
      }
      this.#add({ placeholder: entry.placeholder, type: entry.type, value: entry.value });
      this.#lastNumber.set(entry.type, Math.max(this.#lastNumber.get(entry.type) ?? 0, placeholder.n));
    }
  }

  /** Bumped on every new entry, so derived matchers know when to rebuild. */
  get version(): number {
    return this.#version;
  }

  get size(): number {
    return this.#entries.length;
  }

  lookup(value: string): MaskEntry | undefined {
    return this.#byValue.get(value);
  }

  resolve(placeholder: string): MaskEntry | undefined {
    return this.#byPlaceholder.get(placeholder);
  }

  /** The placeholder of a raw value, allocating the next number of its type when it is new. */
  placeholderFor(type: string, value: string): string {
    const known = this.#byValue.get(value);
    if (known) return known.placeholder;
    const n = (this.#lastNumber.get(type) ?? 0) + 1;
    this.#lastNumber.set(type, n);
    const entry = { placeholder: formatPlaceholder(type, n), type, value };
    this.#add(entry);
    return entry.placeholder;
  }

  /** Entries in the order they were added; entries never change, so slices of it stay valid. */
  entries(): readonly MaskEntry[] {
    return this.#entries;
  }

  toState(): MaskMapState {
    return { version: 1, entries: this.#entries.map((entry) => ({ ...entry })) };
  }

  #add(entry: MaskEntry): void {
    this.#byValue.set(entry.value, entry);
    this.#byPlaceholder.set(entry.placeholder, entry);
    this.#entries.push(entry);
    this.#version += 1;
  }
}
