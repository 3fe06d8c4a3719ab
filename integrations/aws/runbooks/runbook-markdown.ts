import type { RunbookMatch } from '../../../lib/tools/contracts/search-runbooks.ts';

/**
 * A runbook written in markdown, as a team keeps them in a repository (format in runbooks/README.md):
 * optional front matter (`id`, `service`, `match` list), the first heading as the title, and the
 * list items (under a "Steps" heading when there is one) as the steps.
 */
export type Runbook = Omit<RunbookMatch, 'score'>;

const listItem = /^\s*(?:[-*+]|\d+[.)])\s+(.+?)\s*$/;
const heading = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

const unquote = (value: string) => value.trim().replace(/^(["'])(.*)\1$/, '$2');

/** `[a, "b"]` or `a, b` -> ['a', 'b']. */
const inlineList = (value: string): string[] =>
  value
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .split(',')
    .map(unquote)
    .filter(Boolean);

/** The small YAML subset runbook front matter uses: `key: value`, `key: [a, b]`, and `key:` followed by `- item` lines. */
const frontMatterOf = (lines: readonly string[]): Record<string, string | string[]> => {
  const fields: Record<string, string | string[]> = {};
  let listKey: string | undefined;
  for (const line of lines) {
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item && listKey) {
      (fields[listKey] as string[]).push(unquote(item[1] ?? ''));
      continue;
    }
    const pair = /^([\w-]+)\s*:\s*(.*)$/.exec(line);
    if (!pair) continue;
    const [, key = '', value = ''] = pair;
    if (value.trim() === '') {
      fields[key] = [];
      listKey = key;
    } else {
      fields[key] = value.trim().startsWith('[') ? inlineList(value) : unquote(value);
      listKey = undefined;
    }
  }
  return fields;
};

const text = (value: string | string[] | undefined): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const list = (value: string | string[] | undefined): string[] | undefined =>
  Array.isArray(value) ? value : typeof value === 'string' && value !== '' ? inlineList(value) : undefined;

/** Parses one runbook; `fallbackId` (the file's path without `.md`) names it when the front matter does not. */
export const parseRunbook = (markdown: string, fallbackId: string): Runbook => {
  let lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let front: Record<string, string | string[]> = {};
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
    if (end > 0) {
      front = frontMatterOf(lines.slice(1, end));
      lines = lines.slice(end + 1);
    }
  }
  // Without front matter, `service:` and `match:` may stand on lines of their own in the body.
  const bodyField = (key: string) => lines.map((line) => new RegExp(`^\\**${key}\\**\\s*:\\**\\s*(.+)$`, 'i').exec(line.trim())?.[1]).find(Boolean);
  const headings = lines.map((line) => heading.exec(line)).filter((match) => match !== null);
  const title = text(front.title) ?? headings[0]?.[2] ?? fallbackId;
  const stepsHeading = lines.findIndex((line) => heading.test(line) && /step|procedure|remediation|actions?/i.test(line));
  let stepLines = lines;
  if (stepsHeading >= 0) {
    const level = heading.exec(lines[stepsHeading] ?? '')?.[1]?.length ?? 1;
    const next = lines.findIndex((line, index) => index > stepsHeading && (heading.exec(line)?.[1]?.length ?? 99) <= level);
    stepLines = lines.slice(stepsHeading + 1, next < 0 ? undefined : next);
  }
  const steps = stepLines.map((line) => listItem.exec(line)?.[1]).filter((step): step is string => step !== undefined);
  const service = text(front.service) ?? bodyField('service');
  const match = list(front.match) ?? (bodyField('match') ? inlineList(bodyField('match') ?? '') : undefined) ?? headings.slice(1).map((found) => found[2] ?? '').filter((name) => !/^steps?$/i.test(name));
  return {
    id: text(front.id) ?? fallbackId,
    title,
    ...(service ? { service } : {}),
    ...(match.length > 0 ? { match } : {}),
    steps,
  };
};
