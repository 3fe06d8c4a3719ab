import type { Change, EvidenceBoard, ServiceNode } from './evidence-board.ts';
import { latestBreakingChangeBefore } from './explaining-change.ts';
import { changeText } from './change-text.ts';
import { LATENT_REACH_MS } from './latent-setting.ts';
import { dependenciesOf, kindOf } from './service-map.ts';
import type { Signal } from './signals.ts';

/**
 * An AWS service acting for a resource of ours (a CDN reading its origin bucket, a topic delivering
 * to a queue, an EventBridge rule sending to its target) is let in by the target's own policy, which
 * must name that service as principal. When the target refuses it, the grant is missing where the
 * policy lives: the caller has no credential of its own to fix, whatever change exposed the gap (a
 * new bucket, a policy rewritten, an origin moved).
 */
export interface MissingGrant {
  caller: string;
  resource: string;
  /** The service principal the policy must name. */
  principal: string;
  /** What the resource's policy is called. */
  policy: string;
  /** The latest change to the resource's policy, when one was made within a week. */
  policyChange?: Change;
  /** That policy change, when the caller changed nothing of its own since: the grant worked until it. */
  undo?: Change;
  /** How the caller shows it: refusals in words, or only its count of failed deliveries. */
  seenAs: 'refusals' | 'failed deliveries';
}

/** The resource policies of the kinds of target a service principal reaches. */
const policyOfKind: Readonly<Record<string, string>> = { s3: 'bucket policy', sqs: 'queue policy', sns: 'topic policy', lambda: 'resource-based policy' };

/** EventBridge rules and buses, as the map names them. */
const eventsResource = /:events:|eventbridge|event ?bus|\bevent rule\b/i;

const principalOf = (node: ServiceNode): string | undefined => {
  if (node.kind === 'cloudfront') return 'cloudfront.amazonaws.com';
  if (node.kind === 'sns') return 'sns.amazonaws.com';
  const described = `${node.arn ?? ''} ${Object.entries(node.tags ?? {}).flat().join(' ')}`;
  return node.kind === 'other' && eventsResource.test(described) ? 'events.amazonaws.com' : undefined;
};

/** Words of a request refused for want of permission (S3's AccessDenied body, a 403, EventBridge's NO_PERMISSIONS). */
const refusal = /AccessDenied|Access Denied|\b403(?!\d)|not authori[sz]ed|NO_PERMISSIONS|permission/i;

/** A policy, as changes name what they set. */
const policyWords = /polic(y|ies)|PutBucketPolicy|SetQueueAttributes|SetTopicAttributes|AddPermission|RemovePermission/i;

/** A service's own count of deliveries to its targets that failed (EventBridge's FailedInvocations, SNS's failed notifications). */
const failedDeliveries = /^(FailedInvocations|InvocationsFailedToBeSentToDlq|NumberOfNotificationsFailed)\b/;

export const missingGrantOf = (board: EvidenceBoard, caller: string, signals: readonly Signal[], onset: number): MissingGrant | undefined => {
  const node = board.services?.find((candidate) => candidate.name === caller);
  const principal = node ? principalOf(node) : undefined;
  if (!principal) return undefined;
  const targets = dependenciesOf(board, caller).filter((target) => policyOfKind[kindOf(board, target) ?? ''] !== undefined);
  const policyChanges = new Map(
    targets.map((target) => [
      target,
      Number.isFinite(onset) ? latestBreakingChangeBefore(board.changes, onset, LATENT_REACH_MS, (change) => change.service === target && policyWords.test(changeText(change))) : undefined,
    ]),
  );
  const own = signals.filter((signal) => signal.service === caller && signal.kind !== 'alarm');
  const refused = own.some((signal) => refusal.test(signal.text));
  // With no refusal in words, the caller's failed deliveries point at the one target whose policy was rewritten before they began.
  const rewritten = targets.filter((target) => policyChanges.get(target) !== undefined);
  const failing = own.some((signal) => signal.substantial && failedDeliveries.test(signal.text));
  const seenAs = refused && targets.length === 1 ? 'refusals' : failing && rewritten.length === 1 ? 'failed deliveries' : undefined;
  if (!seenAs) return undefined;
  const resource = seenAs === 'refusals' ? targets[0]! : rewritten[0]!;
  const policyChange = policyChanges.get(resource);
  // A caller moved onto the resource after its policy was written (a CDN's new origin) never had the grant to lose.
  const callerMovedSince = policyChange !== undefined && board.changes.some((change) => change.service === caller && change.at > policyChange.at && change.at <= onset);
  const undo = policyChange && !callerMovedSince ? policyChange : undefined;
  return { caller, resource, principal, policy: policyOfKind[kindOf(board, resource)!]!, seenAs, ...(policyChange ? { policyChange } : {}), ...(undo ? { undo } : {}) };
};

export const missingGrantWords = ({ caller, resource, principal, policy, seenAs }: MissingGrant): string =>
  `${seenAs === 'refusals' ? `${resource} refuses ${caller}'s requests (access denied)` : `${caller}'s deliveries to ${resource} fail since ${resource}'s ${policy} was rewritten`}: ${resource}'s ${policy} does not grant ${principal}, the service principal ${caller} acts through, the access it needs. The grant belongs in ${resource}'s ${policy}.`;
