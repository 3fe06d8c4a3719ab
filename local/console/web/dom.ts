/// <reference lib="dom" />

export type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined>;

/**
 * An element with attributes and children. Strings become text nodes, never markup: nothing the
 * API returns is ever parsed as HTML.
 */
export const el = <Tag extends keyof HTMLElementTagNameMap>(tag: Tag, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[Tag] => {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, ...children);
  return element;
};

export const append = (parent: Element, ...children: Child[]): void => {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(typeof child === 'number' ? String(child) : child);
  }
};

/** A term/description list from pairs; a missing description reads "none". */
export const facts = (pairs: [string, Child | Child[]][]): HTMLDListElement =>
  el('dl', { class: 'facts' }, ...pairs.flatMap(([term, description]) => [el('dt', {}, term), el('dd', {}, ...(Array.isArray(description) ? description : [description ?? 'none']))]));

/** Pretty JSON in a collapsed disclosure: payloads are long, and the summary says what they are. */
export const jsonDetails = (summary: string, value: unknown): HTMLDetailsElement =>
  el('details', {}, el('summary', {}, summary), el('pre', { class: 'json' }, JSON.stringify(value, null, 2)));

/**
 * Runs `render`, which replaces part of `container`, and puts keyboard focus back on the
 * equivalent element (same id, else same link target), so a refresh never drops the user's place.
 */
export const keepingFocus = (container: HTMLElement, render: () => void): void => {
  const active = document.activeElement;
  const inside = active instanceof HTMLElement && container.contains(active) ? active : undefined;
  const id = inside?.id;
  const href = inside?.getAttribute('href');
  render();
  // Nothing to restore if the focus survived, or if the render moved it on purpose.
  if (!inside || inside.isConnected || document.activeElement !== document.body) return;
  const again = id ? document.getElementById(id) : href ? container.querySelector<HTMLElement>(`[href="${CSS.escape(href)}"]`) : null;
  again?.focus({ preventScroll: true });
};
