/** Arguments with their keys sorted at every level, so `{a, b}` and `{b, a}` read the same. */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );

/** A tool call's identity: its name and canonical arguments. Two calls with one fingerprint ask the same thing. */
export const callFingerprint = (name: string, args: Record<string, unknown>): string => `${name}:${canonicalJson(args)}`;
