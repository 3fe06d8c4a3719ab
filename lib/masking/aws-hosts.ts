import { PlaceholderType } from './placeholders.ts';

/**
 * AWS-aware reading of host names: which are public service endpoints (same for every customer,
 * and meaningful: `lambda.amazonaws.com` in CloudTrail says who acted), which are databases, and
 * which carry a bucket, an account id or an API id inside them.
 */

const REGION = String.raw`[a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d`;

/** `service[.region].amazonaws.com[.cn]` with a plain service label, and the console/docs hosts. */
const PUBLIC_AWS_ENDPOINT = new RegExp(
  String.raw`^(?:[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*(?:\.${REGION})?\.)?amazonaws\.com(?:\.cn)?$` +
    String.raw`|^(?:(?:${REGION}\.)?console\.|signin\.|docs\.)?aws\.amazon\.com$`,
);

/** EC2 public DNS labels (`ec2-54-1-2-3`) encode an address, so they never count as a service label. */
const ADDRESS_LABEL = /^(?:ec2|ip)-\d/;

export const isPublicAwsEndpoint = (host: string): boolean => {
  const lower = host.toLowerCase();
  return PUBLIC_AWS_ENDPOINT.test(lower) && !ADDRESS_LABEL.test(lower);
};

const DATABASE_ENDPOINT = /\.(?:rds|cache|redshift|docdb|dax|memorydb|es|aoss)\.amazonaws\.com(?:\.cn)?$/i;
const VIRTUAL_HOSTED_BUCKET = /^(.+?)\.s3(?:[.-](?:dualstack\.)?[a-z0-9-]+)*\.amazonaws\.com(?:\.cn)?$/i;
const ECR_REGISTRY = /^(\d{12})\.dkr\.ecr\./;
const API_GATEWAY = /^([a-z0-9]{10})\.execute-api\./;

export interface HostReading {
  /** Placeholder type of the host, or undefined to keep it as written. */
  type: string | undefined;
  /** Values embedded in the host name that must be known as well, so they are masked where they appear alone. */
  embedded: { type: string; value: string }[];
}

/** Host names repeat: remembered readings skip five pattern tests per repeat. Bounded, cleared when full. */
const readings = new Map<string, HostReading>();
const MAX_READINGS = 20_000;

export const readHost = (host: string): HostReading => {
  let reading = readings.get(host);
  if (!reading) {
    if (readings.size >= MAX_READINGS) readings.clear();
    reading = readHostUncached(host);
    readings.set(host, reading);
  }
  return reading;
};

const readHostUncached = (host: string): HostReading => {
  if (isPublicAwsEndpoint(host)) return { type: undefined, embedded: [] };
  const embedded: { type: string; value: string }[] = [];
  const bucket = VIRTUAL_HOSTED_BUCKET.exec(host);
  if (bucket) embedded.push({ type: PlaceholderType.bucket, value: bucket[1]! });
  const registry = ECR_REGISTRY.exec(host);
  if (registry) embedded.push({ type: PlaceholderType.account, value: registry[1]! });
  const api = API_GATEWAY.exec(host);
  if (api) embedded.push({ type: PlaceholderType.apiId, value: api[1]! });
  return { type: DATABASE_ENDPOINT.test(host) ? PlaceholderType.dbEndpoint : PlaceholderType.host, embedded };
};
