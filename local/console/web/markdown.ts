/// <reference lib="dom" />
import { el } from './dom.ts';

/**
 * The subset of markdown the reports are written in: headings, paragraphs, bullet and numbered
 * lists, fenced code, **strong**, _emphasis_ and `code`. Parsed into a tree and built with DOM
 * calls, so the report's text can never become markup.
 */
export type Inline = { kind: 'text' | 'code'; text: string } | { kind: 'strong' | 'em'; children: Inline[] };

export type Block =
  | { kind: 'heading'; level: number; inlines: Inline[] }
  | { kind: 'paragraph'; inlines: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'code'; text: string };

const INLINE = /`([^`]+)`|\*\*(.+?)\*\*|(?<![\p{L}\p{N}])_(.+?)_(?![\p{L}\p{N}])/gu;

export const parseInline = (text: string): Inline[] => {
  const inlines: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) inlines.push({ kind: 'text', text: text.slice(last, match.index) });
    const [, code, strong, em] = match;
    if (code !== undefined) inlines.push({ kind: 'code', text: code });
    else if (strong !== undefined) inlines.push({ kind: 'strong', children: parseInline(strong) });
    else if (em !== undefined) inlines.push({ kind: 'em', children: parseInline(em) });
    last = match.index + match[0].length;
  }
  if (last < text.length) inlines.push({ kind: 'text', text: text.slice(last) });
  return inlines;
};

const BULLET = /^\s*[-*]\s+(.*)$/;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/;

export const parseMarkdown = (source: string): Block[] => {
  const blocks: Block[] = [];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', inlines: parseInline(paragraph.join(' ')) });
    paragraph = [];
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trimStart().startsWith('```')) {
      endParagraph();
      const code: string[] = [];
      for (index++; index < lines.length && !lines[index]!.trimStart().startsWith('```'); index++) code.push(lines[index]!);
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = BULLET.exec(line) ?? NUMBERED.exec(line);
    if (heading) {
      endParagraph();
      blocks.push({ kind: 'heading', level: heading[1]!.length, inlines: parseInline(heading[2]!.trim()) });
    } else if (item) {
      endParagraph();
      const ordered = NUMBERED.test(line);
      const previous = blocks.at(-1);
      const inlines = parseInline(item[1]!.trim());
      if (previous?.kind === 'list' && previous.ordered === ordered) previous.items.push(inlines);
      else blocks.push({ kind: 'list', ordered, items: [inlines] });
    } else if (line.trim() === '') {
      endParagraph();
    } else {
      const previous = blocks.at(-1);
      // An indented line continues the list item above it.
      if (paragraph.length === 0 && previous?.kind === 'list' && /^\s+\S/.test(line)) previous.items.at(-1)!.push({ kind: 'text', text: ` ${line.trim()}` });
      else paragraph.push(line.trim());
    }
  }
  endParagraph();
  return blocks;
};

/** Turns a text run into nodes; the page uses it to link evidence refs. */
export type TextRenderer = (text: string) => (Node | string)[];

const renderInlines = (inlines: Inline[], renderText: TextRenderer): (Node | string)[] =>
  inlines.flatMap((inline): (Node | string)[] => {
    switch (inline.kind) {
      case 'text':
        return renderText(inline.text);
      case 'code':
        return [el('code', {}, inline.text)];
      case 'strong':
        return [el('strong', {}, ...renderInlines(inline.children, renderText))];
      case 'em':
        return [el('em', {}, ...renderInlines(inline.children, renderText))];
    }
  });

/** Headings start at `topLevel`, so a report's `#` sits under the page's own heading. */
export const renderMarkdown = (source: string, options: { topLevel: number; renderText?: TextRenderer }): DocumentFragment => {
  const renderText = options.renderText ?? ((text: string) => [text]);
  const fragment = document.createDocumentFragment();
  for (const block of parseMarkdown(source)) {
    switch (block.kind) {
      case 'heading': {
        const level = Math.min(6, block.level + options.topLevel - 1) as 1 | 2 | 3 | 4 | 5 | 6;
        fragment.append(el(`h${level}`, {}, ...renderInlines(block.inlines, renderText)));
        break;
      }
      case 'paragraph':
        fragment.append(el('p', {}, ...renderInlines(block.inlines, renderText)));
        break;
      case 'list':
        fragment.append(el(block.ordered ? 'ol' : 'ul', {}, ...block.items.map((item) => el('li', {}, ...renderInlines(item, renderText)))));
        break;
      case 'code':
        fragment.append(el('pre', {}, el('code', {}, block.text)));
        break;
    }
  }
  return fragment;
};
