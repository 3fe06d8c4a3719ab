import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack refuses to act on requests older than this; so does sre-agent, against replays. */
export const SLACK_MAX_AGE_SECONDS = 5 * 60;

export type SlackVerification = { ok: true } | { ok: false; reason: string };

/**
 * Slack's request signing: `X-Slack-Signature` is `v0=` and the hex HMAC-SHA256, keyed with the
 * app's signing secret, of `v0:<X-Slack-Request-Timestamp>:<raw body>`. A request whose timestamp is
 * more than five minutes from now is refused whatever its signature.
 */
export const verifySlackRequest = (
  request: { signature: string | undefined; timestamp: string | undefined; rawBody: string },
  signingSecret: string,
  now: Date,
): SlackVerification => {
  if (!request.signature || !request.timestamp) return { ok: false, reason: 'X-Slack-Signature and X-Slack-Request-Timestamp are required' };
  const seconds = Number(request.timestamp);
  if (!/^\d+$/.test(request.timestamp) || !Number.isSafeInteger(seconds)) return { ok: false, reason: 'X-Slack-Request-Timestamp is not a Unix time in seconds' };
  if (Math.abs(now.getTime() / 1000 - seconds) > SLACK_MAX_AGE_SECONDS) return { ok: false, reason: `the request is more than ${SLACK_MAX_AGE_SECONDS / 60} minutes old (or from the future)` };
  const expected = Buffer.from(`v0=${createHmac('sha256', signingSecret).update(`v0:${request.timestamp}:${request.rawBody}`).digest('hex')}`);
  const given = Buffer.from(request.signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? { ok: true } : { ok: false, reason: 'the signature does not match' };
};
