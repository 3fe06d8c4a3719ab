import type { Detector, ScanContext } from './detector.ts';
import { configuredDetectors } from './configured-detectors.ts';
import { fieldDetectors, proseFieldDetectors } from './field-detectors.ts';
import { identifierDetectors } from './identifier-detectors.ts';
import { knownValueSource } from './known-values.ts';
import type { ResolvedMaskingOptions } from './options.ts';
import { numberGroups } from './regex-groups.ts';
import { secretDetectors } from './secret-detectors.ts';

/** A token starts here: the previous character is not a letter, digit or underscore. */
const WORD_GATE = '(?<![A-Za-z0-9_])';
/** The token's word characters run into punctuation that identifiers have and words do not (`*`: a starred-out e-mail). */
const PUNCTUATED_WORD_GATE = '(?=[A-Za-z0-9_]*[-.@:/+%*])';

/** Past this many known values the scan leaves them to a separate pass, to keep its own pattern small. */
const MAX_KNOWN_VALUES_IN_SCAN = 2000;

interface CompiledScan {
  detectors: readonly Detector[];
  /** Group number of each detector's group, parallel to `detectors`. */
  groups: readonly number[];
  pattern: RegExp;
}

/**
 * The single pass: every detector's source joined into one alternation, each in its own group,
 * behind shared gates (see DetectorPlacement). The regex engine finds the leftmost match; among
 * detectors that match at the same position the first in order wins, which is how "most specific
 * wins" is decided: secrets first, then fields, then a team's own patterns, then token shapes from
 * the most structured (ARN, URL) to the least, and known values last. One pass reads the text
 * once, whatever the number of detectors.
 */
export class Scanner {
  readonly #ordered: readonly Detector[];
  /** The detectors alone: what `findsAlone` asks. */
  readonly #base: CompiledScan;
  /** The detectors plus the known values that need context to be found (see setKnownValues). */
  #current: CompiledScan;
  #coversKnownValues = true;

  constructor(options: ResolvedMaskingOptions) {
    const ordered = [
      ...secretDetectors,
      ...fieldDetectors,
      ...configuredDetectors(options),
      ...proseFieldDetectors,
      ...identifierDetectors,
    ];
    const ids = new Set<string>();
    for (const detector of ordered) {
      if (!/^[A-Za-z][A-Za-z0-9]*$/.test(detector.id) || ids.has(detector.id)) {
        throw new Error(`detector id ${detector.id} must be unique letters and digits`);
      }
      ids.add(detector.id);
    }
    this.#ordered = ordered;
    this.#base = compile(ordered);
    this.#current = this.#base;
  }

  /**
   * Values learned from context (an account id from an ARN, a user from `user=`) that the
   * detectors cannot find alone. The scan then masks them wherever they stand as a token, in the
   * same pass. Returns false when there are too many to carry, and the caller must sweep them.
   */
  setKnownValues(values: readonly string[]): boolean {
    this.#coversKnownValues = values.length <= MAX_KNOWN_VALUES_IN_SCAN;
    if (values.length === 0 || !this.#coversKnownValues) {
      this.#current = this.#base;
    } else {
      const knownValue: Detector = {
        id: 'knownValue',
        placement: 'word',
        wholeValue: true,
        source: knownValueSource(values),
        handle: (match, context) => context.known(match.text) ?? match.text,
      };
      // Last in order: any detector that matches at the same place knows better.
      this.#current = compile([...this.#ordered, knownValue]);
    }
    return this.#coversKnownValues;
  }

  get coversKnownValues(): boolean {
    return this.#coversKnownValues;
  }

  /**
   * Whether the scan, given this value alone, replaces all of it: true for an address, a host with
   * a known TLD, an ARN; false for a 12-digit account id or a user name, which need context.
   */
  findsAlone(value: string): boolean {
    const WHOLE = '\u0000';
    const probe: ScanContext = {
      placeholder: () => WHOLE,
      known: () => undefined,
      remember: () => undefined,
      redact: () => '\u0001',
      rescan: (segment) => scanWith(this.#base, segment, probe),
    };
    return scanWith(this.#base, value, probe) === WHOLE;
  }

  /**
   * Replaces every detection in `text` by what its detector returns; detectors may call it again
   * (`rescan`). `notes.glued` is set when a replacement ended right before a letter or digit.
   */
  scan(text: string, context: ScanContext, notes?: ScanNotes): string {
    return scanWith(this.#current, text, context, notes);
  }
}

const compile = (ordered: readonly Detector[]): CompiledScan => {
  const anywhere = ordered.filter((detector) => detector.placement === 'anywhere');
  const word = ordered.filter((detector) => detector.placement === 'word');
  const punctuated = ordered.filter((detector) => detector.placement === 'punctuatedWord');
  // Dispatch order (which group matched) does not change what matches; the frequent ones come first.
  const detectors = [...punctuated, ...anywhere, ...word];
  const group = (detector: Detector): string => `(?<${detector.id}>${detector.source})`;
  const wordAlternatives = [
    ...word.filter((detector) => detector.id !== 'knownValue').map(group),
    `${PUNCTUATED_WORD_GATE}(?:${punctuated.map(group).join('|')})`,
    ...word.filter((detector) => detector.id === 'knownValue').map(group),
  ];
  const source = [...anywhere.map(group), `${WORD_GATE}(?:${wordAlternatives.join('|')})`].join('|');
  // Named groups are slow to match (V8 builds a `groups` object per match), so they are only
  // used to find each detector's group number.
  const numbered = numberGroups(source);
  return {
    detectors,
    groups: detectors.map((detector) => numbered.names.indexOf(detector.id)),
    pattern: new RegExp(numbered.source, 'g'),
  };
};

/**
 * What a scan observed besides its output. `glued`: a replacement ended right before text that
 * could start a token (see startsAnotherToken). Detectors read token edges, and a placeholder's
 * `>` is an edge where the raw value's last character was not, so text glued to a replacement can
 * read differently when scanned again; the caller then scans the output once more.
 */
export interface ScanNotes {
  glued: boolean;
}

/**
 * Whether the text at `index`, right after a replacement, could be read as the start of a token
 * once the replacement's `>` or `]` stands before it: a word character, a log group path, or `::`.
 */
const GLUED_START = /[A-Za-z0-9_]|\/(?:aws|ecs|eks)\/|::/y;
const startsAnotherToken = (text: string, index: number): boolean => {
  GLUED_START.lastIndex = index;
  return GLUED_START.test(text);
};

/**
 * Replaces every detection in `text` by what its detector returns. An `exec` loop with string
 * concatenation: in V8 it is markedly cheaper than `replace` with a callback, which passes every
 * group of the combined pattern as an argument on every match.
 */
const scanWith = (compiled: CompiledScan, text: string, context: ScanContext, notes?: ScanNotes): string => {
  if (text === '') return text;
  const { detectors, groups, pattern } = compiled;
  const match = { text: '', offset: 0, input: text, consumed: 0 };
  let output = '';
  let copied = 0;
  pattern.lastIndex = 0;
  for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
    const matched = found[0];
    const offset = found.index;
    let end = offset + matched.length;
    let replacement = matched;
    for (let index = 0; index < detectors.length; index += 1) {
      if (found[groups[index]!] === undefined) continue;
      const detector = detectors[index]!;
      const known = detector.wholeValue ? context.known(matched) : undefined;
      if (known !== undefined) {
        replacement = known;
      } else {
        match.text = matched;
        match.offset = offset;
        match.consumed = matched.length;
        replacement = detector.handle(match, context);
        end = offset + match.consumed;
      }
      break;
    }
    const replaced = end - offset === matched.length ? replacement !== matched : replacement !== matched.slice(0, end - offset);
    if (replaced) {
      output += text.slice(copied, offset) + replacement;
      copied = end;
      if (notes && end < text.length && startsAnotherToken(text, end)) notes.glued = true;
    }
    // A detector may have scanned a segment with the same pattern (rescan); resume after this match.
    pattern.lastIndex = end > offset ? end : end + 1;
  }
  pattern.lastIndex = 0;
  return copied === 0 ? text : output + text.slice(copied);
};
