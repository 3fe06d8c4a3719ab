import type { Change } from './evidence-board.ts';

/** All a change says: its summary and the details it was recorded with (a CloudTrail request, a diff). */
export const changeText = (change: Change): string => `${change.summary} ${JSON.stringify(change.details ?? {})}`;

/** What a change says it took away: a rule revoked, an entry removed or denied. */
export const withdrawal = /revoke|remov|delet|\bdeny\b/i;

/** An AWS service's own principal (`kms.amazonaws.com`, `lambda.amazonaws.com`). */
const awsServicePrincipal = /^[a-z0-9-]+\.amazonaws\.com$/i;

/**
 * Whether an AWS service made the change itself, as the actor or as CloudTrail's `invokedBy`: a key
 * rotation or maintenance it runs on its own schedule, or the status it records as an update finishes.
 */
export const madeByAwsService = (change: Change): boolean =>
  [change.actor, change.details?.['invokedBy']].some((who) => typeof who === 'string' && awsServicePrincipal.test(who.trim()));
