import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck = { valid: true } | { valid: false; reason: string };

/** The signature PagerDuty puts in `X-PagerDuty-Signature` for a body: `v1=` and the hex HMAC-SHA256. */
export const signPagerDutyBody = (rawBody: string, secret: string): string =>
  `v1=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;

/**
 * Checks `X-PagerDuty-Signature` against the raw body. During a secret rotation PagerDuty sends
 * several comma-separated signatures; one match is enough. Compared in constant time.
 */
export const verifyPagerDutySignature = (rawBody: string, header: string | undefined, secret: string): SignatureCheck => {
  if (header === undefined || header.trim() === '') return { valid: false, reason: 'the X-PagerDuty-Signature header is missing' };
  const expected = Buffer.from(signPagerDutyBody(rawBody, secret), 'utf8');
  const offered = header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('v1='));
  if (offered.length === 0) return { valid: false, reason: 'the X-PagerDuty-Signature header has no v1= signature' };
  const matches = offered.some((signature) => {
    const candidate = Buffer.from(signature, 'utf8');
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
  return matches ? { valid: true } : { valid: false, reason: 'no X-PagerDuty-Signature signature matches the body' };
};
