import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

/** DynamoDB items cap at 400 KB; leave room for keys and attributes. */
export const MAX_INLINE_BYTES = 350_000;

/**
 * Small payloads stay readable JSON in their item; larger ones are compressed; what is still too
 * big becomes parts: immutable items named by the hash of the compressed bytes, written before the
 * item that refers to them, so writing them again (a retry) writes the same items.
 */
export type EncodedPayload =
  | { encoding: 'json'; body: string }
  | { encoding: 'gzip'; body: Uint8Array }
  | { encoding: 'parts'; hash: string; parts: Uint8Array[] };

const hashOf = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const split = (compressed: Uint8Array, partBytes: number): EncodedPayload => {
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < compressed.byteLength; offset += partBytes) parts.push(compressed.subarray(offset, offset + partBytes));
  return { encoding: 'parts', hash: hashOf(compressed), parts };
};

export const encodePayload = (value: unknown, maxInlineBytes = MAX_INLINE_BYTES): EncodedPayload => {
  const json = JSON.stringify(value ?? null);
  if (Buffer.byteLength(json) <= maxInlineBytes) return { encoding: 'json', body: json };
  const compressed = new Uint8Array(gzipSync(json));
  if (compressed.byteLength <= maxInlineBytes) return { encoding: 'gzip', body: compressed };
  return split(compressed, maxInlineBytes);
};

/** The same payload moved out of its item into parts, to keep a transaction under its size limit. */
export const asParts = (encoded: EncodedPayload, maxInlineBytes = MAX_INLINE_BYTES): EncodedPayload => {
  switch (encoded.encoding) {
    case 'json':
      return split(new Uint8Array(gzipSync(encoded.body)), maxInlineBytes);
    case 'gzip':
      return split(encoded.body, maxInlineBytes);
    case 'parts':
      return encoded;
  }
};

/** Bytes the payload adds to the item that holds it. */
export const inlineBytes = (encoded: EncodedPayload): number =>
  encoded.encoding === 'json' ? Buffer.byteLength(encoded.body) : encoded.encoding === 'gzip' ? encoded.body.byteLength : encoded.hash.length;

export const decodePayload = (encoded: EncodedPayload): unknown => {
  switch (encoded.encoding) {
    case 'json':
      return JSON.parse(encoded.body);
    case 'gzip':
      return JSON.parse(gunzipSync(encoded.body).toString('utf8'));
    case 'parts': {
      const compressed = Buffer.concat(encoded.parts);
      if (hashOf(compressed) !== encoded.hash) throw new Error(`payload parts ${encoded.hash} do not match their hash`);
      return JSON.parse(gunzipSync(compressed).toString('utf8'));
    }
  }
};
