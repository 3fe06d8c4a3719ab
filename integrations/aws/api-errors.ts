/**
 * How the AWS tools tell an API refusal they should report from a failure they should raise. Throttling
 * never reaches here: the SDK's adaptive retry strategy handles it (clients.ts).
 */
interface ServiceError {
  name?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const deniedNames = /^(AccessDenied|AccessDeniedException|UnauthorizedOperation|UnauthorizedException|NotAuthorized|AuthorizationError|AuthorizationErrorException)$/;

/** Whether the caller lacks the IAM permission for the call (the answer to act on is a policy change, not a retry). */
export const isAccessDenied = (error: unknown): boolean => {
  const { name, $metadata } = (error ?? {}) as ServiceError;
  return (name !== undefined && deniedNames.test(name)) || $metadata?.httpStatusCode === 403;
};

/** The observation for a refused call: the exact IAM action to grant, and AWS's own words. */
export const deniedReason = (action: string, error: unknown): string =>
  `access denied to ${action}: grant ${action} to the tool-running role (${(error as ServiceError)?.message ?? 'no message'})`;
