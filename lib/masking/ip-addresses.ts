import { isIPv4 as isStrictIPv4, isIPv6 } from 'node:net';

/**
 * IP address checks. The scan's patterns are deliberately loose (digits and dots, hex and colons) to
 * stay fast; these functions decide, with `node:net`, whether a candidate really is an address, and
 * which addresses identify nothing and stay readable.
 */

export { isIPv6 };

/** Octets written with leading zeros (`010.000.003.017`) are still the address a reader sees; `node:net` refuses them. */
export const isIPv4 = (candidate: string): boolean =>
  isStrictIPv4(candidate) || (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(candidate) && isStrictIPv4(candidate.split('.').map(Number).join('.')));

/**
 * Loopback, "any", broadcast and the instance metadata address are the same in every account and
 * tell the reader something ("connect to 127.0.0.1 refused"), so they are kept.
 */
export const isSharedIPv4 = (address: string): boolean =>
  address.startsWith('127.') || address === '0.0.0.0' || address === '255.255.255.255' || address === '169.254.169.254';

/** `::` and `::1` identify nothing. */
export const isSharedIPv6 = (address: string): boolean => address === '::' || address === '::1';
