import type { Context } from 'hono';

/**
 * `SRE_AGENT_APPROVERS`: comma-separated principal ARNs allowed to decide approvals (for example
 * `arn:aws:iam::123456789012:role/oncall`); unset lets every caller the API's IAM auth admits decide.
 */
export const approversFromEnv = (env: Record<string, string | undefined>): { approvers?: string[] } => {
  const listed = (env.SRE_AGENT_APPROVERS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  return listed.length > 0 ? { approvers: listed } : {};
};

/** A Slack user id as Slack writes it (`U0123ABCD`, `W0123ABCD` on Enterprise Grid). */
const SLACK_USER_ID = /^[UW][A-Z0-9]{2,}$/;

/**
 * `SRE_AGENT_SLACK_APPROVERS`: comma-separated `<Slack user id>=<principal ARN>` pairs; a click on an
 * approval button is recorded as that principal's decision (and checked against SRE_AGENT_APPROVERS).
 */
export const slackApproversFromEnv = (env: Record<string, string | undefined>): Record<string, string> => {
  const pairs = (env.SRE_AGENT_SLACK_APPROVERS ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0);
  return Object.fromEntries(
    pairs.map((pair) => {
      const [user, principal, ...rest] = pair.split('=').map((part) => part.trim());
      if (!user || !principal || rest.length > 0 || !SLACK_USER_ID.test(user) || !principal.startsWith('arn:')) {
        throw new Error(`SRE_AGENT_SLACK_APPROVERS: "${pair}" is not <Slack user id>=<principal ARN> (for example U0123ABCD=arn:aws:iam::123456789012:user/alice)`);
      }
      return [user, principal];
    }),
  );
};

interface LambdaProxyEnv {
  event?: { requestContext?: { identity?: { userArn?: string | null; caller?: string | null } } };
}

/** Behind API Gateway with IAM auth, the signed caller's ARN is in the request context; nothing the client sends can set it. */
export const iamCallerIdentity = (c: Context): string | undefined => {
  const identity = (c.env as LambdaProxyEnv | undefined)?.event?.requestContext?.identity;
  return identity?.userArn ?? undefined;
};
