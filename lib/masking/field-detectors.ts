import type { Detector } from './detector.ts';
import {
  ACCOUNT_FIELD,
  BUCKET_FIELD,
  LOG_GROUP_FIELD,
  PRINCIPAL_FIELD,
  SECRET_FIELD,
  USER_FIELD,
  fieldRoleOfName,
  maskFieldValue,
  splitOpeningQuote,
  type FieldRole,
} from './field-context.ts';
import { PlaceholderType } from './placeholders.ts';

/**
 * Detectors for values whose field name says what they are. They match from the separator on and
 * check the name behind it (a lookbehind), so the scan only stops at `:` and `=` rather than
 * trying every field name at every letter. The name itself is never rewritten.
 */

/**
 * A field value: in escaped JSON quotes, in quotes, or bare up to a delimiter. A bare value may
 * start with an HTTP auth scheme (`Authorization: Bearer abc`). The opening quote is part of the
 * value and the closing one is not, so a replacement keeps the quoting intact.
 */
const FIELD_VALUE = String.raw`\\"(?:[^"\\\r\n]|\\[^"\r\n])*|"(?:[^"\\\r\n]|\\.)*|'[^'\r\n]*|(?:(?:[Bb]earer|BEARER|[Bb]asic|BASIC|[Tt]oken|[Dd]igest|[Nn]egotiate|NTLM)[ \t]+)?(?![\s"'<\[{(])[^\s"',;&<>)\]}\\]+`;

const NAMED_FIELDS = [SECRET_FIELD, PRINCIPAL_FIELD, USER_FIELD, BUCKET_FIELD, LOG_GROUP_FIELD].join('|');

/** Between a field name and its separator: a closing quote (maybe escaped) and a few spaces. */
const NAME_GAP = String.raw`\\?["']?[ \t]{0,3}`;
const NAME_GAP_AT_END = /\\?["']?[ \t]{0,3}$/;

/** How far back a field name is read to name the secret it holds (`client_secret`, `x-amz-security-token`). */
const NAME_CONTEXT = 64;

/** Field names repeat: remembered roles skip the name patterns on repeats. Bounded, cleared when full. */
const roles = new Map<string, FieldRole | undefined>();
const MAX_ROLES = 5_000;

/** The role of the field whose separator is at `separator` in `input`. */
const roleBefore = (input: string, separator: number): FieldRole | undefined => {
  const gap = NAME_GAP_AT_END.exec(input.slice(Math.max(0, separator - 8), separator))?.[0].length ?? 0;
  const nameEnd = separator - gap;
  // The role depends on the name and a few characters before it (`client_`, `x-amz-security-`).
  const key = input.slice(Math.max(0, nameEnd - 48), nameEnd);
  if (roles.has(key)) return roles.get(key);
  if (roles.size >= MAX_ROLES) roles.clear();
  const role = fieldRoleOfName(input.slice(Math.max(0, nameEnd - NAME_CONTEXT), nameEnd));
  roles.set(key, role);
  return role;
};

/** Masks `value` by `role`; a bare identifier ends before sentence punctuation (`user=alice: timeout`). */
const maskValueText = (role: FieldRole | undefined, rawValue: string, context: Parameters<Detector['handle']>[1]): string => {
  const { quote, content } = splitOpeningQuote(rawValue);
  // A bare secret keeps trailing punctuation: it may be part of the secret.
  const trailing = quote === '' && role?.role !== 'secret' ? (/[.:!?]+$/.exec(content)?.[0] ?? '') : '';
  const value = content.slice(0, content.length - trailing.length);
  const masked = role ? maskFieldValue(role, value, context) : context.rescan(value);
  return `${quote}${masked}${trailing}`;
};

const fieldValue: Detector = {
  id: 'field',
  placement: 'anywhere',
  // `password=…`, `"client_secret": "…"`, `user: alice`, `"bucketName":"…"`, `Password=…;`.
  // A one-character lookbehind first: `10:15:30` and `a=1` leave before the name patterns run.
  source: String.raw`[:=](?<=[A-Za-z"' \t\\][:=])(?<=(?:${NAMED_FIELDS})${NAME_GAP}[:=])[ \t]{0,3}(?:${FIELD_VALUE})`,
  handle: (match, context) => {
    const separator = /^[:=][ \t]*/.exec(match.text)![0];
    return separator + maskValueText(roleBefore(match.input, match.offset), match.text.slice(separator.length), context);
  },
};

const FLAG_NAMES = 'password|passwd|secret|token|api-key|apikey|client-secret|secret-key|access-token|private-key|user|username|db-user';

const flagValue: Detector = {
  id: 'flag',
  placement: 'anywhere',
  // Command lines: `--password hunter2`, `--db-user app`.
  source: String.raw`--(?<![A-Za-z0-9-]--)(?:[a-z0-9]+-)*(?:${FLAG_NAMES})[ \t]{1,3}(?:"[^"\r\n]*|'[^'\r\n]*|[^\s"'-][^\s"']*)`,
  handle: (match, context) => {
    const [, name = '', space = '', value = ''] = /^(\S+)([ \t]+)([\s\S]*)$/.exec(match.text) ?? [];
    const role = fieldRoleOfName(name.slice(2).replace(/-/g, '_'));
    return name + space + maskValueText(role, value, context);
  },
};

const accountValue: Detector = {
  id: 'account',
  placement: 'anywhere',
  // `"accountId": "123456789012"`, `AccountId=…`, `account 123456789012`, `Account ID: 1234-5678-9012`.
  // Only a 12-digit number right after such a name: a 12-digit number alone may be an order number.
  // Cheap checks first (a number starts here, twelve digits follow), the name lookbehind last.
  source: String.raw`\d(?<![0-9]\d)(?=\d{11}(?![\d-])|\d{3}-\d{4}-\d{4}(?![\d-]))(?<=(?:${ACCOUNT_FIELD})\\?["']?[ \t]{0,3}(?:[:=][ \t]{0,3})?(?:\[[ \t]{0,3})?(?:#[ \t]?)?\\?["']?\d)(?:\d{11}|\d{3}-\d{4}-\d{4})`,
  handle: (match, context) => context.placeholder(PlaceholderType.account, match.text),
};

const bucketInProse: Detector = {
  id: 'bucketProse',
  placement: 'punctuatedWord',
  // "in bucket orders-prod-artifacts": only bucket-shaped names with a dot or hyphen, so "bucket
  // policy" stays a phrase.
  source: String.raw`(?<=(?<![A-Za-z0-9])[Bb]ucket[ \t]{1,3})(?=[a-z0-9]*[-.])[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](?![A-Za-z0-9_:/@-]|\.[A-Za-z0-9])`,
  handle: (match, context) => maskFieldValue({ role: 'bucket' }, match.text, context),
};

export const fieldDetectors: readonly Detector[] = [fieldValue, flagValue, accountValue];
export const proseFieldDetectors: readonly Detector[] = [bucketInProse];
