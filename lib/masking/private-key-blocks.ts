/**
 * PEM private keys span many lines, where every other detector stops at whitespace, so a value or
 * URL glued to a `-----BEGIN` line could swallow its first line and hide the rest from the scan.
 * Blocks are therefore redacted whole before the scan, wherever they stand: in plain text or in
 * a JSON string with escaped newlines, and up to where the base64 stops when the END line is
 * missing (a truncated log line).
 */

const PRIVATE_KEY_BLOCK =
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]{0,20000}?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|(?:[A-Za-z0-9+/=\s:,-]|\\[nr])*)/g;

export const redactPrivateKeyBlocks = (text: string, redact: () => string): string =>
  text.includes('-----BEGIN ') ? text.replace(PRIVATE_KEY_BLOCK, () => redact()) : text;
