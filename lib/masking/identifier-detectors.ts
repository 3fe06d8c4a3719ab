import type { Detector, ScanContext } from './detector.ts';
import { readHost } from './aws-hosts.ts';
import { isInertValue, KMS_KEY_ID } from './field-context.ts';
import { isIPv4, isIPv6, isSharedIPv4, isSharedIPv6 } from './ip-addresses.ts';
import { PlaceholderType } from './placeholders.ts';
import { HOST_END, hostNameSource, isHostName } from './host-names.ts';

/**
 * Identifier detectors, most specific first. Where two could start at the same place the earlier
 * one wins, so whole structures (ARN, URL, e-mail) come before their parts (account, host).
 *
 * UUIDs (request ids, trace ids) identify nothing and are left alone. None of these detectors can
 * start inside one: each needs a token edge before it, and a `-` is not one, so a UUID is never
 * masked in half.
 */

/** Sentence punctuation after an identifier belongs to the sentence. */
const splitTrailingPunctuation = (text: string): [string, string] => {
  const trailing = /[.,;:!?]+$/.exec(text);
  return trailing ? [text.slice(0, trailing.index), trailing[0]] : [text, ''];
};

const arn: Detector = {
  id: 'arn',
  wholeValue: true,
  placement: 'punctuatedWord',
  // The whole ARN, resource part included: the resource name is often the most identifying part.
  // A comma or semicolon ends it, so lists of ARNs stay separate (IAM names with commas are rare).
  // It never ends on sentence punctuation, which stays in the text for what follows (`…:x token: abc`).
  source: String.raw`(?<![A-Za-z0-9_-])arn:aws(?:-[a-z]+)*:[a-z0-9-]+:[a-z0-9-]*:(?:\d{12}|aws)?:(?:[^\s"'<>()\[\]{}|\\^,;` + '`' + String.raw`]*[^\s"'<>()\[\]{}|\\^,;.:!?` + '`' + '])?',
  handle: (match, context) => {
    const [value, trailing] = splitTrailingPunctuation(match.text);
    const parts = value.split(':');
    const account = parts[4] ?? '';
    // AWS-managed ARNs (arn:aws:iam::aws:policy/ReadOnlyAccess) are the same for everyone.
    if (account === 'aws') return match.text;
    const service = parts[2];
    const resource = parts.slice(5).join(':');
    // An ECS service ARN keeps its service name, as service names are kept everywhere; its account
    // and cluster are masked.
    const ecsService = service === 'ecs' ? /^service\/(?:([^/]+)\/)?([^/]+)$/.exec(resource) : null;
    if (ecsService && /^\d{12}$/.test(account)) {
      const [, cluster, name] = ecsService;
      const maskedCluster = cluster === undefined ? '' : `${context.placeholder(PlaceholderType.cluster, cluster)}/`;
      return `${parts.slice(0, 4).join(':')}:${context.placeholder(PlaceholderType.account, account)}:service/${maskedCluster}${name!}${trailing}`;
    }
    // The account, bucket, cluster and key id inside are made known too, so they are masked where they appear alone.
    if (/^\d{12}$/.test(account)) context.remember(PlaceholderType.account, account);
    if (service === 's3' && account === '') {
      const bucket = resource.split('/')[0];
      if (bucket) context.remember(PlaceholderType.bucket, bucket);
    }
    const cluster = service === 'ecs' ? /^(?:task|container-instance|task-set)\/([^/]+)\/./.exec(resource)?.[1] ?? /^cluster\/([^/]+)$/.exec(resource)?.[1] : undefined;
    if (cluster) context.remember(PlaceholderType.cluster, cluster);
    const keyId = service === 'kms' ? /^key\/(.+)$/.exec(resource)?.[1] : undefined;
    if (keyId && KMS_KEY_ID.test(keyId)) context.remember(PlaceholderType.kmsKey, keyId);
    return context.placeholder(PlaceholderType.arn, value) + trailing;
  },
};

/** Strips what follows a URL in prose: sentence punctuation and a closing bracket it did not open. */
const splitUrlTrailing = (text: string): [string, string] => {
  let end = text.length;
  // The pattern never ends a URL on sentence punctuation; only an unopened bracket is left to give back.
  while (end > 0 && ')]}'.includes(text[end - 1]!)) {
    const close = text[end - 1]!;
    const open = close === ')' ? '(' : close === ']' ? '[' : '{';
    const body = text.slice(0, end);
    if (body.split(open).length >= body.split(close).length) break;
    end -= 1;
  }
  return end === text.length ? [text, ''] : [text.slice(0, end), text.slice(end)];
};

const maskUrlUser = (user: string, context: ScanContext): string => {
  if (user === '' || isInertValue(user)) return user;
  const scanned = context.rescan(user);
  return scanned !== user ? scanned : context.placeholder(PlaceholderType.user, user);
};

const maskUrlHost = (scheme: string, host: string, context: ScanContext): string => {
  if (host === '' || isInertValue(host)) return host;
  if (/^s3[an]?$/i.test(scheme)) return context.placeholder(PlaceholderType.bucket, host);
  if (host.startsWith('[') && host.endsWith(']')) {
    const address = host.slice(1, -1);
    return isIPv6(address) && !isSharedIPv6(address) ? `[${context.placeholder(PlaceholderType.ip, address)}]` : host;
  }
  if (isIPv4(host)) return isSharedIPv4(host) ? host : context.placeholder(PlaceholderType.ip, host);
  // In a URL the host position is unambiguous, so any dotted name is a host, whatever its TLD.
  if (host.includes('.')) {
    const reading = readHost(host);
    for (const embedded of reading.embedded) context.remember(embedded.type, embedded.value);
    return reading.type ? context.placeholder(reading.type, host) : host;
  }
  // A single label (`http://orders-api:8080`) is a service name or localhost: kept unless listed.
  return context.rescan(host);
};

/** SQS endpoints, whose queue URLs start their path with the account id: `https://sqs.<region>.amazonaws.com/<account>/<queue>`. */
const SQS_ENDPOINT = /^(?:sqs(?:\.[a-z0-9-]+)?|queue|[a-z0-9-]+\.queue)\.amazonaws\.com(?:\.cn)?$/i;
const ACCOUNT_PATH = /^\/(\d{12})(?=[/?#]|$)/;

const maskUrlTail = (host: string, tail: string, context: ScanContext): string => {
  const account = ACCOUNT_PATH.exec(tail);
  if (!account || !SQS_ENDPOINT.test(host)) return context.rescan(tail);
  return `/${context.placeholder(PlaceholderType.account, account[1]!)}${context.rescan(tail.slice(account[0].length))}`;
};

const url: Detector = {
  id: 'url',
  placement: 'punctuatedWord',
  // Scheme and path shape stay (they tell what was called); credentials and host are masked, and
  // the path and query are scanned like any text.
  // It never ends on sentence punctuation: `https://x/y: token: abc` leaves `: token: abc` to the scan.
  // Placeholders (`s3://<BUCKET_1>/x`) are read as part of the URL too, so masked text is cut into
  // the same pieces when it is scanned again. A `--` ends it: that starts a command-line flag.
  source: String.raw`(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/(?:(?:(?!--)[^\s"'\\` + '`' + String.raw`])*(?!--)[^\s"'\\.,;:!?` + '`' + '])?',
  handle: (match, context) => {
    const schemeEnd = match.text.indexOf('://');
    const scheme = match.text.slice(0, schemeEnd);
    const [rest, trailing] = splitUrlTrailing(match.text.slice(schemeEnd + 3));
    const authorityEnd = rest.search(/[/?#]/);
    const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
    const tail = authorityEnd === -1 ? '' : rest.slice(authorityEnd);
    const at = authority.lastIndexOf('@');
    let credentials = '';
    if (at !== -1) {
      const userInfo = authority.slice(0, at);
      const colon = userInfo.indexOf(':');
      const user = colon === -1 ? userInfo : userInfo.slice(0, colon);
      const password = colon === -1 ? undefined : userInfo.slice(colon + 1);
      credentials = maskUrlUser(user, context);
      if (password !== undefined) {
        credentials += `:${password === '' || isInertValue(password) ? password : context.redact('password')}`;
      }
      credentials += '@';
    }
    const hostAndPort = authority.slice(at + 1);
    let host = hostAndPort;
    let port = '';
    if (hostAndPort.startsWith('[')) {
      const close = hostAndPort.indexOf(']');
      if (close !== -1) {
        host = hostAndPort.slice(0, close + 1);
        port = hostAndPort.slice(close + 1);
      }
    } else {
      const portMatch = /:\d*$/.exec(hostAndPort);
      if (portMatch) {
        host = hostAndPort.slice(0, portMatch.index);
        port = portMatch[0];
      }
    }
    const portIsNumber = /^(?::\d*)?$/.test(port);
    const maskedHost = portIsNumber ? maskUrlHost(scheme, host, context) : context.rescan(host);
    const maskedPort = portIsNumber ? port : context.rescan(port);
    return `${scheme}://${credentials}${maskedHost}${maskedPort}${maskUrlTail(host, tail, context)}${trailing}`;
  },
};

const email: Detector = {
  id: 'email',
  wholeValue: true,
  placement: 'punctuatedWord',
  // The local part is read once (a lookahead and a backreference make it atomic): no backtracking
  // through every word that turns out to have no `@`. A local part a logger starred out
  // (`c***@outlook.com`, even `***@outlook.com`) is still an address: its domain names the recipient's organisation.
  source: String.raw`(?<![A-Za-z0-9.+%_*-])(?=(?<emailLocal>[A-Za-z0-9*][A-Za-z0-9._%+*-]{0,63}))\k<emailLocal>@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,24}(?![A-Za-z0-9_-]|\.[A-Za-z0-9])`,
  handle: (match, context) => context.placeholder(PlaceholderType.email, match.text),
};

const logGroupPath: Detector = {
  id: 'logGroupPath',
  wholeValue: true,
  placement: 'punctuatedWord',
  // CloudWatch log groups by their conventional prefixes; the name after the prefix is the part that identifies.
  // `/aws/<service>/<name>` or `/ecs/<name>`; bare prefixes (`/aws/lambda`) name nobody's resource.
  // Anything but a slash may stand before it: inside a longer path it is still a log group name.
  source: String.raw`(?<!\/)\/(?:(?:aws|aws-glue)(?:\/[A-Za-z0-9_.#$\[\]-]*[A-Za-z0-9_#$\[\]-]){2,}|(?:ecs|eks)(?:\/[A-Za-z0-9_.#$\[\]-]*[A-Za-z0-9_#$\[\]-])+)`,
  handle: (match, context) => {
    const [value, trailing] = splitTrailingPunctuation(match.text);
    return context.placeholder(PlaceholderType.logGroup, value) + trailing;
  },
};

const RESOURCE_PREFIXES = [
  'i', 'sg', 'sgr', 'vpc', 'subnet', 'eni', 'vol', 'snap', 'ami', 'igw', 'eigw', 'nat', 'rtb', 'rtbassoc', 'acl',
  'aclassoc', 'eipalloc', 'eipassoc', 'lt', 'tgw', 'tgw-attach', 'tgw-rtb', 'pcx', 'vpce', 'vpce-svc', 'fs', 'fsap',
  'fsmt', 'dopt', 'cgw', 'vgw', 'vpn', 'r', 'key', 'pl', 'ipam', 'h', 'cr', 'sir', 'sfr', 'fleet', 'fl', 'elb',
  'export', 'import',
];

const resourceId: Detector = {
  id: 'resourceId',
  wholeValue: true,
  placement: 'punctuatedWord',
  // EC2-style ids (prefix + 8 or 17 hex) and RDS resource ids (db-/cluster- + 26 upper-case characters). A name built
  // from an id (an alarm `nat-06d3b8e2-port-allocation-errors`, `ec2-i-0c41d7e2a9b36f018-StatusCheckFailed`) carries it:
  // a word and a hyphen may come before it, a hyphen and a word after.
  source: String.raw`(?<![A-Za-z0-9_])(?:(?:${RESOURCE_PREFIXES.join('|')})-(?:[0-9a-f]{17}|[0-9a-f]{8})|(?:db|cluster)-[A-Z0-9]{26})(?![A-Za-z0-9_]|-[0-9a-f]+(?![A-Za-z0-9_-]))`,
  handle: (match, context) => context.placeholder(PlaceholderType.resourceId, match.text),
};

const iamId: Detector = {
  id: 'iamId',
  wholeValue: true,
  placement: 'word',
  // IAM unique ids: users (AIDA), roles (AROA), groups (AGPA), policies (ANPA, ANVA), profiles (AIPA), keys.
  source: String.raw`(?<![A-Za-z0-9])(?:AIDA|AROA|AIPA|ANPA|ANVA|AGPA|APKA|ASCA)[A-Z0-9]{12,28}(?![A-Za-z0-9])`,
  handle: (match, context) => context.placeholder(PlaceholderType.iamId, match.text),
};

const host: Detector = {
  id: 'host',
  wholeValue: true,
  placement: 'punctuatedWord',
  // Not a later label of a longer name, except after a wildcard (`*.orders.internal`).
  source: `(?<![A-Za-z0-9_@-]|[A-Za-z0-9_-]\\.)(?:${hostNameSource()})${HOST_END}`,
  handle: (match, context) => {
    // A file or property name with an ambiguous suffix (`main.py`, `user.id`) holds nothing to mask.
    if (!isHostName(match.text)) return match.text;
    const reading = readHost(match.text);
    for (const embedded of reading.embedded) context.remember(embedded.type, embedded.value);
    return reading.type ? context.placeholder(reading.type, match.text) : match.text;
  },
};

const elbId: Detector = {
  id: 'elbId',
  wholeValue: true,
  placement: 'punctuatedWord',
  // Target groups and load balancers as metric dimensions and access logs write them:
  // `targetgroup/<name>/<16 hex>`, `app/<name>/<16 hex>` (also `net/`, `gwy/`).
  source: String.raw`(?<![A-Za-z0-9_./-])(?:targetgroup|app|net|gwy)\/[A-Za-z0-9-]{1,32}\/[0-9a-f]{16}(?![A-Za-z0-9_-])`,
  handle: (match, context) =>
    context.placeholder(match.text.startsWith('targetgroup/') ? PlaceholderType.targetGroup : PlaceholderType.loadBalancer, match.text),
};

const distributionInProse: Detector = {
  id: 'distributionProse',
  wholeValue: true,
  placement: 'word',
  // A CloudFront distribution id (`E` and 13 upper-case letters and digits, one a digit at least)
  // only where the text says it is one: `distribution E2QWRUHAPOMQZL`, `CloudFront … E2QWRUHAPOMQZL`.
  // Upper-case words and error codes of that length stay. Fields (`DistributionId`) are read by their name.
  source: String.raw`E(?=[A-Z0-9]{13}(?![A-Za-z0-9_-]))(?=[A-Z]*[0-9])(?<=(?:[Dd]istribution|DISTRIBUTION|[Cc]loud[Ff]ront|CLOUDFRONT)[^\n]{0,40}E)[A-Z0-9]{13}`,
  handle: (match, context) => context.placeholder(PlaceholderType.distribution, match.text),
};

/** Kubernetes' alphabet for generated name suffixes: no vowels, no 0/1/3, so real words rarely fit. */
const K8S_SAFE = '[bcdfghjklmnpqrstvwxz2456789]';

const pod: Detector = {
  id: 'pod',
  wholeValue: true,
  placement: 'punctuatedWord',
  // Deployment pods: `<name>-<pod-template-hash>-<5 chars>`.
  source: String.raw`(?<![A-Za-z0-9_.-])[a-z0-9]+(?:-[a-z0-9]+)*-${K8S_SAFE}{6,10}-${K8S_SAFE}{5}(?![A-Za-z0-9_-])`,
  handle: (match, context) => context.placeholder(PlaceholderType.pod, match.text),
};

const ipv4: Detector = {
  id: 'ipv4',
  wholeValue: true,
  placement: 'punctuatedWord',
  // Ports (`:5432`) and prefix lengths (`/16`) stay readable after the address.
  // Not followed by `-word` either (`1.2.3.4-beta` is a version), unless it is a private address: names
  // built from a host's address (`web-10.24.7.19-p99`) are common, private-range versions are not.
  source: String.raw`(?<![A-Za-z0-9_.])(?:(?:10\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])|192\.168)\.\d{1,3}\.\d{1,3}(?![A-Za-z0-9_]|\.\d)|\d{1,3}(?:\.\d{1,3}){3}(?![A-Za-z0-9_]|\.\d|-[A-Za-z]))`,
  handle: (match, context) =>
    isIPv4(match.text) && !isSharedIPv4(match.text) ? context.placeholder(PlaceholderType.ip, match.text) : match.text,
};

const ipv6: Detector = {
  id: 'ipv6',
  wholeValue: true,
  placement: 'punctuatedWord',
  // Loose on purpose (hex and colons, with `::` or eight groups), then validated: a full IPv6
  // grammar in the scan would cost more than it saves.
  source: String.raw`(?<![A-Za-z0-9_:.])(?=[0-9A-Fa-f]{0,4}:)(?=[0-9A-Fa-f:]*::|(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]|(?:[0-9A-Fa-f]{1,4}:){6}\d)(?:[0-9A-Fa-f:]{2,32}:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f:]{2,39})(?![A-Za-z0-9_:]|\.\d)`,
  handle: (match, context) =>
    isIPv6(match.text) && !isSharedIPv6(match.text) ? context.placeholder(PlaceholderType.ip, match.text) : match.text,
};

/** Single-token shapes, most specific first. */
export const identifierDetectors: readonly Detector[] = [
  arn,
  url,
  email,
  logGroupPath,
  resourceId,
  iamId,
  elbId,
  distributionInProse,
  host,
  pod,
  ipv4,
  ipv6,
];
