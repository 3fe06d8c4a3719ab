/**
 * Caps one tool result's `data` to a token budget, keeping its shape so the model reads it the way it
 * reads an uncapped one. In order of preference:
 *   1. log lines (`data.lines` of `{timestamp, service, level, message}` or of strings) go through the
 *      log policy (line-selection.ts): head, tail, salient middle, and `omittedLines` / `omittedTemplates`
 *      saying what was left out;
 *   2. metric series (`data.series` of `{points}`) keep the ones that moved and name the ones dropped
 *      (cap-metric-series.ts);
 *   3. any other large array (metric `series`, `changes`, ...) keeps its first and last items, with a
 *      sibling `<key>Omitted` count (or a marker item inside arrays of arrays), and very long strings keep
 *      their start and end;
 *   4. as a last resort the JSON text itself is cut, with a marker saying how much is shown.
 * It never throws: a result that cannot be capped sensibly is still returned as something that fits.
 */
import { clipLine, lineLimitFor } from './cap-log-lines.ts';
import { capMetricSeriesIn } from './cap-metric-series.ts';
import { selectLines, type OmittedTemplate } from './line-selection.ts';
import { estimateTokens } from './token-estimate.ts';

export interface CappedToolResult {
  data: unknown;
  /** False when the data already fitted and is returned as it was. */
  capped: boolean;
  /** The data's size before capping. */
  originalTokens: number;
}

export function capToolResult(data: unknown, capTokens: number): CappedToolResult {
  if (data === undefined || typeof data === 'function' || typeof data === 'symbol') return { data, capped: false, originalTokens: 0 };
  const json = safeJson(data);
  if (json === undefined) {
    // A value JSON cannot carry (a cycle, a BigInt) cannot be sent as it is; its string form is what is left.
    const text = safeString(data);
    const originalTokens = estimateTokens(text);
    return { data: originalTokens <= capTokens ? text : truncatedJson(text, capTokens), capped: true, originalTokens };
  }
  const originalTokens = estimateTokens(json);
  if (originalTokens <= capTokens) return { data, capped: false, originalTokens };
  const fits = (value: unknown) => {
    const text = safeJson(value);
    return text !== undefined && estimateTokens(text) <= capTokens;
  };
  for (const strategy of [capLogLinesIn, capMetricSeriesIn, shrinkLargestParts]) {
    try {
      const candidate = strategy(JSON.parse(json), capTokens);
      if (candidate !== undefined && fits(candidate)) return { data: candidate, capped: true, originalTokens };
    } catch {
      // A strategy that trips over an odd shape just yields to the next one.
    }
  }
  return { data: truncatedJson(json, capTokens), capped: true, originalTokens };
}

// ── 1. Log lines ──────────────────────────────────────────────────────────────────────────────────────

interface LogObject {
  timestamp?: unknown;
  service?: unknown;
  level?: unknown;
  message: string;
  fields?: unknown;
}

const isLogObject = (value: unknown): value is LogObject =>
  isPlainObject(value) && typeof value.message === 'string';

/** `timestamp service LEVEL message {fields}`: the text templates and salience are read from. */
export function renderLogLine(line: LogObject): string {
  const parts = [line.timestamp, line.service, typeof line.level === 'string' ? line.level.toUpperCase() : line.level]
    .filter((part) => part !== undefined && part !== null && part !== '')
    .map(String);
  parts.push(line.message);
  if (line.fields !== undefined) parts.push(safeJson(line.fields) ?? '');
  return parts.join(' ');
}

/** A log object whose rendering is longer than the limit keeps a clipped message and drops its fields. */
function clipLogObject(line: LogObject, limit: number): LogObject {
  const rendered = renderLogLine(line);
  if (rendered.length <= limit) return line;
  const { fields, ...rest } = line;
  const prefixLength = rendered.length - line.message.length - (fields === undefined ? 0 : (safeJson(fields)?.length ?? 0) + 1);
  return { ...rest, message: clipLine(line.message, Math.max(20, limit - prefixLength)), ...(fields === undefined ? {} : { fieldsOmitted: true }) };
}

type LineItem = { kind: 'log'; value: LogObject } | { kind: 'text'; value: string };

/** `data.lines` when it is (mostly) log objects or strings; anything else in it is rendered as JSON. */
function lineItemsOf(data: unknown): LineItem[] | undefined {
  if (!isPlainObject(data) || !Array.isArray(data.lines) || data.lines.length === 0) return undefined;
  const lines: unknown[] = data.lines;
  const logLike = lines.filter((line) => isLogObject(line) || typeof line === 'string').length;
  if (logLike < lines.length / 2) return undefined;
  return lines.map((line): LineItem =>
    isLogObject(line) ? { kind: 'log', value: line } : { kind: 'text', value: typeof line === 'string' ? line : (safeJson(line) ?? String(line)) },
  );
}

function capLogLinesIn(data: unknown, capTokens: number): unknown {
  const items = lineItemsOf(data);
  if (!items || !isPlainObject(data)) return undefined;
  const { lines: _lines, ...rest } = data;
  // Whatever else the result carries (the tool's own template list, counts) gets at most a third.
  const restJson = safeJson(rest) ?? '{}';
  const others = estimateTokens(restJson) > capTokens / 3 ? shrinkLargestParts(JSON.parse(restJson), Math.floor(capTokens / 3)) : rest;
  if (!isPlainObject(others)) return undefined;

  const hasTimestamps = items.every((item) => item.kind === 'log' && item.value.timestamp !== undefined);
  const describe = (entry: OmittedTemplate) => describeTemplate(entry, items, hasTimestamps);
  const wrapper = { ...data, ...others, lines: [], omittedLines: items.length, omittedTemplates: [] };
  const limit = lineLimitFor(capTokens);
  const clipped = items.map((item) => (item.kind === 'log' ? clipLogObject(item.value, limit) : clipLine(item.value, limit)));

  // The estimate is additive, so costs summed per line hold for the whole; the loop only guards the
  // rare case where the assembled JSON still comes out larger (it then asks for less).
  const texts = items.map((item) => (item.kind === 'log' ? renderLogLine(item.value) : item.value));
  // +1: the comma between items.
  const costs = clipped.map((item) => estimateTokens(safeJson(item) ?? '') + 1);
  let budget = capTokens;
  for (let attempt = 0; attempt < 4 && budget > 0; attempt += 1) {
    const selection = selectLines({
      texts,
      costs,
      budget,
      summaryOverhead: estimateTokens(safeJson(wrapper) ?? '') + 1,
      entryCost: (entry) => estimateTokens(safeJson(describe(entry)) ?? '') + 1,
    });
    const capped = {
      ...wrapper,
      lines: selection.kept.map((index) => clipped[index]),
      omittedLines: selection.omitted,
      omittedTemplates: selection.templates.map(describe),
    };
    const tokens = estimateTokens(safeJson(capped) ?? '');
    if (tokens <= capTokens) return capped;
    budget -= tokens - capTokens + Math.ceil(capTokens * 0.05);
  }
  return undefined;
}

/** With timestamps the summary says when (as query_logs' own templates do); otherwise it gives line indexes. */
function describeTemplate(entry: OmittedTemplate, items: readonly LineItem[], hasTimestamps: boolean): Record<string, unknown> {
  if (!hasTimestamps) return { ...entry };
  const at = (index: number) => {
    const item = items[index];
    return item?.kind === 'log' ? item.value.timestamp : index;
  };
  return { template: entry.template, count: entry.count, firstSeen: at(entry.first), lastSeen: at(entry.last) };
}

// ── 2. Large arrays and strings ───────────────────────────────────────────────────────────────────────

const omittedMarker = /^… (\d+) items omitted …$/;
const markerFor = (count: number) => `… ${count} items omitted …`;
/** Strings shorter than this are left alone: cutting them saves little and loses meaning. */
const minShrinkableString = 400;

type Parent = Record<string, unknown> | unknown[];
interface Part {
  parent: Parent | undefined;
  key: string | number;
  value: unknown[] | string;
  chars: number;
}

/**
 * Repeatedly cuts the largest array or string down by about what is still too much. Works on a copy
 * (the caller parsed one from JSON).
 */
function shrinkLargestParts(data: unknown, capTokens: number): unknown {
  const root: { value: unknown } = { value: data };
  for (let round = 0; round < 64; round += 1) {
    const tokens = estimateTokens(safeJson(root.value) ?? '');
    if (tokens <= capTokens) return root.value;
    const part = largestPart(root);
    if (!part) return root.value;
    // Share of this part to keep so that the excess goes, with a margin; tokens and chars are proportional enough.
    const excessShare = ((tokens - capTokens) / tokens) * 1.15;
    const totalChars = (safeJson(root.value) ?? '').length;
    const keepShare = Math.max(0, 1 - (excessShare * totalChars) / part.chars);
    const replaced = typeof part.value === 'string' ? shrinkString(part.value, keepShare) : shrinkArray(part, keepShare);
    if (part.parent === undefined) root.value = replaced;
    else if (Array.isArray(part.parent)) part.parent[part.key as number] = replaced;
    else part.parent[part.key as string] = replaced;
  }
  return root.value;
}

function largestPart(root: { value: unknown }): Part | undefined {
  let best: Part | undefined;
  const visit = (value: unknown, parent: Parent | undefined, key: string | number): number => {
    if (typeof value === 'string') {
      const chars = value.length + 2;
      if (value.length >= minShrinkableString && (!best || chars > best.chars)) best = { parent, key, value, chars };
      return chars;
    }
    if (Array.isArray(value)) {
      let chars = 2;
      value.forEach((item, index) => (chars += visit(item, value, index) + 1));
      if (realItems(value).length >= 4 && (!best || chars > best.chars)) best = { parent, key, value, chars };
      return chars;
    }
    if (isPlainObject(value)) {
      let chars = 2;
      for (const [childKey, child] of Object.entries(value)) chars += childKey.length + 4 + visit(child, value, childKey);
      return chars;
    }
    return (safeJson(value) ?? '').length;
  };
  visit(root.value, undefined, 'value');
  return best;
}

/** The data as its tool returned it minus the capping's marker items, so it reads against the tool's contract again. */
export function withoutOmissionMarkers(data: unknown): unknown {
  if (Array.isArray(data)) return realItems(data).map(withoutOmissionMarkers);
  if (isPlainObject(data)) return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, withoutOmissionMarkers(value)]));
  return data;
}

const realItems = (items: readonly unknown[]) => items.filter((item) => !(typeof item === 'string' && omittedMarker.test(item)));

/** First and last items; the count of what was cut goes next to the array, or into a marker item. */
function shrinkArray(part: Part, keepShare: number): unknown[] {
  const items = part.value as unknown[];
  const real = realItems(items);
  const alreadyOmitted = items.reduce<number>((sum, item) => sum + (typeof item === 'string' ? Number(omittedMarker.exec(item)?.[1] ?? 0) : 0), 0);
  const keep = Math.min(real.length - 2, Math.max(2, Math.floor(real.length * keepShare)));
  const head = real.slice(0, Math.ceil(keep / 2));
  const tail = real.slice(real.length - Math.floor(keep / 2));
  const omitted = alreadyOmitted + real.length - keep;
  if (part.parent !== undefined && !Array.isArray(part.parent)) {
    const countKey = `${String(part.key)}Omitted`;
    const previous = typeof part.parent[countKey] === 'number' ? (part.parent[countKey] as number) : 0;
    part.parent[countKey] = previous + real.length - keep;
    return [...head, ...tail];
  }
  return [...head, markerFor(omitted), ...tail];
}

function shrinkString(text: string, keepShare: number): string {
  // Strings reach here only from minShrinkableString (400) up, so there is always something to cut.
  const keep = Math.min(text.length - 100, Math.max(200, Math.floor(text.length * keepShare)));
  const head = Math.ceil(keep * 0.7);
  const tail = keep - head;
  return `${text.slice(0, head)}…[${text.length - keep} chars omitted]…${text.slice(text.length - tail)}`;
}

// ── 3. Last resort ────────────────────────────────────────────────────────────────────────────────────

/** The start of the text (JSON, or the string form of a value JSON cannot carry), cut to fit, with a marker saying how much is shown. */
function truncatedJson(json: string, capTokens: number): string {
  const marker = (shown: number) => ` …[truncated: the first ${shown} of ${json.length} characters of the result]`;
  let shown = Math.max(0, Math.floor((capTokens - estimateTokens(marker(json.length))) * 2));
  // `shown` strictly decreases to 0, so this ends; with a cap too small for the marker, the marker is all there is.
  for (;;) {
    const text = json.slice(0, shown) + marker(shown);
    // Measured as the model will read it: a JSON string, quotes and backslashes escaped.
    if (estimateTokens(JSON.stringify(text)) <= capTokens || shown === 0) return text;
    shown = Math.floor(shown * 0.8);
  }
}

// ── helpers ───────────────────────────────────────────────────────────────────────────────────────────

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '[a value that cannot be shown]';
  }
}

/** JSON text of a value, or undefined when it has none (undefined, a function) or cannot be serialized (cycles, BigInt). */
function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) as string | undefined;
  } catch {
    return undefined;
  }
}
