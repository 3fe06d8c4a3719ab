import { changeText } from './change-text.ts';
import type { Change } from './evidence-board.ts';
import type { Signal } from './signals.ts';

/**
 * A security group rule governs the ports it names and no others. Connections that
 * fail on a port outside every range a rule change opened or closed (timeouts to :8443 after the
 * rule for SSH on 22 was revoked) were not stopped by that change, however close in time it came.
 * Only a change that names its ports, and failures that name theirs, can be told apart this way:
 * a rule for all traffic (protocol -1, ports 0-65535) or an unnamed port says nothing.
 */

interface PortRange {
  from: number;
  to: number;
}

const ruleChange = /security.?group|AuthorizeSecurityGroup|RevokeSecurityGroup/i;
/**
 * A network ACL is stateless: its inbound rules also pass the replies to connections the subnet
 * opened (to ephemeral ports), so a rule for one port can drop connections to any other.
 */
export const networkAcl = /network.?acl|\bnacl\b|NetworkAclEntry/i;
/** A CloudTrail request's `"fromPort": 22, "toPort": 22`, in either order. */
const requestRange = /"fromPort"\s*:\s*(-?\d+)\s*,\s*"toPort"\s*:\s*(-?\d+)|"toPort"\s*:\s*(-?\d+)\s*,\s*"fromPort"\s*:\s*(-?\d+)/g;
/** A summary's `tcp/22`, `tcp 5432`, `port 443`, `ports 8000-8100`. */
const summaryRange = /\b(?:tcp|udp|ports?)[ /:](\d{1,5})(?:\s?-\s?(\d{1,5}))?\b/gi;
const everyProtocol = /"ipProtocol"\s*:\s*"-1"|\ball (traffic|ports)\b/i;

const rangesOf = (change: Change): PortRange[] => {
  const details = JSON.stringify(change.details ?? {});
  const fromRequest = [...details.matchAll(requestRange)].map((found) =>
    found[1] !== undefined ? { from: Number(found[1]), to: Number(found[2]) } : { from: Number(found[4]), to: Number(found[3]) },
  );
  if (fromRequest.length > 0) return fromRequest;
  return [...change.summary.matchAll(summaryRange)].map((found) => ({ from: Number(found[1]), to: Number(found[2] ?? found[1]) }));
};

/** The port ranges a rule change names, or undefined when it is no rule change or governs every port. */
export const rulePortsOf = (change: Change): PortRange[] | undefined => {
  const text = changeText(change);
  if (!ruleChange.test(text) || networkAcl.test(text) || everyProtocol.test(text)) return undefined;
  const ranges = rangesOf(change);
  if (ranges.length === 0 || ranges.some((range) => range.from < 0 || (range.from === 0 && range.to >= 65535))) return undefined;
  return ranges;
};

/**
 * A host or address followed by its port (`10.40.12.37:8443`, `ledger.internal:8443`, masked as `<HOST_2>:8443`), or `port 8443`,
 * `port=6379`. A source file's line and column in a stack frame (`Redis.js:170:41`) is no port.
 */
const namedPort = /(?:<(?:IP|HOST|DB_ENDPOINT)_\d+>|\b\d{1,3}(?:\.\d{1,3}){3}|\b(?:[a-z0-9-]+\.)+(?!(?:m?js|cjs|ts|tsx|py|java|kt|go|rb|cs|php|scala|c|cc|cpp|rs)\b)[a-z][a-z0-9-]*):(\d{2,5})\b(?!:\d)|\bport[ =:](\d{2,5})\b/gi;
/** Words of a connection that never got through. */
export const connectionFailed = /time.?d?.?out|ETIMEDOUT|refused|ECONNREFUSED|unreachable|EHOSTUNREACH|no response/i;

/** The ports the failed connections in `evidence` name. */
const failedPorts = (evidence: readonly Signal[]): Set<number> =>
  new Set(evidence.filter((signal) => connectionFailed.test(signal.text)).flatMap((signal) => [...signal.text.matchAll(namedPort)].map((found) => Number(found[1] ?? found[2]))));

/** Whether `change` is a rule for named ports that none of the failed connections in `evidence` use, while they name ports of their own. */
export const rulePortsMissed = (change: Change, evidence: readonly Signal[]): boolean => {
  const ranges = rulePortsOf(change);
  if (!ranges) return false;
  const ports = failedPorts(evidence);
  return ports.size > 0 && ![...ports].some((port) => ranges.some((range) => port >= range.from && port <= range.to));
};
