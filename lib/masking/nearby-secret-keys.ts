import { AWS_ACCESS_KEY_ID_SOURCE } from './secret-detectors.ts';

/**
 * A secret access key has no prefix of its own: it is 40 characters of base64. Alone it cannot be
 * told from other base64, but next to an access key id (credentials files, `aws configure` output,
 * pasted env blocks) it is one. This pass runs before the scan, only when a key id is present.
 */

const KEY_ID = new RegExp(AWS_ACCESS_KEY_ID_SOURCE, 'g');
const CANDIDATE = /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
const BASE64_CHAR = /[A-Za-z0-9/+=]/;
/** How far from a key id its secret may sit, in characters, either side. */
const WINDOW = 400;

/** Git hashes and hex digests are 40 characters too; a secret key mixes cases. */
const looksLikeSecretKey = (candidate: string): boolean => /[a-z]/.test(candidate) && /[A-Z]/.test(candidate);

export const redactSecretKeysNearKeyIds = (text: string, redact: () => string): string => {
  if (!text.includes('AKIA') && !text.includes('ASIA') && !text.includes('ABIA') && !text.includes('ACCA')) return text;
  const ranges: [number, number][] = [];
  let windowEnd = 0;
  for (const keyId of text.matchAll(KEY_ID)) {
    let from = Math.max(windowEnd, keyId.index - WINDOW);
    let to = Math.min(text.length, keyId.index + keyId[0].length + WINDOW);
    if (to <= from) continue;
    // Widen to token edges so a longer token cut by the window edge is not read as a 40-character one.
    while (from > windowEnd && BASE64_CHAR.test(text[from - 1]!)) from -= 1;
    while (to < text.length && BASE64_CHAR.test(text[to]!)) to += 1;
    windowEnd = to;
    const window = text.slice(from, to);
    for (const candidate of window.matchAll(CANDIDATE)) {
      if (looksLikeSecretKey(candidate[0])) ranges.push([from + candidate.index, from + candidate.index + 40]);
    }
  }
  if (ranges.length === 0) return text;
  let result = '';
  let last = 0;
  for (const [start, end] of ranges) {
    result += text.slice(last, start) + redact();
    last = end;
  }
  return result + text.slice(last);
};
