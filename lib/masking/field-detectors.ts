import type { Detector, DetectorMatch, ScanContext } from './detector.ts';
import {
  ACCOUNT_FIELD,
  AWS_ID_FIELD,
  CLUSTER_FIELD,
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
import { PlaceholderType, REDACTION_PREFIX } from './placeholders.ts';

/**
 * Detectors for values whose field name says what they are. They match from the separator on and
 * check the name behind it (a lookbehind), so the scan only stops at `:` and `=` rather than
 * trying every field name at every letter. The name itself is never rewritten.
 */

/**
 * A field value: in escaped JSON quotes, in quotes, or bare up to a delimiter. A bare value may
 * start with an HTTP auth scheme (`Authorization: Bearer abc`); it stops at `=` unless that is
 * base64 padding at its end (`a=1b=2` is two fields), and before `--`, which starts a flag. The
 * opening quote is part of the value and the closing one is not, so a replacement keeps the
 * quoting intact.
 */
const FIELD_VALUE = String.raw`\\"(?:[^"\\\r\n]|\\[^"\r\n])*|"(?:[^"\\\r\n]|\\.)*|'[^'\r\n]*|(?:(?:[Bb]earer|BEARER|[Bb]asic|BASIC|[Tt]oken|[Dd]igest|[Nn]egotiate|NTLM)[ \t]+)?(?![\s"'<\[{(])(?:(?!--)[^\s"',;&<>)\]}\\=])+(?:=+(?![^\s"',;&<>)\]}\\]))?`;

const NAMED_FIELDS = [SECRET_FIELD, PRINCIPAL_FIELD, USER_FIELD, BUCKET_FIELD, LOG_GROUP_FIELD, CLUSTER_FIELD, AWS_ID_FIELD].join('|');

/** Between a field name and its separator: a closing quote (maybe escaped) and a few spaces. */
const NAME_GAP = String.raw`\\?["']?[ \t]{0,3}`;

/** How far back a field name is read to name the secret it holds (`client_secret`, `x-amz-security-token`). */
const NAME_CONTEXT = 64;

/** Field names repeat: remembered roles skip the name patterns on repeats. Bounded, cleared when full. */
const roles = new Map<string, FieldRole | undefined>();
const MAX_ROLES = 5_000;

/** The role of the field whose separator is at `separator` in `input`. */
const roleBefore = (input: string, separator: number): FieldRole | undefined => {
  // Step back over the gap between name and separator: spaces, a closing quote, an escaping backslash.
  let nameEnd = separator;
  while (nameEnd > 0 && (input[nameEnd - 1] === ' ' || input[nameEnd - 1] === '\t')) nameEnd -= 1;
  if (input[nameEnd - 1] === '"' || input[nameEnd - 1] === "'") nameEnd -= 1;
  if (input[nameEnd - 1] === '\\') nameEnd -= 1;
  // The role depends on the name and a few characters before it (`client_`, `x-amz-security-`).
  const key = input.slice(Math.max(0, nameEnd - 48), nameEnd);
  let role = roles.get(key);
  if (role === undefined && !roles.has(key)) {
    if (roles.size >= MAX_ROLES) roles.clear();
    role = fieldRoleOfName(input.slice(Math.max(0, nameEnd - NAME_CONTEXT), nameEnd));
    roles.set(key, role);
  }
  return role;
};

/** Length of the longest common suffix of two strings. */
const commonSuffixLength = (a: string, b: string): number => {
  let length = 0;
  while (length < a.length && length < b.length && a[a.length - 1 - length] === b[b.length - 1 - length]) length += 1;
  return length;
};

/**
 * Masks a raw field value by `role`. A bare value that is not redacted gives back to the scan
 * whatever it leaves raw at its end: sentence punctuation (`user=alice: timeout`) and the rest of
 * a value that only held an identifier at its start (`user=bob@example.com(Basic …`), so that
 * text is read with its own context and can start the next detection. A redacted secret keeps
 * everything, since it may all be part of the secret.
 */
const maskValueText = (role: FieldRole | undefined, rawValue: string, match: DetectorMatch, context: ScanContext): string => {
  const { quote, content } = splitOpeningQuote(rawValue);
  if (quote !== '') return quote + (role ? maskFieldValue(role, content, context) : context.rescan(content));
  if (role?.role === 'secret') {
    const whole = maskFieldValue(role, content, context);
    if (whole.startsWith(REDACTION_PREFIX)) return whole;
  }
  let valueEnd = content.length;
  while (valueEnd > 0 && '.:!?'.includes(content[valueEnd - 1]!)) valueEnd -= 1;
  const value = content.slice(0, valueEnd);
  const masked = role ? maskFieldValue(role, value, context) : context.rescan(value);
  const raw = commonSuffixLength(value, masked);
  match.consumed -= content.length - valueEnd + raw;
  return masked.slice(0, masked.length - raw);
};

const fieldValue: Detector = {
  id: 'field',
  placement: 'anywhere',
  // `password=…`, `"client_secret": "…"`, `user: alice`, `"bucketName":"…"`, `Password=…;`.
  // A one-character lookbehind first: `10:15:30` and `a=1` leave before the name patterns run.
  source: String.raw`[:=](?<=[A-Za-z"' \t\\][:=])(?<=(?:${NAMED_FIELDS})${NAME_GAP}[:=])[ \t]{0,3}(?:${FIELD_VALUE})`,
  handle: (match, context) => {
    let valueStart = 1;
    while (match.text[valueStart] === ' ' || match.text[valueStart] === '\t') valueStart += 1;
    const role = roleBefore(match.input, match.offset);
    return match.text.slice(0, valueStart) + maskValueText(role, match.text.slice(valueStart), match, context);
  },
};

const FLAG_NAMES = 'password|passwd|secret|token|api-key|apikey|client-secret|secret-key|access-token|private-key|user|username|db-user';

const flagValue: Detector = {
  id: 'flag',
  placement: 'anywhere',
  // Command lines: `--password hunter2`, `--db-user app`. No edge check before the dashes: for a
  // secret, matching too eagerly is the safe side.
  source: String.raw`--(?:[a-z0-9]+-)*(?:${FLAG_NAMES})[ \t]{1,3}(?:"[^"\r\n]*|'[^'\r\n]*|[^\s"'-][^\s"']*)`,
  handle: (match, context) => {
    const [, name = '', space = '', value = ''] = /^(\S+)([ \t]+)([\s\S]*)$/.exec(match.text) ?? [];
    const role = fieldRoleOfName(name.slice(2).replace(/-/g, '_'));
    return name + space + maskValueText(role, value, match, context);
  },
};

/** Earlier elements of a list of account ids (`"accounts": ["111…", "222…"]`), so every element counts. */
const EARLIER_ACCOUNTS = String.raw`(?:\\?["']?\d{12}\\?["']?[ \t]{0,3},[ \t]{0,3})*`;

const accountValue: Detector = {
  id: 'account',
  placement: 'anywhere',
  wholeValue: true,
  // `"accountId": "123456789012"`, `AccountId=…`, `account 123456789012`, `Account ID: 1234-5678-9012`,
  // `"accountIds": ["…", "…"]`.
  // Only a 12-digit number right after such a name: a 12-digit number alone may be an order number.
  // Cheap checks first (a number starts here, twelve digits follow), the name lookbehind last.
  source: String.raw`\d(?<![0-9]\d)(?=\d{11}(?![A-Za-z0-9_-])|\d{3}-\d{4}-\d{4}(?![A-Za-z0-9_-]))(?<=(?:${ACCOUNT_FIELD})\\?["']?[ \t]{0,3}(?:[:=][ \t]{0,3})?(?:\[[ \t]{0,3}${EARLIER_ACCOUNTS})?(?:#[ \t]?)?\\?["']?\d)(?:\d{11}|\d{3}-\d{4}-\d{4})`,
  handle: (match, context) => context.placeholder(PlaceholderType.account, match.text),
};

const balancerSourceAccount: Detector = {
  id: 'balancerSource',
  placement: 'anywhere',
  // WAF logs name the load balancer a request came through by account and balancer:
  // `"httpSourceId": "123456789012-app/orders-alb/50dc6c495c0c9188"`. Only twelve digits that start a
  // token and run into `-app/` or `-net/`; the balancer after them is masked as it is anywhere else.
  source: String.raw`\d(?<![A-Za-z0-9_]\d)(?=\d{11}-(?:app|net)\/)\d{11}-(?:app|net)\/[A-Za-z0-9-]+\/[0-9a-f]+`,
  handle: (match, context) => `${context.placeholder(PlaceholderType.account, match.text.slice(0, 12))}-${context.rescan(match.text.slice(13))}`,
};

const bucketInProse: Detector = {
  id: 'bucketProse',
  placement: 'punctuatedWord',
  // "in bucket orders-prod-artifacts": only bucket-shaped names with a dot or hyphen, so "bucket
  // policy" stays a phrase.
  source: String.raw`(?<=(?<![A-Za-z0-9])[Bb]ucket[ \t]{1,3})(?=[a-z0-9]*[-.])[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](?![A-Za-z0-9_:/@-]|\.[A-Za-z0-9])`,
  handle: (match, context) => maskFieldValue({ role: 'bucket' }, match.text, context),
};

const quotedUserInProse: Detector = {
  id: 'quotedUser',
  placement: 'word',
  // Database errors quote the user: `password authentication failed for user "app"`, `role "app"
  // does not exist`, `Access denied for user 'app'@'10.0.0.1'`, also inside escaped JSON
  // (`user \"app\"`). Only a quoted name right after `user` or `role`, so prose stays prose.
  // The closing quote is only looked at.
  source: String.raw`(?:[Uu]ser|USER|[Rr]ole|ROLE)[ \t]{1,3}\\{0,7}["'][A-Za-z0-9_$][A-Za-z0-9_.$@-]{0,62}(?=\\{0,7}["'])`,
  handle: (match, context) => {
    const nameStart = match.text.search(/["']/) + 1;
    return match.text.slice(0, nameStart) + maskFieldValue({ role: 'user' }, match.text.slice(nameStart), context);
  },
};

export const fieldDetectors: readonly Detector[] = [fieldValue, flagValue, accountValue, balancerSourceAccount];
export const proseFieldDetectors: readonly Detector[] = [bucketInProse, quotedUserInProse];
