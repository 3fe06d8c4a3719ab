/** Where the console forwards API calls, and the region to sign them for when they go to API Gateway. */
export interface ApiTarget {
  /** The API's base URL; its path (an API Gateway stage such as `/prod`) prefixes every forwarded path. */
  url: URL;
  /** Present: each request is signed (SigV4, service execute-api) for this region. Absent: forwarded unsigned. */
  signingRegion?: string;
}

/** The `--api` URL and `--region` do not describe an API the console can reach safely. */
export class ApiTargetError extends Error {}

const API_GATEWAY_HOST = /^[a-z0-9-]+\.execute-api\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An API on this machine: `sre-agent serve`. */
export const isLocalApi = (url: URL): boolean => LOOPBACK_HOSTS.has(url.hostname);

export const API_URL_HELP = 'http://127.0.0.1:8787 (sre-agent serve) or https://<id>.execute-api.<region>.amazonaws.com/<stage> (the stack\'s ApiUrl output)';

/**
 * Signed requests go to API Gateway over https only; a local `sre-agent serve` gets them unsigned;
 * any other host is refused unless `--region` says it is API Gateway behind a custom domain, so
 * the engineer's credentials never sign a request for an API they did not mean.
 */
export const apiTarget = (url: URL, region?: string): ApiTarget => {
  const gatewayRegion = API_GATEWAY_HOST.exec(url.hostname)?.[1];
  if (isLocalApi(url)) {
    if (region !== undefined) {
      throw new ApiTargetError(`--region signs requests for API Gateway, but ${url.origin} is a local API, which takes them unsigned: drop --region`);
    }
    return { url };
  }
  if (url.protocol !== 'https:') {
    throw new ApiTargetError(`${url.origin} is not local, so requests to it would carry your signed identity in clear: use https (API Gateway answers only on https)`);
  }
  const signingRegion = region ?? gatewayRegion;
  if (signingRegion === undefined) {
    throw new ApiTargetError(
      `${url.hostname} is neither API Gateway (<id>.execute-api.<region>.amazonaws.com) nor local (127.0.0.1, localhost): for a custom domain in front of API Gateway add --region <region> to sign for it`,
    );
  }
  return { url, signingRegion };
};
