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

interface LambdaProxyEnv {
  event?: { requestContext?: { identity?: { userArn?: string | null; caller?: string | null } } };
}

/** Behind API Gateway with IAM auth, the signed caller's ARN is in the request context; nothing the client sends can set it. */
export const iamCallerIdentity = (c: Context): string | undefined => {
  const identity = (c.env as LambdaProxyEnv | undefined)?.event?.requestContext?.identity;
  return identity?.userArn ?? undefined;
};
