import { PlaceholderType, REDACTION_PREFIX, isPlaceholder } from './placeholders.ts';
import type { ScanContext } from './detector.ts';

/**
 * Field names that tell what their value is. A 12-digit number is an account id only after
 * `accountId`; a word is a user name only after `user=`; anything after `password` is a secret.
 * The same names serve text (`key=value`, `key: value`, `"key": "value"`) and parsed JSON, so a
 * tool result masks the same way as a string or as an object.
 */

export const ACCOUNT_FIELD = String.raw`(?:(?:[Aa]ws|AWS|[Rr]ecipient|RECIPIENT|[Ss]ource|SOURCE|[Pp]ayer|PAYER|[Ll]inked|LINKED|[Mm]ember|MEMBER|[Tt]arget|TARGET|[Pp]arent|PARENT|[Mm]anagement|MANAGEMENT|[Dd]estination|DESTINATION|[Tt]rusted|TRUSTED)[_ -]?)?(?:[Aa]ccount|ACCOUNT)(?:[_ -]?(?:[Ii][Dd]|[Nn]umber|NUMBER))?s?|(?:[Oo]wner|OWNER)[_ -]?[Ii][Dd]|[Cc]lient[_ -]?[Ii][Dd]|CLIENT_ID`;

export const USER_FIELD = String.raw`[Uu]ser(?:[._-]?[Nn]ame)?|USER(?:_?NAME)?|[Uu]ser [Ii][Dd]|[Dd][Bb]_?[Uu]ser|DB_USER|PGUSER|MYSQL_USER|[Rr]ole[_-]?[Ss]ession[_-]?[Nn]ame|[Ss]ession[_-]?[Nn]ame`;

export const PRINCIPAL_FIELD = String.raw`[Pp]rincipal[_-]?[Ii][Dd]|PRINCIPAL_ID`;

export const BUCKET_FIELD = String.raw`[Bb]ucket(?:[_-]?[Nn]ame)?|BUCKET(?:_NAME)?`;

export const LOG_GROUP_FIELD = String.raw`[Ll]og[_ -]?[Gg]roup(?:[_ -]?[Nn]ame)?|LOG_GROUP(?:_NAME)?|awslogs-group`;

/** ECS and EKS clusters: `cluster`, `clusterName`, the `ClusterName` metric dimension. */
// Not the end of a hyphenated name (`shop-cluster: …`), which is a cluster, not a field naming one.
export const CLUSTER_FIELD = String.raw`(?<![-.])(?:[Cc]luster(?:[_-]?[Nn]ame)?|CLUSTER(?:_NAME)?)`;

/**
 * AWS ids whose field names say what they are and whose values have a fixed shape: API Gateway
 * (`restApiId`, the `ApiId` dimension), CloudFront (`DistributionId`) and KMS (`KeyId`, `kmsKeyId`).
 */
export const AWS_ID_FIELD = String.raw`(?:[Rr]est|[Hh]ttp)?[Aa]pi[_-]?[Ii][Dd]|(?:REST_?)?API_?ID|[Dd]istribution[_-]?[Ii][Dd]|DISTRIBUTION_?ID|(?:[Kk]ms|KMS)?[_-]?(?:[Kk]ey|KEY)[_-]?(?:[Ii][Dd]|ID)`;

/** The shape of each id the field names in AWS_ID_FIELD announce, and its placeholder type. */
const AWS_ID_SHAPES: readonly { name: RegExp; value: RegExp; type: string }[] = [
  { name: /api[_-]?id$/i, value: /^[a-z0-9]{10}$/, type: PlaceholderType.apiId },
  { name: /distribution[_-]?id$/i, value: /^E[A-Z0-9]{12,13}$/, type: PlaceholderType.distribution },
  {
    name: /key[_-]?id$/i,
    value: /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|mrk-[0-9a-f]{32})$/,
    type: PlaceholderType.kmsKey,
  },
];

/** A KMS key id: a key's UUID or a multi-region key's `mrk-` id. */
export const KMS_KEY_ID = AWS_ID_SHAPES[2]!.value;

/**
 * Secret field names: a core word, an optional suffix (`SecretAccessKey`, `tokenValue`), and
 * exclusions for look-alikes that are not secrets (`nextToken` paginates, `max_tokens` counts,
 * `partitionKey` names a column). Weak names (`key`, `signature`, `session`, `auth`) only count
 * when the value looks random; strong ones (`password`, `token`, `cookie`) always do.
 */
const STRONG_SECRET_CORE = String.raw`[Pp]ass(?:word|wd|phrase)|PASS(?:WORD|WD|PHRASE)|[Pp]wd|[Ss]ecret|SECRET|(?<![Nn]ext|NEXT_|[Nn]ext_|[Cc]ontinuation|[Pp]agination|[Pp]age|PAGE_|[Cc]ursor|[Mm]ax|[Mm]ax_|MAX_|[Nn]um|[Nn]um_|NUM_|[Cc]lient|[Ii]dempotency)(?:[Tt]oken|TOKEN)|[Aa]pi[_-]?[Kk]ey|API[_-]?KEY|[Aa]pikey|APIKEY|[Pp]rivate[_-]?[Kk]ey|PRIVATE[_-]?KEY|[Cc]redentials?|CREDENTIALS?`;
const WEAK_SECRET_CORE = String.raw`[Ss]ignature|SIGNATURE|[Cc]ookie|COOKIE|[Ss]ession(?:[_-]?[Ii][Dd])?|SESSION(?:_?ID)?|[Aa]uthorization|AUTHORIZATION|[Aa]uth|AUTH|[Hh]mac|HMAC|[Nn]once|NONCE|[Ss]alt|SALT|(?<![Pp]ublic|[Pp]ublic_|PUBLIC_|[Pp]artition|[Ss]ort|[Hh]ash|[Rr]ange|[Pp]rimary|[Ff]oreign|[Oo]bject|[Ss]3|[Cc]ache|[Ii]dempotency|[Dd]eduplication|[Rr]outing|[Gg]roup|[Ss]ecret)(?:[Kk]ey|KEY)`;
const SECRET_SUFFIX = String.raw`[_-]?(?:[Aa]ccess[_-]?[Kk]ey|ACCESS_KEY|[Kk]ey|KEY|[Ss]tring|STRING|[Vv]alue|VALUE|[Hh]ash|HASH|[Bb]ase64)`;
export const SECRET_FIELD = `(?:${STRONG_SECRET_CORE}|${WEAK_SECRET_CORE})(?:${SECRET_SUFFIX})?`;

export const splitOpeningQuote = (raw: string): { quote: string; content: string } => {
  if (raw.startsWith('\\"')) return { quote: '\\"', content: raw.slice(2) };
  if (raw.startsWith('"') || raw.startsWith("'")) return { quote: raw[0]!, content: raw.slice(1) };
  return { quote: '', content: raw };
};

const INERT_WORDS = new Set(['true', 'false', 'null', 'none', 'nil', 'undefined', 'n/a', '-', 'redacted', '<redacted>', 'hidden']);

/** Values that stand for no secret and no identity: empty, booleans, masks, template references, our own output. */
export const isInertValue = (value: string): boolean => {
  const first = value.charCodeAt(0);
  // Most values start with a letter or digit and are longer than any inert word: decide without a
  // pattern (x/X excepted: `xxxxxxxxxx` is a mask).
  const startsPlainly = (first >= 48 && first <= 57) || (first >= 65 && first <= 90) || (first >= 97 && first <= 122);
  if (startsPlainly && value.length > 9 && first !== 120 && first !== 88) return false;
  const trimmed = value.trim();
  return (
    trimmed === '' ||
    INERT_WORDS.has(trimmed.toLowerCase()) ||
    isPlaceholder(trimmed) ||
    trimmed.startsWith(REDACTION_PREFIX) ||
    /^(?:\*+|[xX]{3,})$/.test(trimmed) ||
    /^\$\{[^}]*\}$|^\$[A-Z_][A-Z0-9_]*$|^\{\{[^}]*\}\}$/.test(trimmed)
  );
};

export type FieldRole =
  | { role: 'secret'; kind: string; strong: boolean }
  | { role: 'account' }
  | { role: 'user' }
  | { role: 'principal' }
  | { role: 'bucket' }
  | { role: 'logGroup' }
  | { role: 'cluster' }
  /** A fixed-shape AWS id: masked as `type` when the value has the shape. */
  | { role: 'awsId'; type: string; shape: RegExp };

/** Names the secret a field holds, from the matched name and what precedes it (`client_secret`, `SessionToken`). */
export const classifySecretField = (name: string, before: string): { kind: string; strong: boolean } => {
  const key = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  // Only what is attached to the name counts (`client_secret`, `sessionToken`), not the word before it.
  const prefix = (/[A-Za-z0-9_-]*$/.exec(before)?.[0] ?? '').toLowerCase().replace(/[^a-z]/g, '');
  if (key.startsWith('pass') || key.startsWith('pwd')) return { kind: 'password', strong: true };
  if (key.startsWith('secret')) {
    if (key.includes('accesskey')) return { kind: 'aws_secret_access_key', strong: true };
    if (prefix.endsWith('client')) return { kind: 'client_secret', strong: true };
    return { kind: key.endsWith('key') ? 'secret_key' : 'secret', strong: true };
  }
  if (key.startsWith('token')) {
    if (prefix.endsWith('session') || prefix.endsWith('security')) return { kind: 'aws_session_token', strong: true };
    for (const kind of ['access', 'refresh', 'id', 'auth', 'bearer', 'csrf']) {
      if (prefix.endsWith(kind)) return { kind: `${kind}_token`, strong: true };
    }
    return { kind: 'token', strong: true };
  }
  if (key.startsWith('api')) return { kind: 'api_key', strong: true };
  if (key.startsWith('private')) return { kind: 'private_key', strong: true };
  if (key.startsWith('credential')) return { kind: 'credentials', strong: true };
  if (key.startsWith('cookie')) return { kind: 'cookie', strong: true };
  if (key.startsWith('session')) return { kind: 'session_id', strong: false };
  if (key.startsWith('authorization')) return { kind: 'authorization', strong: false };
  for (const kind of ['signature', 'auth', 'hmac', 'nonce', 'salt']) {
    if (key.startsWith(kind)) return { kind, strong: false };
  }
  return { kind: 'key', strong: false };
};

const wholeFieldName = (source: string): RegExp => new RegExp(`(?:${source})$`);
const ACCOUNT_NAME = wholeFieldName(ACCOUNT_FIELD);
const USER_NAME = wholeFieldName(USER_FIELD);
const PRINCIPAL_NAME = wholeFieldName(PRINCIPAL_FIELD);
const BUCKET_NAME = wholeFieldName(BUCKET_FIELD);
const LOG_GROUP_NAME = wholeFieldName(LOG_GROUP_FIELD);
const CLUSTER_NAME = wholeFieldName(CLUSTER_FIELD);
const AWS_ID_NAME = wholeFieldName(AWS_ID_FIELD);
const SECRET_NAME = wholeFieldName(SECRET_FIELD);

/** The role of a JSON property by its name, judged by how the name ends (`artifactBucket`, `DB_PASSWORD`). */
export const fieldRoleOfName = (name: string): FieldRole | undefined => {
  const secret = SECRET_NAME.exec(name);
  if (secret) return { role: 'secret', ...classifySecretField(secret[0], name.slice(0, secret.index)) };
  if (ACCOUNT_NAME.test(name)) return { role: 'account' };
  if (PRINCIPAL_NAME.test(name)) return { role: 'principal' };
  if (USER_NAME.test(name)) return { role: 'user' };
  if (BUCKET_NAME.test(name)) return { role: 'bucket' };
  if (LOG_GROUP_NAME.test(name)) return { role: 'logGroup' };
  if (CLUSTER_NAME.test(name)) return { role: 'cluster' };
  if (AWS_ID_NAME.test(name)) {
    const id = AWS_ID_SHAPES.find((shape) => shape.name.test(name));
    if (id) return { role: 'awsId', type: id.type, shape: id.value };
  }
  return undefined;
};

/** Shannon entropy in bits per character. */
const entropy = (value: string): number => {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
};

/**
 * Whether a value under a weak secret name looks like key material rather than a word, a path or
 * a file name: long, no spaces, several character classes, high entropy.
 */
export const looksRandom = (value: string): boolean => {
  if (value.length < 16 || /\s/.test(value)) return false;
  if ((value.match(/\//g)?.length ?? 0) >= 2 || /\.[A-Za-z]{2,5}$/.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((pattern) => pattern.test(value)).length;
  return classes >= 2 && entropy(value) >= 3;
};

/**
 * The leading run of characters key material is written in (base64, hex, URL-safe base64). A
 * weak secret field is judged on it alone: a placeholder or redaction ends it.
 */
const keyMaterialPrefix = (value: string): string => /^[A-Za-z0-9+/=_-]*/.exec(value)![0];

const NOT_A_NAME = /["'\\<>{}[\]\u0000-\u001f]/;
const ACCOUNT_VALUE = /^(?:\d{12}|\d{4}-\d{4}-\d{4})$/;
const BUCKET_VALUE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** ECS and EKS cluster names: letters, digits, `-` and `_`; one that starts with a letter, so a count (`cluster: 3`) is not one. */
const CLUSTER_VALUE = /^[A-Za-z][A-Za-z0-9_-]{0,254}$/;
const AUTH_SCHEME = /^((?:Bearer|Basic|Token|Digest|Negotiate|NTLM)\s+)(\S+)$/i;

/** `Bearer` -> bearer_token, `Basic` -> basic_auth: the kind of credential an HTTP auth scheme carries. */
export const authSchemeKind = (scheme: string): string => {
  const name = scheme.trim().toLowerCase();
  return name === 'basic' ? 'basic_auth' : `${name}_token`;
};

/** Masks a field value by its role; `rescan` handles everything that the role does not decide. */
export const maskFieldValue = (role: FieldRole, value: string, context: ScanContext): string => {
  if (isInertValue(value)) return context.rescan(value);
  switch (role.role) {
    case 'secret': {
      const scheme = AUTH_SCHEME.exec(value);
      if (scheme) return `${scheme[1]!}${context.redact(authSchemeKind(scheme[1]!))}`;
      if (role.strong) return context.redact(role.kind);
      // Judged on the value as it reads once identifiers in it are masked, which is how the leak
      // check will read it: the same verdict either way.
      const scanned = context.rescan(value);
      return looksRandom(keyMaterialPrefix(scanned)) ? context.redact(role.kind) : scanned;
    }
    case 'account':
      return ACCOUNT_VALUE.test(value) ? context.placeholder(PlaceholderType.account, value) : context.rescan(value);
    case 'principal':
      // `AROA…:session-name`, `AIDA…`, or an account id for the root user.
      return value
        .split(':')
        .map((part) => {
          if (part === '') return part;
          const scanned = context.rescan(part);
          if (scanned !== part) return scanned;
          if (/^\d{12}$/.test(part)) return context.placeholder(PlaceholderType.account, part);
          return /[A-Za-z]/.test(part) ? context.placeholder(PlaceholderType.user, part) : part;
        })
        .join(':');
    case 'awsId':
      return role.shape.test(value) ? context.placeholder(role.type, value) : context.rescan(value);
    case 'user':
    case 'logGroup':
    case 'cluster':
    case 'bucket': {
      // A name holds no quotes, brackets or escapes (a value that does is text, a JSON fragment);
      // bucket and cluster names have a fixed shape. Anything else is only scanned.
      const shape = role.role === 'bucket' ? BUCKET_VALUE : role.role === 'cluster' ? CLUSTER_VALUE : undefined;
      if (shape ? !shape.test(value) : NOT_A_NAME.test(value)) return context.rescan(value);
      // A name seen before keeps its placeholder without being read again.
      const known = context.known(value);
      if (known !== undefined) return known;
      const scanned = context.rescan(value);
      if (scanned !== value) return scanned;
      const type = { user: PlaceholderType.user, bucket: PlaceholderType.bucket, logGroup: PlaceholderType.logGroup, cluster: PlaceholderType.cluster }[role.role];
      return context.placeholder(type, value);
    }
  }
};
