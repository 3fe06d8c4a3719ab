/**
 * IP address checks. The scan's patterns are deliberately loose (digits and dots, hex and colons) to
 * stay fast; these functions decide whether a candidate really is an address, and which addresses
 * identify nothing and stay readable.
 */

export const isIPv4 = (candidate: string): boolean => {
  const octets = candidate.split('.');
  return octets.length === 4 && octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255);
};

/**
 * Loopback, "any", broadcast and the instance metadata address are the same in every account and
 * tell the reader something ("connect to 127.0.0.1 refused"), so they are kept.
 */
export const isSharedIPv4 = (address: string): boolean =>
  address.startsWith('127.') || address === '0.0.0.0' || address === '255.255.255.255' || address === '169.254.169.254';

const HEXTET = /^[0-9A-Fa-f]{1,4}$/;

export const isIPv6 = (candidate: string): boolean => {
  let text = candidate;
  // An embedded IPv4 tail (::ffff:10.0.0.1) stands for the last two groups.
  const dotted = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted) {
    if (!isIPv4(dotted[2]!)) return false;
    text = `${dotted[1]!}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (part: string): string[] | undefined => {
    if (part === '') return [];
    const groups = part.split(':');
    return groups.every((group) => HEXTET.test(group)) ? groups : undefined;
  };
  if (halves.length === 2) {
    const head = groupsOf(halves[0]!);
    const tail = groupsOf(halves[1]!);
    return head !== undefined && tail !== undefined && head.length + tail.length <= 7;
  }
  const groups = groupsOf(text);
  return groups !== undefined && groups.length === 8;
};

/** `::` and `::1` identify nothing. */
export const isSharedIPv6 = (address: string): boolean => address === '::' || address === '::1';
