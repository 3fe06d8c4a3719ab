/** Code-point order for tie-breaks, so that a ranking never depends on the host's locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
