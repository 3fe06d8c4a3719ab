import type { Scenario } from '../../lib/domain/scenario.ts';

/**
 * The raw identifiers and secrets in a scenario, found by patterns written here independently of
 * lib/masking, so a leak scan does not share the masker's blind spots.
 */
const patterns: readonly [string, RegExp][] = [
  ['arn', /arn:aws[a-z-]*:[^\s"'`,)\]}]+/g],
  ['email', /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g],
  ['ipv4', /\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b/g],
  ['resource-id', /\b(?:i|sg|vpc|subnet|eni|vol|snap|ami|igw|nat|rtb|acl)-[0-9a-f]{8,17}\b/g],
  // Not followed by another dotted part: `java.net.SocketTimeoutException` is a class, not a host.
  ['host', /\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:internal|local|amazonaws\.com|com|net|io|org|cloud)\b(?!\.\w)/gi],
  ['access-key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g],
  ['private-key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/g],
];

export const rawIdentifiers = (scenario: Scenario): Map<string, string> => {
  const text = JSON.stringify({ trigger: scenario.trigger, environment: scenario.environment });
  const found = new Map<string, string>();
  for (const [kind, pattern] of patterns) for (const match of text.matchAll(pattern)) found.set(match[0], kind);
  for (const match of text.matchAll(/arn:aws[a-z-]*:[a-z0-9-]*:[a-z0-9-]*:(\d{12}):/g)) found.set(match[1]!, 'account-id');
  // AWS service principals, public regional endpoints (ec2.amazonaws.com,
  // dynamodb.us-east-1.amazonaws.com), AWS's own domains (`*.amazonaws.com`, `aws.amazon.com`, which AWS's own error
  // messages link) and its documentation and console hosts are public names, not the customer's hosts.
  for (const [value, kind] of found) {
    if (kind === 'host' && /^(?:[a-z0-9-]+(\.[a-z]{2}(-gov)?-[a-z]+-\d)?\.)?amazonaws\.com$/i.test(value)) found.delete(value);
    if (kind === 'host' && /^(?:(?:docs|console)\.)?aws\.amazon\.com$/i.test(value)) found.delete(value);
  }
  // AWS-managed policies (arn:aws:iam::aws:policy/…) are the same public names in every account,
  // and an ARN written as a template (`arn:aws:sqs:<region>:<account>:<queue>`) names no resource.
  for (const [value, kind] of found) if (kind === 'arn' && (/^arn:aws[a-z-]*:iam::aws:policy\//.test(value) || value.includes('<'))) found.delete(value);
  // Wildcard and loopback addresses (all of 127.0.0.0/8, as the masker keeps them) identify nothing.
  for (const [value, kind] of found) if (kind === 'ipv4' && (value === '0.0.0.0' || value.startsWith('127.'))) found.delete(value);
  if (scenario.environment.accountId) found.set(scenario.environment.accountId, 'account-id');
  if ('cloudwatchAlarm' in scenario.trigger) found.set(scenario.trigger.cloudwatchAlarm.account, 'account-id');
  return found;
};
