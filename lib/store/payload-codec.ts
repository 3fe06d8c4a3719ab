import { gunzipSync, gzipSync } from 'node:zlib';

/** DynamoDB items cap at 400 KB; leave room for keys and attributes. */
export const MAX_INLINE_BYTES = 350_000;

export type EncodedPayload =
  | { encoding: 'json'; body: string }
  | { encoding: 'gzip'; body: Uint8Array }
  | { encoding: 'gzip-chunked'; parts: Uint8Array[] };

/** Small payloads stay readable JSON; large ones are compressed, then chunked if still too big. */
export const encodePayload = (value: unknown, maxInlineBytes = MAX_INLINE_BYTES): EncodedPayload => {
  const json = JSON.stringify(value ?? null);
  if (Buffer.byteLength(json) <= maxInlineBytes) return { encoding: 'json', body: json };
  const compressed = gzipSync(json);
  if (compressed.byteLength <= maxInlineBytes) return { encoding: 'gzip', body: new Uint8Array(compressed) };
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < compressed.byteLength; offset += maxInlineBytes) {
    parts.push(new Uint8Array(compressed.subarray(offset, offset + maxInlineBytes)));
  }
  return { encoding: 'gzip-chunked', parts };
};

export const decodePayload = (encoded: EncodedPayload): unknown => {
  switch (encoded.encoding) {
    case 'json':
      return JSON.parse(encoded.body);
    case 'gzip':
      return JSON.parse(gunzipSync(encoded.body).toString('utf8'));
    case 'gzip-chunked':
      return JSON.parse(gunzipSync(Buffer.concat(encoded.parts)).toString('utf8'));
  }
};
