/**
 * The syntax of what masking writes into text: typed, numbered placeholders for identifiers and
 * one-way redaction markers for secrets. Kept in one place so masking, unmasking and leak checks agree.
 */

/** Placeholder types the built-in detectors produce. Extra patterns bring their own types. */
export const PlaceholderType = {
  account: 'ACCOUNT',
  arn: 'ARN',
  resourceId: 'RESOURCE_ID',
  iamId: 'IAM_ID',
  ip: 'IP',
  host: 'HOST',
  dbEndpoint: 'DB_ENDPOINT',
  email: 'EMAIL',
  user: 'USER',
  bucket: 'BUCKET',
  logGroup: 'LOG_GROUP',
  pod: 'POD',
  cluster: 'CLUSTER',
  targetGroup: 'TARGET_GROUP',
  loadBalancer: 'LOAD_BALANCER',
  distribution: 'DISTRIBUTION',
  apiId: 'API_ID',
  kmsKey: 'KMS_KEY',
  name: 'NAME',
  service: 'SERVICE',
} as const;
export type BuiltInPlaceholderType = (typeof PlaceholderType)[keyof typeof PlaceholderType];

/**
 * `<TYPE_n>`: the closing `>` is part of the token, so `<IP_1>` can never be read as the start of
 * `<IP_10>` when restoring.
 */
export const placeholderPattern = /<[A-Z][A-Z0-9_]*_[1-9][0-9]*>/g;
const wholePlaceholder = /^<([A-Z][A-Z0-9_]*)_([1-9][0-9]*)>$/;

export const formatPlaceholder = (type: string, n: number): string => `<${type}_${n}>`;

export const parsePlaceholder = (placeholder: string): { type: string; n: number } | undefined => {
  const match = wholePlaceholder.exec(placeholder);
  return match ? { type: match[1]!, n: Number(match[2]) } : undefined;
};

export const isPlaceholder = (text: string): boolean => wholePlaceholder.test(text);

/** Secrets are replaced by this marker and never stored, so nothing can restore them. */
export const redactionMarker = (kind: string): string => `[REDACTED:${kind}]`;
export const REDACTION_PREFIX = '[REDACTED:';

/**
 * Turns a configured type such as "customer id" into a placeholder type (`CUSTOMER_ID`) that the
 * placeholder syntax can carry.
 */
export const normalizePlaceholderType = (type: string): string => {
  const cleaned = type
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (cleaned === '') return 'CUSTOM';
  return /^[A-Z]/.test(cleaned) ? cleaned : `X_${cleaned}`;
};
