/** Escapes a literal for use inside a regular expression source. */
export const escapeRegExp = (literal: string): string => literal.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

interface TrieNode {
  end: boolean;
  children: Map<string, TrieNode>;
}

/**
 * One regex source matching any of many literals, shaped as a trie (`ab(?:c|d)`): the engine
 * follows one branch per character instead of trying every literal at every position. Longer
 * literals are tried before their prefixes.
 */
export const literalTrieSource = (literals: Iterable<string>): string => {
  const root: TrieNode = { end: false, children: new Map() };
  for (const literal of literals) {
    let node = root;
    for (const char of literal) {
      let child = node.children.get(char);
      if (!child) {
        child = { end: false, children: new Map() };
        node.children.set(char, child);
      }
      node = child;
    }
    node.end = true;
  }
  const emit = (node: TrieNode): string => {
    const branches: string[] = [];
    for (const [char, child] of node.children) branches.push(escapeRegExp(char) + emit(child));
    if (branches.length === 0) return '';
    const body = branches.length === 1 ? branches[0]! : `(?:${branches.join('|')})`;
    if (!node.end) return body;
    return branches.length === 1 ? `(?:${body})?` : `${body}?`;
  };
  return emit(root);
};
