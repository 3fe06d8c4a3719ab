/**
 * Named groups are convenient to write but slow to match: for every match V8 builds a `groups`
 * object with one property per name in the whole pattern. The scanner therefore writes detectors
 * with named groups and compiles them as plain numbered groups, keeping a name -> number table.
 */

export interface NumberedSource {
  /** The source with every `(?<name>` turned into `(` and every `\k<name>` into `\N`. */
  source: string;
  /** Group names in order of their number (1-based numbers; index 0 is unused). */
  names: (string | undefined)[];
}

/** Walks a regex source, numbering capturing groups as the engine does (left parenthesis order). */
export const numberGroups = (source: string): NumberedSource => {
  let output = '';
  const names: (string | undefined)[] = [undefined];
  let inClass = false;
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index]!;
    if (char === '\\') {
      output += char + (source[index + 1] ?? '');
      index += 1;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      output += char;
      continue;
    }
    if (char === '[') {
      inClass = true;
      output += char;
      continue;
    }
    if (char === '(') {
      if (source[index + 1] !== '?') {
        names.push(undefined);
      } else if (source[index + 2] === '<' && source[index + 3] !== '=' && source[index + 3] !== '!') {
        const close = source.indexOf('>', index);
        names.push(source.slice(index + 3, close));
        output += '(';
        index = close;
        continue;
      }
    }
    output += char;
  }
  // Named backreferences become numbered ones, now that the names are gone.
  const numberedOutput = output.replace(/\\k<([A-Za-z][A-Za-z0-9]*)>/g, (_reference, name: string) => {
    const number = names.indexOf(name);
    if (number === -1) throw new Error(`backreference to unknown group ${name}`);
    return `\\${number}`;
  });
  return { source: numberedOutput, names };
};
