import fc from 'fast-check';

/**
 * fast-check arbitraries for identifiers as they appear in AWS logs. Each snippet carries the raw
 * values it contains, so a test can check that none of them survives masking.
 */
export interface Snippet {
  text: string;
  raw: string[];
}

const chars = (alphabet: string, minLength: number, maxLength = minLength): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength, maxLength });

const hex = (length: number): fc.Arbitrary<string> => chars('0123456789abcdef', length);
const label = fc.stringMatching(/^[a-z][a-z0-9]{2,9}$/);
const region = fc.constantFrom('us-east-1', 'us-west-2', 'eu-west-1', 'ap-southeast-2');
const octet = fc.integer({ min: 0, max: 255 });

export const accountId = fc.integer({ min: 100_000_000_000, max: 999_999_999_999 }).map(String);

export const ipv4 = fc
  .tuple(fc.integer({ min: 1, max: 223 }).filter((first) => first !== 127 && first !== 169), octet, octet, fc.integer({ min: 1, max: 254 }))
  .map((octets) => octets.join('.'));

const hextet = fc.integer({ min: 1, max: 0xffff }).map((value) => value.toString(16));
export const ipv6 = fc.oneof(
  fc.array(hextet, { minLength: 8, maxLength: 8 }).map((groups) => groups.join(':')),
  fc.tuple(hextet, hextet, hextet).map(([a, b, c]) => `2600:1f18:${a}:${b}::${c}`),
  fc.tuple(hextet, hextet).map(([a, b]) => `2001:db8:${a}::${b}`),
);

const tld = fc.constantFrom('com', 'net', 'org', 'io', 'internal', 'local', 'cloud', 'dev', 'co.uk');
export const host = fc.oneof(
  fc.tuple(label, label, tld).map(([a, b, suffix]) => `${a}-${b}.${suffix}`),
  fc.tuple(label, label, tld).map(([a, b, suffix]) => `${a}.${b}.${suffix}`),
  fc.tuple(octet, octet, fc.integer({ min: 1, max: 254 })).map(([b, c, d]) => `ip-10-${b}-${c}-${d}.ec2.internal`),
  fc.tuple(label, chars('abcdefghijklmnopqrstuvwxyz0123456789', 12), region).map(
    ([name, id, where]) => `${name}-db.cluster-${id}.${where}.rds.amazonaws.com`,
  ),
);

export const email = fc.tuple(label, label, label).map(([first, last, domain]) => `${first}.${last}@${domain}.com`);

const resourcePrefix = fc.constantFrom('i', 'sg', 'vpc', 'subnet', 'eni', 'vol', 'snap', 'ami', 'igw', 'nat', 'rtb', 'acl', 'eipalloc', 'lt', 'tgw', 'pcx', 'vpce', 'fs');
export const resourceId = fc
  .tuple(resourcePrefix, fc.oneof(hex(8), hex(17)))
  .map(([prefix, id]) => `${prefix}-${id}`);

export const arn = fc.oneof(
  fc.tuple(region, accountId, label).map(([where, account, name]) => `arn:aws:lambda:${where}:${account}:function:${name}`),
  fc.tuple(accountId, label).map(([account, name]) => `arn:aws:iam::${account}:role/${name}-role`),
  fc.tuple(region, accountId, label, hex(32)).map(([where, account, name, id]) => `arn:aws:ecs:${where}:${account}:task/${name}/${id}`),
  fc.tuple(region, accountId, label).map(([where, account, name]) => `arn:aws:dynamodb:${where}:${account}:table/${name}`),
  fc.tuple(label, label).map(([bucket, key]) => `arn:aws:s3:::acme-${bucket}/${key}`),
);

const K8S_SAFE = 'bcdfghjklmnpqrstvwxz2456789';
export const pod = fc.tuple(label, chars(K8S_SAFE, 9, 10), chars(K8S_SAFE, 5)).map(([name, hash, suffix]) => `${name}-api-${hash}-${suffix}`);

export const bucketName = fc.tuple(label, fc.integer({ min: 10, max: 9999 })).map(([name, n]) => `acme-${name}-${n}`);
export const logGroup = fc.oneof(
  fc.tuple(label, label).map(([a, b]) => `/aws/lambda/${a}-${b}`),
  label.map((name) => `/ecs/${name}-service`),
);

/** Identifier snippets: the text as it stands in a log, and the raw values inside it. */
export const snippet: fc.Arbitrary<Snippet> = fc.oneof(
  arn.map((value) => ({ text: value, raw: [value] })),
  ipv4.map((value) => ({ text: value, raw: [value] })),
  fc.tuple(ipv4, fc.integer({ min: 1, max: 65535 })).map(([value, port]) => ({ text: `${value}:${port}`, raw: [value] })),
  ipv4.map((value) => ({ text: `${value}/24`, raw: [value] })),
  ipv6.map((value) => ({ text: value, raw: [value] })),
  ipv6.map((value) => ({ text: `[${value}]:443`, raw: [value] })),
  host.map((value) => ({ text: value, raw: [value] })),
  fc.tuple(host, fc.integer({ min: 1, max: 65535 })).map(([value, port]) => ({ text: `${value}:${port}`, raw: [value] })),
  email.map((value) => ({ text: value, raw: [value] })),
  resourceId.map((value) => ({ text: value, raw: [value] })),
  pod.map((value) => ({ text: value, raw: [value] })),
  logGroup.map((value) => ({ text: value, raw: [value] })),
  fc.tuple(host, label, fc.nat(9999)).map(([value, path, id]) => ({ text: `https://${value}/${path}/${id}?page=2`, raw: [value] })),
  fc.tuple(bucketName, label).map(([bucket, key]) => ({ text: `s3://${bucket}/${key}/part-0.csv`, raw: [bucket] })),
  accountId.map((value) => ({ text: `account ${value}`, raw: [value] })),
  accountId.map((value) => ({ text: `"accountId": "${value}"`, raw: [value] })),
  accountId.map((value) => ({ text: `AccountId=${value}`, raw: [value] })),
);

/** Field names and auth schemes that make the next value a secret or an identity: kept out of filler words. */
const CONTEXT_WORDS =
  /^(?:.*(?:pass|pwd|secret|token|key|auth|cookie|session|credential|signature|hmac|nonce|salt|user|bucket|account|owner|principal|group)|bearer|basic|digest)$/i;

/** Arbitrary filler words, as in log prose. */
export const word = fc.stringMatching(/^[A-Za-z]{1,12}$/).filter((value) => !CONTEXT_WORDS.test(value));

const separator = fc.constantFrom(' ', ', ', '. ', '\n', ' | ', ' (', ') ', ' "', '" ', '\t');

/** A line of words with identifier snippets between them; its raw values listed. */
export const logText: fc.Arbitrary<{ text: string; raw: string[] }> = fc
  .array(fc.oneof(word.map((text) => ({ text, raw: [] as string[] })), snippet), { minLength: 1, maxLength: 24 })
  .chain((parts) =>
    fc.array(separator, { minLength: parts.length, maxLength: parts.length }).map((separators) => ({
      text: parts.map((part, index) => `${part.text}${separators[index]!}`).join(''),
      raw: parts.flatMap((part) => part.raw),
    })),
  );

/** Secrets of every kind, as they appear in logs and configs. */
export const secretSnippet = fc.constantFrom(
  'password=hunter2',
  '"password": "a b c"',
  'AKIAIOSFODNN7EXAMPLE',
  'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'Authorization: Bearer abc123def456ghi',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----',
  'postgres://u:p4ss@db.internal/x',
  'token: t0k3n',
  'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  'Password=pw;',
  '--password pw123',
  'client_secret=cs',
  'x-api-key: k',
  'SessionToken=FwoGZXIvYXdzEBYaDHabcdefghijklmnop',
  'IQoJb3JpZ2luX2VjEHoaCXVzLWVhc3QtMSJHMEUCIQD',
  'Basic YWRtaW46aHVudGVyMg==',
  'user=alice',
  'Signature=0123456789abcdefABCDEF0123',
);

/** Separators and noise that glue tokens together with no space between them. */
const glue = fc.oneof(
  fc.constantFrom('', ' ', '.', ':', '=', '/', '-', '_', '@', '"', "'", ',', '\\"', '[', ']', '(', ')', '{', '}', '*', '#', '?', '&', '%', '+', '\n', 'x', '9', ';'),
  fc.string({ maxLength: 3 }),
);

/** Identifiers, secrets, words and noise concatenated with no guaranteed edges between them. */
export const glued: fc.Arbitrary<string> = fc
  .array(fc.oneof(snippet.map((part) => part.text), word, glue, secretSnippet), { minLength: 1, maxLength: 20 })
  .map((parts) => parts.join(''));
