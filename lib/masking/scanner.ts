import type { Detector, ScanContext } from './detector.ts';
import { configuredDetectors } from './configured-detectors.ts';
import { fieldDetectors, proseFieldDetectors } from './field-detectors.ts';
import { identifierDetectors } from './identifier-detectors.ts';
import type { ResolvedMaskingOptions } from './options.ts';
import { numberGroups } from './regex-groups.ts';
import { secretDetectors } from './secret-detectors.ts';

/** A token starts here: the previous character is not a letter, digit or underscore. */
const WORD_GATE = '(?<![A-Za-z0-9_])';
/** The token's word characters run into punctuation that identifiers have and words do not. */
const PUNCTUATED_WORD_GATE = '(?=[A-Za-z0-9_]*[-.@:/+%])';

/**
 * The single pass: every detector's source joined into one alternation, each in its own group.
 * The regex engine finds the leftmost match; among detectors that match at the same position the
 * first in order wins, which is how "most specific wins" is decided: secrets first, then fields,
 * then a team's own patterns, then token shapes from the most structured (ARN, URL) to the least.
 * One `replace` reads the text once, whatever the number of detectors.
 */
export class Scanner {
  readonly #detectors: readonly Detector[];
  /** Group number of each detector's group, parallel to #detectors. */
  readonly #detectorGroups: readonly number[];
  readonly #pattern: RegExp;

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
    const anywhere = ordered.filter((detector) => detector.placement === 'anywhere');
    const word = ordered.filter((detector) => detector.placement === 'word');
    const punctuated = ordered.filter((detector) => detector.placement === 'punctuatedWord');
    this.#detectors = [...anywhere, ...word, ...punctuated];
    const group = (detector: Detector): string => `(?<${detector.id}>${detector.source})`;
    const wordAlternatives = [...word.map(group), `${PUNCTUATED_WORD_GATE}(?:${punctuated.map(group).join('|')})`];
    const source = [...anywhere.map(group), `${WORD_GATE}(?:${wordAlternatives.join('|')})`].join('|');

    // Named groups are slow to match (V8 builds a `groups` object per match), so they are only
    // used to find each detector's group number.
    const numbered = numberGroups(source);
    this.#detectorGroups = this.#detectors.map((detector) => numbered.names.indexOf(detector.id));
    this.#pattern = new RegExp(numbered.source, 'g');
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
      rescan: (segment) => this.scan(segment, probe),
    };
    return this.scan(value, probe) === WHOLE;
  }

  /**
   * Replaces every detection in `text` by what its detector returns. Safe to call again from inside
   * a detector (`rescan`): a global `replace` collects all matches before it calls any replacer.
   */
  scan(text: string, context: ScanContext): string {
    if (text === '') return text;
    const detectors = this.#detectors;
    const detectorGroups = this.#detectorGroups;
    const match = { text: '', offset: 0, input: text };
    return text.replace(this.#pattern, function replaceDetection(matched: string) {
      for (let index = 0; index < detectors.length; index += 1) {
        // eslint-disable-next-line prefer-rest-params -- `arguments` avoids copying every group per match
        if (arguments[detectorGroups[index]!] === undefined) continue;
        const detector = detectors[index]!;
        if (detector.wholeValue) {
          const known = context.known(matched);
          if (known !== undefined) return known;
        }
        match.text = matched;
        match.offset = arguments[arguments.length - 2] as number;
        return detector.handle(match, context);
      }
      return matched;
    });
  }
}
