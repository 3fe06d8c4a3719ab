/**
 * Strings that hold a whole JSON document, as `JSON.stringify` writes it: a tool result sent to
 * the model as text, a structured log line inside a result. Such a string is read as the document
 * it holds, leaf by leaf, so field names give context inside it and its escapes (`\"`, `\n`) stand
 * where they belong instead of next to the values.
 */

/** The parsed object or array, or undefined when the text is not exactly `JSON.stringify` of one (the re-encoding would change it). */
export const parseJsonDocument = (text: string): unknown => {
  const first = text.charCodeAt(0);
  // `{` or `[` and the matching close: most strings end here.
  if (text.length < 2 || (first !== 123 && first !== 91) || text.charCodeAt(text.length - 1) !== (first === 123 ? 125 : 93)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return JSON.stringify(parsed) === text ? parsed : undefined;
};

export const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};

/** Copies a JSON-like value, transforming every string value and every object key. */
export const mapStrings = (value: unknown, transform: (text: string) => string): unknown => {
  if (typeof value === 'string') return transform(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, transform));
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[transform(key)] = mapStrings(item, transform);
    return copy;
  }
  return value;
};

/** Like mapStrings, but a string holding a JSON document is transformed leaf by leaf and written back in the same form. */
export const mapLeaves = (value: unknown, transform: (text: string) => string): unknown =>
  mapStrings(value, (text) => {
    const document = parseJsonDocument(text);
    return document === undefined ? transform(text) : JSON.stringify(mapLeaves(document, transform));
  });
