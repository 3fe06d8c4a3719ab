import type { Detector } from './detector.ts';
import type { ResolvedMaskingOptions } from './options.ts';
import { PlaceholderType, normalizePlaceholderType } from './placeholders.ts';
import { escapeRegExp } from './regex-text.ts';

/**
 * Detectors that come from settings: a team's own identifier patterns, literal names (customers,
 * code names), and the service names a team chooses to hide.
 */

const literalDetector = (id: string, type: string, names: readonly string[]): Detector | undefined => {
  if (names.length === 0) return undefined;
  const alternatives = [...names].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
  return {
    id,
    placement: 'word',
    // Whole tokens only, and not the first label of a host name (`orders.internal` is one host).
    source: String.raw`(?<![A-Za-z0-9_-])(?:${alternatives})(?![A-Za-z0-9_-]|\.[A-Za-z0-9])`,
    handle: (match, context) => context.placeholder(type, match.text),
  };
};

/** Detectors built from settings: extra patterns (`anywhere`) and literal names (`word`). */
export const configuredDetectors = (options: ResolvedMaskingOptions): Detector[] => {
  const configured: Detector[] = options.extraPatterns.map((extra, index) => {
    const type = normalizePlaceholderType(extra.type);
    return {
      id: `extra${index}`,
      placement: 'anywhere',
      source: `(?:${extra.pattern})`,
      handle: (match, context) => (match.text === '' ? match.text : context.placeholder(type, match.text)),
    };
  });
  for (const literal of [
    literalDetector('serviceName', PlaceholderType.service, options.serviceNames),
    literalDetector('literalName', PlaceholderType.name, options.names),
  ]) {
    if (literal) configured.push(literal);
  }
  return configured;
};
