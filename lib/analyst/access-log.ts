import { formatPlaceholder, PlaceholderType } from '../masking/placeholders.ts';
/**
 * Access log lines (a load balancer's, a CDN's, a web server's): one request each, with the status
 * it was answered. Their words are the request's, not a report of the service failing.
 */

const method = '\\b(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)';
/** Between the method and the path, CloudFront's tab-separated fields put the host (cs(Host), or the placeholder masking put in its place), some writers the scheme before it. */
const schemeAndHost = `(?:(?:https?\\s+)?(?:[\\w-]+(?:\\.[\\w-]+)+|${formatPlaceholder(PlaceholderType.host, 0).replace('0', '\\d+')})\\s+)?`;

/** A request line: a method and a path. */
export const requestLine = new RegExp(`${method}\\s+\\S`);

/** CloudFront's standard log: method, host, path and status in consecutive tab-separated fields. */
const cloudFrontStatus = new RegExp(`${method}\\t[^\\t]+\\t\\/[^\\t]*\\t([1-5]\\d\\d)\\t`);

/** The response status of a request line, or the action of a firewall that refused it. */
export const statusOf = (message: string): number | undefined => {
  // CloudFront's tab-separated fields put the status right after the path, and the bytes sent (often three digits) before them.
  const tabbed = cloudFrontStatus.exec(message)?.[1];
  if (tabbed) return Number(tabbed);
  const status = /(?:status["=: ]+|HTTP\/\d(?:\.\d)?"?\s+|\s)([1-5]\d\d)(?=[\s,"}]|$)/.exec(message)?.[1];
  if (status) return Number(status);
  return /\baction[=: ]+"?BLOCK/i.test(message) ? 403 : undefined;
};

/** A request as access logs write it: the method, then the path or URL. */
const loggedRequest = new RegExp(`${method}\\s+${schemeAndHost}(\\/|https?:\\/\\/)\\S*`);

const requestedPath = new RegExp(`${method}\\s+${schemeAndHost}(\\/\\S*)`);

/** The path a request line asked for. */
export const pathOf = (message: string): string | undefined => requestedPath.exec(message)?.[1];

/** A request answered as the client's fault (4xx): whatever words the line carries, the service did not fail it. */
export const answeredAsClientError = (message: string): boolean => {
  if (!loggedRequest.test(message)) return false;
  const status = statusOf(message);
  return status !== undefined && status >= 400 && status < 500;
};
