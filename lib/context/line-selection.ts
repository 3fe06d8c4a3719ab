/**
 * Which lines of a long log survive a token budget. Shared by `capLines` (plain text lines) and
 * `capToolResult` (log objects rendered as JSON), which differ only in what a kept line and a summary
 * entry cost, so both are passed in as costs.
 *
 * The budget is split: head 15% and tail 15% (how the window starts and where it ends), the salient
 * middle 50%, and a summary of what was left out 20%. Budget a part does not use flows to the next:
 * unused head/tail to the middle, unused summary back to more lines. The middle is filled in rounds,
 * each a better use of a token than the next:
 *   1. the first occurrence of every salient template (errors, warnings, failure words), most severe first
 *      and, at equal severity, the rarest template first: one decisive line must not lose to a flood;
 *   2. the last occurrence of each salient template (is it still happening?);
 *   3. one example of every other template, rarest first: a one-off "deploy started" or "config
 *      reloaded" in the middle is often the cause, and the summary only counts it;
 *   4. more occurrences of salient templates.
 * The summary lists every template among the omitted lines with its count and first/last index, most
 * frequent first, cut to what fits. The result never exceeds the budget as long as the costs are additive
 * (see token-estimate.ts).
 */
import { templateOf } from '../analysis/log-templates.ts';
import { salienceOf } from './line-salience.ts';

export interface OmittedTemplate {
  /** The line with its variable parts masked as `<*>` (see `templateOf`), clipped when very long. */
  template: string;
  /** Omitted lines with this template. */
  count: number;
  /** Index of the first and last omitted line with this template, in the input. */
  first: number;
  last: number;
}

export interface SelectionRequest {
  /** One text per line: templates and salience are read from it. */
  texts: readonly string[];
  /** Tokens each line adds to the output when kept, separator included. */
  costs: readonly number[];
  /** Tokens for the kept lines and the summary together. */
  budget: number;
  /** Tokens the summary costs with no entries (its wrapper, the omitted count). */
  summaryOverhead: number;
  /** Tokens one summary entry adds, separator included. */
  entryCost(entry: OmittedTemplate): number;
}

export interface Selection {
  /** Indexes of the kept lines, ascending. */
  kept: number[];
  omitted: number;
  /** Most frequent first; possibly fewer than all omitted templates when the budget is short. */
  templates: OmittedTemplate[];
}

export const budgetShares = { head: 0.15, tail: 0.15, salient: 0.5, summary: 0.2 } as const;

/** Template text longer than this is clipped in the summary: it is a label, not evidence. */
const maxTemplateChars = 300;

export function selectLines(request: SelectionRequest): Selection {
  const { texts, costs } = request;
  const count = texts.length;
  const available = request.budget - request.summaryOverhead;
  if (available <= 0 || count === 0) return { kept: [], omitted: count, templates: [] };

  const templates = templateIndex(texts);
  const kept = new Uint8Array(count);
  let linesCost = 0;
  const keep = (index: number) => {
    kept[index] = 1;
    linesCost += costs[index]!;
  };

  // Head and tail are contiguous runs: a gap inside them would read as a continuous log that is not.
  let headEnd = 0;
  let headLeft = Math.floor(available * budgetShares.head);
  while (headEnd < count && costs[headEnd]! <= headLeft) {
    headLeft -= costs[headEnd]!;
    keep(headEnd);
    headEnd += 1;
  }
  let tailStart = count;
  let tailLeft = Math.floor(available * budgetShares.tail);
  while (tailStart > headEnd && costs[tailStart - 1]! <= tailLeft) {
    tailLeft -= costs[tailStart - 1]!;
    tailStart -= 1;
    keep(tailStart);
  }

  const summaryReserve = Math.floor(available * budgetShares.summary);
  let middleLeft = available - summaryReserve - linesCost;
  const tryKeep = (index: number): void => {
    if (kept[index] || costs[index]! > middleLeft) return;
    middleLeft -= costs[index]!;
    keep(index);
  };

  const salience = new Float64Array(count);
  for (let index = headEnd; index < tailStart; index += 1) salience[index] = salienceOf(texts[index]!);
  const represented = new Uint8Array(templates.distinct);
  for (let index = 0; index < count; index += 1) if (kept[index]) represented[templates.idOf[index]!] = 1;

  // Candidates per round, by id: first and last middle occurrence of each template, and its salience.
  const firstMiddle = new Int32Array(templates.distinct).fill(-1);
  const lastMiddle = new Int32Array(templates.distinct).fill(-1);
  const templateSalience = new Float64Array(templates.distinct);
  for (let index = headEnd; index < tailStart; index += 1) {
    const id = templates.idOf[index]!;
    if (firstMiddle[id] === -1) firstMiddle[id] = index;
    lastMiddle[id] = index;
    templateSalience[id] = Math.max(templateSalience[id]!, salience[index]!);
  }
  const bySalienceThenRarity = (a: number, b: number) =>
    salience[b]! - salience[a]! || templates.total[templates.idOf[a]!]! - templates.total[templates.idOf[b]!]! || a - b;

  const salientIds: number[] = [];
  const otherIds: number[] = [];
  for (let id = 0; id < templates.distinct; id += 1) {
    if (firstMiddle[id] === -1) continue;
    (templateSalience[id]! > 0 ? salientIds : otherIds).push(id);
  }
  // Round 1 and 2: first, then last salient occurrence of each salient template not shown yet.
  const unshownSalient = salientIds.filter((id) => !represented[id]);
  for (const index of unshownSalient.map((id) => firstSalientOccurrence(id)).sort(bySalienceThenRarity)) tryKeep(index);
  for (const index of salientIds.map((id) => lastSalientOccurrence(id)).sort(bySalienceThenRarity)) tryKeep(index);
  // Round 3: an example of every other template, rarest first.
  const rarestFirst = (a: number, b: number) => templates.total[templates.idOf[a]!]! - templates.total[templates.idOf[b]!]! || a - b;
  for (const index of otherIds.filter((id) => !represented[id]).map((id) => firstMiddle[id]!).sort(rarestFirst)) tryKeep(index);
  // Round 4: the rest of the salient lines. Within a severity, templates take turns and each template's
  // lines are taken spread over the window (middle, quarters, eighths, ...), not bunched at its start.
  const byTemplate = new Map<number, number[]>();
  for (let index = headEnd; index < tailStart; index += 1) {
    if (salience[index]! <= 0 || kept[index]) continue;
    const id = templates.idOf[index]!;
    const list = byTemplate.get(id);
    if (list) list.push(index);
    else byTemplate.set(id, [index]);
  }
  const spreadRank = new Map<number, number>();
  for (const list of byTemplate.values()) spreadOrder(list).forEach((index, rank) => spreadRank.set(index, rank));
  const moreSalient = [...spreadRank.keys()].sort(
    (a, b) =>
      salience[b]! - salience[a]! ||
      spreadRank.get(a)! - spreadRank.get(b)! ||
      templates.total[templates.idOf[a]!]! - templates.total[templates.idOf[b]!]! ||
      a - b,
  );
  let moreAt = 0;
  for (; moreAt < moreSalient.length && middleLeft > 0; moreAt += 1) tryKeep(moreSalient[moreAt]!);

  // Summary budget the summary does not need goes to more lines: salient ones, then the tail, then the head.
  const fullSummaryCost = summarize(templates, kept, count).reduce((sum, entry) => sum + request.entryCost(entry), 0);
  if (fullSummaryCost < summaryReserve) {
    middleLeft += summaryReserve - fullSummaryCost;
    for (; moreAt < moreSalient.length && middleLeft > 0; moreAt += 1) tryKeep(moreSalient[moreAt]!);
    while (tailStart > headEnd && (kept[tailStart - 1] || costs[tailStart - 1]! <= middleLeft)) {
      tailStart -= 1;
      tryKeep(tailStart);
    }
    while (headEnd < tailStart && (kept[headEnd] || costs[headEnd]! <= middleLeft)) {
      tryKeep(headEnd);
      headEnd += 1;
    }
  }

  // Whatever the lines left is the summary's, so the total fits even if the summary grew a little.
  let summaryLeft = available - linesCost;
  const listed: OmittedTemplate[] = [];
  for (const entry of summarize(templates, kept, count)) {
    const cost = request.entryCost(entry);
    if (cost > summaryLeft) continue;
    summaryLeft -= cost;
    listed.push(entry);
  }
  const keptIndexes: number[] = [];
  for (let index = 0; index < count; index += 1) if (kept[index]) keptIndexes.push(index);
  return { kept: keptIndexes, omitted: count - keptIndexes.length, templates: listed };

  function firstSalientOccurrence(id: number): number {
    for (let index = firstMiddle[id]!; index <= lastMiddle[id]!; index += 1) {
      if (templates.idOf[index] === id && salience[index]! > 0 && !kept[index]) return index;
    }
    return firstMiddle[id]!;
  }
  function lastSalientOccurrence(id: number): number {
    for (let index = lastMiddle[id]!; index >= firstMiddle[id]!; index -= 1) {
      if (templates.idOf[index] === id && salience[index]! > 0) return index;
    }
    return lastMiddle[id]!;
  }
}

/** The items reordered so that every prefix is spread evenly over the list: middle first, then quarters, eighths... */
export function spreadOrder<T>(items: readonly T[]): T[] {
  const ordered: T[] = [];
  const taken = new Uint8Array(items.length);
  for (let parts = 2; ordered.length < items.length; parts *= 2) {
    for (let step = 1; step < parts; step += 2) {
      const at = Math.min(items.length - 1, Math.floor((items.length * step) / parts));
      if (!taken[at]) {
        taken[at] = 1;
        ordered.push(items[at]!);
      }
    }
    if (parts > items.length * 2) {
      items.forEach((item, at) => {
        if (!taken[at]) ordered.push(item);
      });
      break;
    }
  }
  return ordered;
}

interface TemplateIndex {
  distinct: number;
  /** Template id of each line. */
  idOf: Int32Array;
  /** Lines per template id. */
  total: Int32Array;
  text: string[];
}

function templateIndex(texts: readonly string[]): TemplateIndex {
  const ids = new Map<string, number>();
  const idOf = new Int32Array(texts.length);
  const text: string[] = [];
  const counts: number[] = [];
  for (let index = 0; index < texts.length; index += 1) {
    const template = templateOf(texts[index]!);
    let id = ids.get(template);
    if (id === undefined) {
      id = text.length;
      ids.set(template, id);
      text.push(template);
      counts.push(0);
    }
    idOf[index] = id;
    counts[id]! += 1;
  }
  return { distinct: text.length, idOf, total: Int32Array.from(counts), text };
}

/** Every template among the lines not kept: omitted count and first/last omitted index, most frequent first. */
function summarize(templates: TemplateIndex, kept: Uint8Array, count: number): OmittedTemplate[] {
  const byId = new Map<number, OmittedTemplate>();
  for (let index = 0; index < count; index += 1) {
    if (kept[index]) continue;
    const id = templates.idOf[index]!;
    const entry = byId.get(id);
    if (entry) {
      entry.count += 1;
      entry.last = index;
    } else {
      byId.set(id, { template: clipTemplate(templates.text[id]!), count: 1, first: index, last: index });
    }
  }
  return [...byId.values()].sort((a, b) => b.count - a.count || a.first - b.first);
}

const clipTemplate = (template: string): string =>
  template.length <= maxTemplateChars ? template : `${template.slice(0, maxTemplateChars)}…`;
