import { answeredAsClientError, pathOf, requestLine, statusOf } from './access-log.ts';
import type { EvidenceBoard, LogRecord } from './evidence-board.ts';
import { formatPlaceholder, PlaceholderType } from '../masking/placeholders.ts';
import type { Principle } from './principles.ts';
import { quoteMessage } from '../text/quote.ts';
import { iso, METRIC_PERIOD_MS, neighboursOf, type Signal } from './signals.ts';
import { serverErrorsFlat } from './usual-errors.ts';
import { onsetOfReadings } from './readings.ts';

/**
 * Client errors are harm when legitimate users get them (a lowered limit, a revoked permission);
 * they are not when the requests that get them are automated probes: scanners and crawlers asking
 * for paths that do not exist, answered 404 or blocked, while everyone else keeps being served.
 */

/** A signal about requests refused as the client's fault. */
const clientErrorSignal = /4xx|client.?error|blocked|(?<![0-9])4\d\d(?![0-9])|not.?found/i;
/** A signal that counts server errors too: never the client's fault alone. */
const serverErrorSignal = /5xx|\b5\d\d\b/i;

/** Whether a measure counts requests refused as the client's fault, and no server errors. */
export const countsClientErrors = (text: string): boolean => clientErrorSignal.test(text) && !serverErrorSignal.test(text);
/** A measure of every error answered, client and server alike (CloudFront's TotalErrorRate). */
const totalErrors = /total.?errors?/i;

/** User agents of scanners, fuzzers, scripts and crawlers; a robot's "compatible" agent links a page about itself ("+https://…/bot"). */
const automatedClient =
  /nuclei|zgrab|masscan|nmap|sqlmap|nikto|gobuster|dirbuster|wpscan|feroxbuster|\bffuf\b|acunetix|nessus|openvas|qualys|burp|owasp.?zap|scanner|scan\/\d|compatible;[^)]*\+https?:|python-requests|go-http-client|libwww|curl\/|wget\/|scrapy|crawler|spider|\w+bot\b|bot\/|headlesschrome/i;
/** Paths that scanners try everywhere: admin panels, secrets and config files, known exploits. */
const probedPath =
  /\/wp-(login|admin|content|includes)|\/xmlrpc|\/\.(env|git|aws|ssh|svn|htaccess|DS_Store|vscode)\b|phpmyadmin|\/pma\/|sftp-config\.json|\/cgi-bin\/|\/HNAP1|\/owa\/|\/boaform|\/actuator|\/vendor\/phpunit|\/server-status|\/etc\/passwd|\.\.(%2f|%5c|\/)|\/backup\.(zip|tar|tgz|sql)\b|\.(bak|old|swp|sql)\b|\.(php|asp|aspx|jsp|cgi)\b/i;

/**
 * A client's address in an access log line (CloudFront, ALB, nginx): the first IPv4 address it names,
 * or the placeholder masking put in its place (the same address always gets the same one).
 */
const clientAddress = new RegExp(`(?<![\\d.])\\d{1,3}(?:\\.\\d{1,3}){3}(?![\\d.])|${formatPlaceholder(PlaceholderType.ip, 0).replace('0', '[1-9][0-9]*')}`);
const clientAddressOf = (message: string): string | undefined => clientAddress.exec(message)?.[0];
/** A scanner works through a word list from a few addresses: each asks for many different paths. */
const MAX_SCANNER_ADDRESSES = 3;
const MIN_PATHS_PER_SCANNER = 5;

/**
 * The addresses whose refused requests are a word list worked through: at most a few addresses
 * that between them got most of the refusals, each told that many different paths do not exist.
 * One user who followed a dead link is refused on one path.
 */
const scanningAddresses = (answered: readonly { line: LogRecord; status: number }[]): Set<string> => {
  const refused = answered.map(({ line }) => line);
  const pathsBy = new Map<string, Set<string>>();
  // Paths that do not exist: a caller refused on real paths (an expired token, a revoked grant) is refused, not scanning.
  for (const { line } of answered.filter(({ status }) => status === 404)) {
    const address = clientAddressOf(line.message);
    const path = pathOf(line.message);
    if (!address || !path) continue;
    const paths = pathsBy.get(address) ?? new Set<string>();
    pathsBy.set(address, paths.add(path));
  }
  const wordLists = [...pathsBy].filter(([, paths]) => paths.size >= MIN_PATHS_PER_SCANNER).map(([address]) => address);
  const fromThem = refused.filter((line) => wordLists.includes(clientAddressOf(line.message) ?? '')).length;
  return wordLists.length > 0 && wordLists.length <= MAX_SCANNER_ADDRESSES && fromThem >= PROBE_SHARE * refused.filter((line) => clientAddressOf(line.message)).length ? new Set(wordLists) : new Set();
};

/** At least this many refused requests make a pattern; at least this share of them must be probes. */
const MIN_REFUSED = 5;
const PROBE_SHARE = 0.8;

const isProbe = (line: LogRecord): boolean => automatedClient.test(line.message) || probedPath.test(line.message);

/** An access log line that refused an automated probe: the service turning a scanner away, not failing. */
export const refusedProbe = (line: LogRecord): boolean => answeredAsClientError(line.message) && isProbe(line);


/** The request lines at or next to a signal's service from its first period on, each with the status it was answered. */
export const answeredRequestsNear = (board: EvidenceBoard, signal: Signal): { line: LogRecord; status: number }[] => {
  const near = neighboursOf(board, signal.service);
  return board.logs
    .filter((line) => near.has(line.service) && line.at >= signal.at - METRIC_PERIOD_MS && requestLine.test(line.message))
    .map((line) => ({ line, status: statusOf(line.message) }))
    .filter((item): item is { line: LogRecord; status: number } => item.status !== undefined);
};

/** A web firewall's own record of a request it blocked (AWS WAF's log: `"action":"BLOCK"`). */
const blockedRecord = /"action"\s*:\s*"BLOCK"/;

/**
 * The requests a firewall logged blocking from the signal's first period on, as refused ones: its
 * own, or those it blocked in front of the signal's service (its `httpSourceId`, account-balancer,
 * names the load balancer the service's measures name). With them, whether the firewall let the
 * rest through: its count of allowed requests did not fall.
 */
const blockedAt = (board: EvidenceBoard, signal: Signal): { blocked: { line: LogRecord; status: number }[]; allowedOthers: boolean } => {
  const ownIds = new Set(board.series.filter((series) => series.service === signal.service).flatMap((series) => Object.values(series.dimensions ?? {})));
  const inFrontOf = (line: LogRecord) => line.service === signal.service || [...ownIds].some((id) => line.message.includes(`-${id}`));
  const blocked = board.logs
    .filter((line) => line.at >= signal.at - METRIC_PERIOD_MS && blockedRecord.test(line.message) && inFrontOf(line))
    .map((line) => ({ line, status: 403 }));
  const firewalls = new Set(blocked.map(({ line }) => line.service));
  const allowed = board.series.filter((series) => firewalls.has(series.service) && /allowed/i.test(series.name));
  const allowedOthers = allowed.length > 0 && allowed.every((series) => onsetOfReadings(series.points)?.direction !== 'down');
  return { blocked, allowedOthers };
};

/** Why a rise in client errors is automated probing rather than users being refused, if the request lines (or a firewall's own record of what it blocked) say so. */
export const probingOf = (board: EvidenceBoard, signal: Signal): { principle: Principle; service: string; ref: string; why: string } | undefined => {
  const clientErrors = clientErrorSignal.test(signal.text) || (totalErrors.test(signal.text) && serverErrorsFlat(board, signal.service));
  if (!clientErrors || serverErrorSignal.test(signal.text)) return undefined;
  const { blocked, allowedOthers } = blockedAt(board, signal);
  const requests = [...answeredRequestsNear(board, signal), ...blocked];
  const refused = requests.filter(({ status }) => status >= 400 && status < 500);
  const scanners = scanningAddresses(refused);
  const probes = refused.filter(({ line }) => isProbe(line) || scanners.has(clientAddressOf(line.message) ?? ''));
  const servedOthers = allowedOthers || requests.some(({ line, status }) => status < 400 && !isProbe(line));
  if (refused.length < MIN_REFUSED || probes.length < PROBE_SHARE * refused.length || !servedOthers) return undefined;
  const example = probes[0]!.line;
  return {
    principle: 'automated-probing',
    service: signal.service,
    ref: example.ref,
    why: `the client errors at ${signal.service} since ${iso(signal.at)} are automated probing, not users being refused: ${probes.length} of ${refused.length} refused requests are scanners or crawlers asking for paths that do not exist (e.g. "${quoteMessage(example.message, 120)}"), while other requests keep being served`,
  };
};
