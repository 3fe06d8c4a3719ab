/**
 * The shape every detector shares. Detectors are not run one by one: the scanner joins their
 * sources into one alternation with a group each, so a text is read once whatever their number.
 */

export interface DetectorMatch {
  /** The whole matched text. */
  readonly text: string;
  /** Where the match starts in `input`. */
  readonly offset: number;
  readonly input: string;
  /**
   * How much of the match the replacement stands for; the whole match unless the detector lowers
   * it. The rest stays in the text and is scanned again, so trailing punctuation a detector gives
   * back (`user=alice: token: x`) can still start the next detection.
   */
  consumed: number;
}

/** What a detector may do with a match; masking and leak-finding give different implementations. */
export interface ScanContext {
  /** The placeholder of a raw identifier (when masking, new values are added to the map). */
  placeholder(type: string, value: string): string;
  /** The placeholder of a raw value already in the map, without adding anything. */
  known(value: string): string | undefined;
  /** Makes a value known without writing it, e.g. the account id inside an ARN. */
  remember(type: string, value: string): void;
  /** The one-way marker that replaces a secret. */
  redact(kind: string): string;
  /** Scans part of a match again: a URL path, or a field value a detector declined. */
  rescan(segment: string): string;
}

/**
 * Where a detector's match can start, which decides the gate it sits behind in the combined
 * pattern. Most text is plain words; a gate rejects a position with one check instead of every
 * detector trying and failing there.
 *  - `anywhere`: no shared gate (detectors that start at a rarer character: `:`, `=`, `--`, a digit).
 *  - `word`: at the start of a token (not after a letter, digit or underscore).
 *  - `punctuatedWord`: at the start of a token whose word characters are followed by one of
 *    `- . @ : / + % *` (host names, addresses, ARNs, URLs, ids): plain words never get this far.
 */
export type DetectorPlacement = 'anywhere' | 'word' | 'punctuatedWord';

export interface Detector {
  /** Also the name of its group in the combined pattern: letters only, unique. */
  readonly id: string;
  readonly placement: DetectorPlacement;
  /**
   * The whole match is the raw value (an address, a host, an id): when the map already knows it,
   * its placeholder is the answer and the detector is not consulted. Most matches in a long
   * investigation are repeats, so this skips the parsing they would otherwise repeat.
   */
  readonly wholeValue?: boolean;
  /**
   * Regex source without flags. No capturing groups, except a named one that a named
   * backreference (`\k<name>`) needs: every capture costs a string per match in the combined
   * scan, so a detector re-reads its own match text instead.
   */
  readonly source: string;
  /**
   * Returns the replacement of the match. A detector that declines returns the text unchanged or,
   * when its match could hide something else, `rescan`s the part it consumed.
   */
  handle(match: DetectorMatch, context: ScanContext): string;
}
