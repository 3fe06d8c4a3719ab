import type { EvidenceBoard, LogRecord } from './evidence-board.ts';
import type { Principle } from './principles.ts';
import { quoteMessage } from '../text/quote.ts';
import { iso, neighboursOf, type Signal } from './signals.ts';

/**
 * Client errors are harm when legitimate users get them (a lowered limit, a revoked permission);
 * they are not when the requests that get them are automated probes: scanners and crawlers asking
 * for paths that do not exist, answered 404 or blocked, while everyone else keeps being served.
 */

/** A signal about requests refused as the client's fault. */
const clientErrorSignal = /4xx|client.?error|blocked|\b4\d\d\b|not.?found/i;
/** A request line: a method and a path. */
const requestLine = /\b(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)\s+\S/;
/** The response status of a request line, or the action of a firewall that refused it. */
const statusOf = (message: string): number | undefined => {
  const status = /(?:status["=: ]+|HTTP\/\d(?:\.\d)?"?\s+|\s)([1-5]\d\d)(?=[\s,"}]|$)/.exec(message)?.[1];
  if (status) return Number(status);
  return /\baction[=: ]+"?BLOCK/i.test(message) ? 403 : undefined;
};
/** User agents of scanners, fuzzers, scripts and crawlers; a robot's "compatible" agent links a page about itself ("+https://…/bot"). */
const automatedClient =
  /nuclei|zgrab|masscan|nmap|sqlmap|nikto|gobuster|dirbuster|wpscan|feroxbuster|\bffuf\b|acunetix|nessus|openvas|qualys|burp|owasp.?zap|scanner|scan\/\d|compatible;[^)]*\+https?:|python-requests|go-http-client|libwww|curl\/|wget\/|scrapy|crawler|spider|\w+bot\b|bot\/|headlesschrome/i;
/** Paths that scanners try everywhere: admin panels, secrets and config files, known exploits. */
const probedPath =
  /\/wp-(login|admin|content|includes)|\/xmlrpc|\/\.(env|git|aws|ssh|svn|htaccess|DS_Store)\b|phpmyadmin|\/cgi-bin\/|\/HNAP1|\/owa\/|\/boaform|\/actuator|\/vendor\/phpunit|\/server-status|\/etc\/passwd|\/backup\.(zip|tar|tgz|sql)\b|\.(bak|old|swp)\b|\.(php|asp|aspx|jsp|cgi)\b/i;

/** At least this many refused requests make a pattern; at least this share of them must be probes. */
const MIN_REFUSED = 5;
const PROBE_SHARE = 0.8;
/** Lines this long before a metric's onset belong to its first period. */
const PERIOD_SLACK_MS = 5 * 60_000;

const isProbe = (line: LogRecord): boolean => automatedClient.test(line.message) || probedPath.test(line.message);


/** The request lines at or next to a signal's service from its first period on, each with the status it was answered. */
export const answeredRequestsNear = (board: EvidenceBoard, signal: Signal): { line: LogRecord; status: number }[] => {
  const near = neighboursOf(board, signal.service);
  return board.logs
    .filter((line) => near.has(line.service) && line.at >= signal.at - PERIOD_SLACK_MS && requestLine.test(line.message))
    .map((line) => ({ line, status: statusOf(line.message) }))
    .filter((item): item is { line: LogRecord; status: number } => item.status !== undefined);
};

/** Why a rise in client errors is automated probing rather than users being refused, if the request lines say so. */
export const probingOf = (board: EvidenceBoard, signal: Signal): { principle: Principle; service: string; ref: string; why: string } | undefined => {
  if (!clientErrorSignal.test(signal.text) || /5xx|\b5\d\d\b/i.test(signal.text)) return undefined;
  const requests = answeredRequestsNear(board, signal);
  const refused = requests.filter(({ status }) => status >= 400 && status < 500);
  const probes = refused.filter(({ line }) => isProbe(line));
  const servedOthers = requests.some(({ line, status }) => status < 400 && !isProbe(line));
  if (refused.length < MIN_REFUSED || probes.length < PROBE_SHARE * refused.length || !servedOthers) return undefined;
  const example = probes[0]!.line;
  return {
    principle: 'automated-probing',
    service: signal.service,
    ref: example.ref,
    why: `the client errors at ${signal.service} since ${iso(signal.at)} are automated probing, not users being refused: ${probes.length} of ${refused.length} refused requests are scanners or crawlers asking for paths that do not exist (e.g. "${quoteMessage(example.message, 120)}"), while other requests keep being served`,
  };
};
