import type { Detector } from './detector.ts';

/**
 * Secrets are redacted one way: replaced by `[REDACTED:kind]`, never stored, never restorable.
 * They come first in the combined scan so that no identifier detector can take part of one.
 * Private key blocks span lines, so they are taken out before the scan (private-key-blocks.ts).
 */

const jwt: Detector = {
  id: 'jwt',
  placement: 'word',
  source: String.raw`(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`,
  handle: (_match, context) => context.redact('jwt'),
};

/** AKIA (long-term), ASIA (temporary), ABIA/ACCA (service-specific) access key ids. */
export const AWS_ACCESS_KEY_ID_SOURCE = String.raw`(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])`;

const awsAccessKeyId: Detector = {
  id: 'awsAccessKeyId',
  placement: 'word',
  source: AWS_ACCESS_KEY_ID_SOURCE,
  handle: (_match, context) => context.redact('aws_access_key_id'),
};

const awsSessionToken: Detector = {
  id: 'awsSessionToken',
  placement: 'word',
  // STS session tokens begin with a fixed base64 prefix whatever field they sit in.
  source: String.raw`(?<![A-Za-z0-9/+])(?:IQoJb3JpZ2luX2V|FwoGZXIvYXdz|FQoGZXIvYXdz)[A-Za-z0-9/+=%]{20,}`,
  handle: (_match, context) => context.redact('aws_session_token'),
};

const VENDOR_TOKEN_KINDS: readonly [RegExp, string][] = [
  [/^gh[pousr]_|^github_pat_/, 'github_token'],
  [/^xox/, 'slack_token'],
  [/^[sr]k_live_/, 'stripe_key'],
  [/^AIza/, 'google_api_key'],
  [/^sk-ant-/, 'anthropic_api_key'],
  [/^sk-/, 'openai_api_key'],
  [/^npm_/, 'npm_token'],
  [/^glpat-/, 'gitlab_token'],
];

const vendorToken: Detector = {
  id: 'vendorToken',
  placement: 'word',
  // Tokens whose prefix says what they are, wherever they appear.
  source: String.raw`(?<![A-Za-z0-9_-])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}|xox[abposr]-[A-Za-z0-9-]{10,}|[sr]k_live_[A-Za-z0-9]{16,}|AIza[0-9A-Za-z_-]{35}|sk-ant-[A-Za-z0-9_-]{20,}|sk-(?:proj-)?[A-Za-z0-9_-]{32,}|npm_[A-Za-z0-9]{36}|glpat-[A-Za-z0-9_-]{20,})`,
  handle: (match, context) =>
    context.redact(VENDOR_TOKEN_KINDS.find(([prefix]) => prefix.test(match.text))?.[1] ?? 'token'),
};

/** Something a credential looks like and a word does not: a digit, mixed case, or base64 punctuation. */
const looksLikeCredential = (value: string): boolean =>
  /[0-9+/=]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value.slice(1)));

const authScheme: Detector = {
  id: 'authScheme',
  placement: 'word',
  // `Bearer <token>` and `Basic <base64>` wherever they appear (headers, curl lines, logged requests).
  source: String.raw`(?:[Bb]earer|BEARER|[Bb]asic|BASIC|[Tt]oken|[Dd]igest)[ \t]+[A-Za-z0-9._~+/-]{8,}=*`,
  handle: (match, context) => {
    const [, name = '', space = '', value = ''] = /^(\S+)([ \t]+)(\S*)$/.exec(match.text) ?? [];
    const replacement = looksLikeCredential(value)
      ? context.redact(name.toLowerCase() === 'basic' ? 'basic_auth' : 'bearer_token')
      : context.rescan(value);
    return `${name}${space}${replacement}`;
  },
};

/** Secrets that say what they are, wherever they stand; field-based secrets are in field-detectors.ts. */
export const secretDetectors: readonly Detector[] = [
  jwt,
  awsAccessKeyId,
  awsSessionToken,
  vendorToken,
  authScheme,
];
