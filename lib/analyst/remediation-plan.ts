import type { FindingDraft } from '../domain/finding.ts';
import type { RemediationAction, RootCauseCategory } from '../domain/vocabulary.ts';
import { severityOf } from '../analysis/log-templates.ts';
import { actionPatterns, causesIn } from './cause-signals.ts';
import type { Change, EvidenceBoard, Runbook } from './evidence-board.ts';
import { changeText, withdrawal } from './change-text.ts';
import type { IncidentCause } from './infer-cause.ts';
import { capacityCutAt, memoryLoweredBy } from './lowered-setting.ts';
import type { MissingGrant } from './missing-grant.ts';
import { scheduledActionBehind, type ScheduledAction } from './scheduled-action.ts';
import type { FailedRotation } from './failed-rotation.ts';
import type { OversizedPayload } from './oversized-payload.ts';
import { poisonRecordOf, type PoisonRecord } from './mechanism.ts';
import type { Principle } from './principles.ts';
import { callersOf, kindOf } from './service-map.ts';
import { severityOfLine } from './signals.ts';
import { quoteMessage } from '../text/quote.ts';
import type { StaleHolding } from './stale-view.ts';
import type { ScalingCeiling } from './scaling-ceiling.ts';
import { VISIBILITY_PER_TIMEOUT, type OutlastedVisibility } from './visibility-timeout.ts';

type Step = FindingDraft['remediation'][number];

/** A release that brought the work into being: its first version (1.0.0) or its task definition's first revision. */
const firstRelease = (change: Change): boolean => /\bv?1\.0\.0\b|\b(initial|first) (release|version|deploy)|\btask ?definition\W+[\w-]+:1(?![\d.])/i.test(changeText(change));

export interface RemediationInputs {
  category: RootCauseCategory;
  root: string;
  /** Where the root's bad values were recorded, when another service recorded them as they came: the records to repair are there. */
  recordedBy?: string;
  /** The mechanism's evidence label (cause-signals), if one was found. */
  mechanism?: string;
  change?: Change;
  /** The root is a third party: what is its own (a certificate) is fixed by its owner, not by us. */
  thirdParty?: boolean;
  /** Who calls the root on the failing path: the side we control when the root is a third party. */
  callerOfRoot?: string;
  /** The platform already replaces the root's tasks or instances (crash loop, OOM kills). */
  alreadyRestarting: boolean;
  /** The shared resource the root's own load swamps, when it is a client that overloads it. */
  overloads?: string;
  /** The caller of a third-party root can already reach another provider of the same kind. */
  alternativeProvider?: boolean;
  /** A change that lowered the root's capacity just before its trouble (a scheduled scale-in, a lowered maximum). */
  capacityCut?: Change;
  /** The scheduled action the platform carried out when it cut that capacity (scheduled-action.ts). */
  capacitySchedule?: ScheduledAction;
  /** The database whose storage the root's replication slot keeps, when that storage has already run out (writes fail for want of space). */
  filledByHold?: string;
  /** The database the root holds something on (locks, a replication slot's log, an open transaction). */
  heldOn?: string;
  /** The root's storage has run out: its own or its callers' errors say so (writes fail for want of space). */
  storageRanOut?: boolean;
  /** A record that fails on every retry, and where it is stuck. */
  poison?: PoisonRecord;
  /** What the root, the one caller still failing on a dependency that serves the others, holds from before (stale-view.ts). */
  staleHolding?: StaleHolding;
  /** The payload the root made that outgrew a limit further on (oversized-payload.ts). */
  oversized?: OversizedPayload;
  /** The rotation the root, a secret's rotation function, left half done (failed-rotation.ts). */
  failedRotation?: FailedRotation;
  /** The clients a change at the root pointed at a read-only server (repointed-endpoint.ts). */
  repointedClients?: readonly string[];
  /** The service principal, acting for a caller, that the root's resource policy must grant (missing-grant.ts). */
  missingGrant?: MissingGrant;
  /** Where a routing change at the root moved traffic that it was not scaled for: the root itself or a service it routes to. */
  routedLoad?: string;
  /** The service that cannot start tasks in the subnets whose addresses the root's copies hold. */
  addressesHeldFrom?: string;
  /** The root is a queue whose visibility timeout its consumer's processing outlasts (visibility-timeout.ts). */
  outlastedVisibility?: OutlastedVisibility;
  /** The root's scaling reached the maximum capacity registered for it (scaling-ceiling.ts). */
  scalingCeiling?: ScalingCeiling;
}

const step = (action: RemediationAction, target: string, detail: string): Step => ({ action, target, detail });

/**
 * Relieving exhaustion means freeing what ran out: a restart releases what a process holds
 * (connections, threads, memory), unless the platform is restarting it already; storage and
 * throughput are not freed by a restart, they need capacity. Then the cause is fixed.
 */
const relieveExhaustion = (
  root: string,
  mechanism: string | undefined,
  alreadyRestarting: boolean,
  { filledByHold, heldOn }: { filledByHold: string | undefined; heldOn: string | undefined },
  change: Change | undefined,
): Step[] => {
  // Locks are released by ending the session that holds them, not the whole service; what made it take them is undone so its next run does not.
  if (mechanism === 'locks') {
    const end = step('apply-fix', root, `End ${root}'s session that holds the locks (cancel its statement or stop its run) so the transactions blocked behind it go through.`);
    return change
      ? [end, step('revert-config', root, `Revert the change that made ${root} take those locks ("${quoteMessage(change.summary)}"), or its next run takes them again.`)]
      : [end, step('apply-fix', root, `Make ${root} hold its locks briefly (smaller transactions, an online alternative to table rewrites, a lock timeout of its own, off-peak hours).`)];
  }
  // An open transaction ends with its session; the rows it kept from vacuum are cleaned up only after it ends.
  if (mechanism === 'open transaction') {
    const database = heldOn ?? 'the database';
    return [
      step('restart', root, `End the transaction ${root} keeps open on ${database}: terminate its idle session, or restart ${root} so the session closes.`),
      step('apply-fix', root, `Make ${root} end what it opens (autocommit for reads, results streamed without holding a transaction), and set idle_in_transaction_session_timeout for its database user.`),
      ...(heldOn ? [step('apply-fix', heldOn, `Once the transaction has ended, vacuum the bloated tables on ${heldOn} so the dead tuples it held back are removed.`)] : []),
    ];
  }
  // Address space is neither freed by a restart nor scaled: it is added to (a secondary CIDR, larger subnets) or used more sparingly.
  if (mechanism === 'IP addresses') return [step('apply-fix', root, `Give ${root} more address space (a secondary CIDR or larger subnets), or use fewer addresses per workload (prefix delegation, fewer warm IPs).`)];
  // The log a database keeps for a stopped consumer's replication slot is released only when the consumer reads it again, or the slot goes.
  if (mechanism === 'retained log') {
    const resume = step('restart', root, `Resume ${root} so it reads its replication slot again and the database can release the log it keeps for it; if ${root} is retired, drop its slot instead.`);
    // A database already out of space takes writes again only with more room; the log is released only as the consumer catches up.
    return filledByHold ? [step('scale', filledByHold, `Give ${filledByHold} more storage now, so it takes writes again while ${root} catches up.`), resume] : [resume];
  }
  const consumed = mechanism === 'disk' || mechanism === 'replication lag' || mechanism === 'throttling' || mechanism === 'burst credits';
  if (consumed || alreadyRestarting) {
    return [step('scale', root, `Give ${root} more headroom (${mechanism === 'disk' ? 'storage' : 'capacity'}) now.`), step('apply-fix', root, `Remove what keeps consuming it at ${root}.`)];
  }
  return [step('restart', root, `Restart ${root} to release what it holds.`), step('apply-fix', root, `Fix what keeps ${root} from releasing it.`)];
};

/**
 * A poison record keeps failing where it waits until it is taken out of the way, whoever wrote it:
 * a queue's message is moved aside (to a dead-letter queue) at the queue; a stream's record cannot
 * be removed, so its reader must skip and park it (checkpoint past it). That unblocks the work behind it.
 */
const unblock = (poison: PoisonRecord | undefined): Step[] => {
  if (!poison) return [];
  if (poison.carrier && poison.carrierIsQueue) {
    return [step('apply-fix', poison.carrier, `Move the message that fails on every retry out of ${poison.carrier} (to a dead-letter queue) so the messages behind it are processed again.`)];
  }
  const from = poison.carrier ? ` from ${poison.carrier}` : '';
  return [step('apply-fix', poison.reader, `Make ${poison.reader} skip and park the record${from} it cannot process (checkpoint past it) so the records behind it are processed again.`)];
};

/**
 * A query that scans a database for want of an index is fixed at the database, by the index; undoing
 * the client's release does not bring back an index its migration dropped.
 */
const indexTheScan = ({ mechanism, overloads }: RemediationInputs): Step[] =>
  mechanism === 'table scan' && overloads
    ? [step('apply-fix', overloads, `Give ${overloads} the index the scanning query needs (restore one that was dropped, or add one on the columns it filters by).`)]
    : [];

type Plan = { steps: Step[]; principle?: Principle };
const plan = (principle: Principle, steps: Step[]): Plan => ({ steps, principle });

/**
 * What a careful on-call engineer proposes first for a cause of this kind, most urgent first;
 * where the fix belongs elsewhere (a record stuck in a queue or at its reader) that step comes first.
 * Undo a change if there is one; relieve the pressure, then fix; route around what we do not own.
 * A scan for want of an index is fixed first where it runs, at the database.
 * Returns the steps and the principles that chose them.
 */
export const remediationTraced = (inputs: RemediationInputs): { steps: Step[]; principles: Principle[] } => {
  const unblocked = unblock(inputs.poison);
  const indexed = indexTheScan(inputs);
  const first = [...unblocked, ...indexed];
  const atRoot = planFor(inputs);
  const steps = atRoot.steps.filter((planned) => !first.some((early) => early.action === planned.action && early.target === planned.target));
  const principles: Principle[] = [
    ...(unblocked.length > 0 ? (['poison-record'] as const) : []),
    ...(indexed.length > 0 ? (['remedy-index-the-scan'] as const) : []),
    ...(atRoot.principle && steps.length > 0 ? [atRoot.principle] : []),
  ];
  return { steps: [...first, ...steps], principles };
};

/** The plan at the root, from the category and what the evidence says about it. */
const planFor = ({ category, root, mechanism, change, callerOfRoot, thirdParty, alreadyRestarting, alternativeProvider, overloads, capacityCut, capacitySchedule, failedRotation, oversized, staleHolding, filledByHold, heldOn, storageRanOut, repointedClients, outlastedVisibility, routedLoad, missingGrant, addressesHeldFrom, scalingCeiling, recordedBy }: RemediationInputs): Plan => {
  const undo = change ? ` ("${quoteMessage(change.summary)}")` : '';
  // The dependency works for everyone else: nothing there is undone. A restart drops what the caller
  // cached; a pin is its own configuration and survives a restart, so it is corrected first.
  // The release that made the payload grow is undone; the link that hands it on passes a reference, so the next growth fits.
  if (oversized) {
    const carrier = oversized.carrier ?? root;
    return plan('payload-outgrew-limit', [
      change?.kind === 'deploy' ? step('rollback', root, `Roll ${root} back to the version before the deploy${undo}, whose payloads fit.`) : step('apply-fix', root, `Make ${root} return less at once (page it, or store it and return a reference).`),
      step('apply-fix', carrier, `Make ${carrier} put large payloads in S3 and pass ${oversized.refusing} a reference, not the payload.`),
    ]);
  }
  // Locks are released by ending the session that holds them, whichever change made the holder take them.
  if (mechanism === 'locks') return plan('remedy-release-or-grow', relieveExhaustion(root, mechanism, alreadyRestarting, { filledByHold, heldOn }, change));
  // A backend whose runs outgrew the gateway's wait is made to answer within it; the gateway's limit is not the one to move.
  if (mechanism === 'timeout' && category === 'data') {
    return plan('integration-timed-out', [
      step('apply-fix', root, `Make ${root} answer large requests within the gateway's 29 s (accept them and finish asynchronously, or split them into pages).`),
    ]);
  }
  // A template reverted launches the old size only for new instances, so the hosts are scaled out (or refreshed) after it.
  if (mechanism === 'placement' && change) {
    return plan('hosts-resized', [
      step('revert-config', root, `Revert the change that redefined ${root}'s instances${undo}.`),
      step('scale', root, `Scale ${root} out (or refresh its instances) so the tasks that found no host are placed.`),
    ]);
  }
  // Service comes back when the rotation is finished and the clients read its value; then the function is mended so the next rotation completes.
  if (failedRotation) {
    const { secret = root, refused, release } = failedRotation;
    return plan('rotation-failed', [
      step('rotate-credentials', secret, `Finish the rotation of ${secret} (set the pending value as the database's password and make it AWSCURRENT, or rotate again once ${root} is fixed) so the password and the secret match.`),
      ...refused.map((client) => step('restart', client, `Restart ${client} so it reads the secret's current value.`)),
      release
        ? step('rollback', root, `Roll ${root} back to the version before "${quoteMessage(release.summary)}", whose rotations completed.`)
        : step('apply-fix', root, `Give ${root} what its ${failedRotation.step} step failed on ("${quoteMessage(failedRotation.error)}") so the next rotation completes.`),
    ]);
  }
  if (staleHolding === 'certificate') {
    return plan('sole-failing-caller', [
      step('apply-fix', root, `Update what ${root} pins or trusts to the dependency's current certificate (pin the CA or the new key, keeping a backup pin).`),
      step('restart', root, `Restart ${root} so it loads the corrected trust.`),
    ]);
  }
  if (staleHolding) {
    return plan('sole-failing-caller', [
      step('restart', root, `Restart ${root} so it drops the ${staleHolding} it cached and reads the current one.`),
      step('apply-fix', root, `Make ${root} refresh its ${staleHolding} when calls fail (a short DNS TTL, re-reading the secret on an authentication error), as the callers that recovered do.`),
    ]);
  }
  // A queue that shows messages again while they are processed is given a visibility timeout longer than the processing.
  // A setting of the consumer that made its runs that long (a batch size) is reverted first; a release's new work is kept, and given the time.
  if (outlastedVisibility) {
    const { queue, consumer, slowedBy } = outlastedVisibility;
    const wanted = Math.max(outlastedVisibility.processingSeconds * VISIBILITY_PER_TIMEOUT, outlastedVisibility.processingSeconds + 1);
    const raise = step('apply-fix', queue, `Raise ${queue}'s visibility timeout from ${outlastedVisibility.visibilitySeconds} s to at least ${wanted} s (${VISIBILITY_PER_TIMEOUT} times ${consumer}'s ${outlastedVisibility.processingSeconds} s), so a message is not handed out again while it is processed.`);
    const revert = slowedBy && slowedBy.kind !== 'deploy' ? [step('revert-config', consumer, `Revert ${consumer}'s change${undo}, which made each of its runs outlast ${queue}'s visibility timeout.`)] : [];
    // A timeout lowered below the processing is put back to what it was, which the processing fitted in.
    const { loweredBy } = outlastedVisibility;
    const restore = loweredBy
      ? step('revert-config', queue, `Put ${queue}'s visibility timeout back to ${loweredBy.fromSeconds} s, undoing the change that lowered it ("${quoteMessage(loweredBy.change.summary)}").`)
      : raise;
    return { steps: [...revert, restore] };
  }
  // Addresses a fleet holds are freed by scaling it in; the service starved of them then scales out again.
  if (addressesHeldFrom) {
    return plan('addresses-held-by-co-tenant', [
      step('scale', root, `Scale ${root} in (stop the copies it no longer needs) to free the IP addresses it holds in the subnets ${addressesHeldFrom} runs in.`),
      step('scale', addressesHeldFrom, `Let ${addressesHeldFrom} start the tasks it could not place, once addresses are free.`),
    ]);
  }
  // The grant goes where the policy lives; the caller has no credential of its own to fix. A policy a change rewrote
  // since the grant last worked gets that change undone first.
  if (missingGrant) {
    const rewrite = missingGrant.undo;
    return plan('grant-missing-at-resource', [
      ...(rewrite ? [step('revert-config', root, `Revert the change that rewrote ${root}'s ${missingGrant.policy} ("${quoteMessage(rewrite.summary)}").`)] : []),
      step('apply-fix', root, `Add a statement to ${root}'s ${missingGrant.policy} that allows ${missingGrant.principal} (for ${missingGrant.caller}, limited to it by its source ARN) the access ${missingGrant.caller} needs.`),
    ]);
  }
  // A memory limit a change lowered is what the process now dies at: the limit goes back, however the change was shipped.
  const memoryCut = mechanism === 'memory' && change ? memoryLoweredBy(change) : undefined;
  if (memoryCut) {
    return plan('remedy-undo-change', [step('revert-config', root, `Restore ${root}'s memory limit from ${memoryCut.to} to ${memoryCut.from}: revert the change${undo}.`)]);
  }
  // Traffic sent where there was no capacity for it goes back first; the target gets the capacity before it is sent there again.
  if (routedLoad) {
    return plan('load-routed-by-change', [
      step('revert-config', root, `Send the traffic back where it was served: revert the routing change${undo}.`),
      step('scale', routedLoad, `Scale ${routedLoad} for the traffic it is meant to take before routing it there again.`),
    ]);
  }
  // Reverting where the name points helps new connections only: the clients' pools keep their connections to the reader.
  if (repointedClients && change) {
    return plan('remedy-undo-change', [
      step('revert-config', root, `Revert the change${undo} so the name points at the writer again.`),
      ...repointedClients.map((client) => step('restart', client, `Restart ${client} so its pool drops the connections it holds to the read-only server and connects to the writer.`)),
    ]);
  }
  // Capacity someone cut is given back now, and the setting that cut it (a schedule, a maximum) reverted so it does not happen again.
  // A maximum the load reached is raised, so the scaling that follows the load can add copies again.
  if (scalingCeiling) {
    return plan('capacity-ceiling-reached', [
      step('scale', root, `Raise ${root}'s maximum capacity above ${scalingCeiling.maximum} so its scaling can add copies for the load.`),
    ]);
  }
  if (capacityCut) {
    return plan('capacity-cut', [
      step('scale', root, `Restore ${root}'s capacity now (it was cut by "${quoteMessage(capacityCut.summary)}").`),
      capacitySchedule
        ? step('revert-config', root, `Remove or correct the scheduled action${capacitySchedule.name ? ` "${capacitySchedule.name}"` : ''} that cut it ("${quoteMessage(capacitySchedule.change.summary)}"), or it cuts the capacity again when its schedule next fires.`)
        : step('revert-config', root, `Revert or correct the ${capacityCut.kind} setting that cut it ("${quoteMessage(capacityCut.summary)}").`),
    ]);
  }
  // A client whose retries keep a dependency over its limit has its retrying undone (the release that brought it rolled
  // back), and is slowed down until the dependency stops refusing it.
  if (mechanism === 'retries') {
    const slowDown = step('limit-traffic', root, `Slow ${root} down (fewer workers or calls at once) so the dependency it retries stops refusing it.`);
    return plan('remedy-limit-overloading-client', change?.kind === 'deploy'
      ? [step('rollback', root, `Roll ${root} back to the version before the deploy${undo}, whose retries backed off.`), slowDown]
      : [slowDown, step('apply-fix', root, `Make ${root} back off between retries (exponential delay with jitter, honouring Retry-After).`)]);
  }
  switch (category) {
    case 'deploy':
      // A release whose work swamps a shared resource is rolled back, and its work changed before it is released again.
      // The first release of the work has no version before it to go back to: the work is paused instead.
      if (overloads && change && firstRelease(change))
        return plan('remedy-limit-overloading-client', [
          step('limit-traffic', root, `Pause or throttle ${root}, first released by the deploy${undo}, so ${overloads} has room for its other clients again.`),
          step('apply-fix', root, `Change how ${root} does its work (fewer connections or calls at once, smaller batches, a rate limit, off-peak hours) before it runs again.`),
        ]);
      return overloads
        ? plan('remedy-limit-overloading-client', [
            step('rollback', root, `Roll ${root} back to the version before the deploy${undo}, so ${overloads} has room for its other clients again.`),
            step('apply-fix', root, `Change how ${root} does its work (fewer connections or calls at once, smaller batches, a rate limit) before it is released again.`),
          ])
        : plan('remedy-undo-change', [step('rollback', root, `Roll ${root} back to the version before the deploy${undo}.`)]);
    case 'config': {
      const revert = step('revert-config', root, `Revert the configuration change on ${root}${undo}.`);
      if (mechanism !== 'disk') return plan('remedy-undo-change', [revert]);
      // Undoing a change that filled storage stops the filling; what it wrote stays. Storage already full fails writes until
      // the room comes back, so that comes first; storage still filling is stopped first, and given room after.
      const room = step('scale', root, `Give ${root} more storage${storageRanOut ? ' now' : ''}: reverting the change stops the filling but does not free what it wrote.`);
      return plan('remedy-undo-change', storageRanOut ? [room, revert] : [revert, room]);
    }
    case 'permissions':
      if (mechanism === 'credentials' && !change) return plan('remedy-restart-for-credentials', [step('restart', root, `Restart ${root} so it reads the current secret.`)]);
      return plan('remedy-undo-change', [step('revert-config', root, `Revert the permission change on ${root}${undo}.`)]);
    case 'certificate':
      // A change that took a certificate or a trusted authority away just before is put back; a certificate that lapsed,
      // or was replaced by the wrong one, is renewed or replaced.
      if (change?.service === root && change.kind !== 'deploy' && withdrawal.test(changeText(change))) {
        return plan('remedy-undo-change', [step('revert-config', root, `Revert the ${change.kind} change on ${root}${undo}, restoring what it removed.`)]);
      }
      return plan('remedy-renew-certificate', [
        thirdParty
          ? step('escalate', root, `Ask the provider of ${root} to renew or replace the expired certificate it presents.`)
          : step('renew-certificate', root, `Renew or replace the expired certificate of ${root}.`),
      ]);
    case 'network':
      return change
        ? plan('remedy-undo-change', [step('revert-config', root, `Revert the network change${undo}.`)])
        : plan('remedy-route-around', [step('failover', root, `Move ${root}'s traffic to a healthy path or zone.`)]);
    case 'infrastructure':
      return plan('remedy-route-around', [step('failover', root, `Fail ${root} over away from the impaired infrastructure.`)]);
    case 'traffic':
      // A client swamping a shared resource is slowed down; a service that is itself swamped gets capacity.
      // Relieve first, then fix the work so it no longer swamps the resource when it runs again (batches, off-peak, an online schema change).
      return overloads
        ? plan('remedy-limit-overloading-client', [
            step('limit-traffic', root, `Pause or throttle ${root} so ${overloads} has room for its other clients again.`),
            step('apply-fix', root, `Change how ${root} does its work (smaller batches, a rate limit, off-peak hours, an online schema change) before it runs again.`),
          ])
        : plan('remedy-scale-for-load', [step('scale', root, `Add capacity to ${root} for the extra load.`)]);
    case 'external': {
      const via = callerOfRoot ?? root;
      // Move to another provider when there is one; a rate limit with nowhere else to go means sending less.
      const limited = mechanism === 'throttling' && !alternativeProvider;
      return plan('remedy-provider-failover-or-limit', [
        step(limited ? 'limit-traffic' : 'failover', via, limited ? `Slow ${via}'s calls to ${root} below its rate limit.` : `Fail ${via} over to a fallback for ${root}.`),
        step('escalate', root, `Open a case with the provider of ${root}.`),
      ]);
    }
    case 'data': {
      const repair = recordedBy ? step('apply-fix', recordedBy, `Repair the records ${recordedBy} wrote from what ${root} sent.`) : step('apply-fix', root, 'Repair the affected records.');
      return change?.kind === 'deploy'
        ? plan('remedy-repair-bad-data', [step('rollback', root, `Roll back the release that writes bad data${undo}.`), repair])
        : change?.kind === 'config'
        ? plan('remedy-repair-bad-data', [step('revert-config', root, `Revert the setting that makes ${root} write bad data${undo}.`), repair])
        : plan('remedy-repair-bad-data', [step('apply-fix', root, `Stop and repair the bad data produced by ${root}.`)]);
    }
    case 'resource-exhaustion':
      // A client whose load ran a shared resource out is slowed down at once, as a swamping client is (restarting it frees nothing
      // it holds); the release that launched that load is rolled back, and its work changed before it runs again.
      return overloads && overloads !== root
        ? plan('remedy-limit-overloading-client', [
            step('limit-traffic', root, `Pause or throttle ${root} (fewer copies or workers) so ${overloads} has room for its other clients again.`),
            ...(change?.kind === 'deploy' ? [step('rollback', root, `Roll ${root} back to before the deploy${undo}.`)] : []),
            step('apply-fix', root, `Change how ${root} does its work (fewer connections or calls at once, reused connections, smaller batches, off-peak hours) before it runs again.`),
          ])
        : plan('remedy-release-or-grow', relieveExhaustion(root, mechanism, alreadyRestarting, { filledByHold, heldOn }, change));
    case 'dependency':
      return plan('remedy-escalate-dependency', [step('escalate', root, `Escalate to the owners of ${root}.`)]);
    case 'none':
      return { steps: [] };
  }
};

/** Whether a service's own error lines say its storage ran out ("No space left on device"). */
const outOfSpace = (board: EvidenceBoard, service: string): boolean =>
  board.logs.some((line) => line.service === service && severityOfLine(line) >= severityOf('ERROR') && causesIn(line.message).some((hit) => hit.label === 'disk'));

/** What the plan for an inferred cause rests on: its category, mechanism, change, and the circumstances around the root. */
export const remediationInputsOf = (board: EvidenceBoard, cause: IncidentCause): RemediationInputs => {
  const capacityCut = capacityCutAt(board, cause.root, cause.rootOnset);
  const capacitySchedule = capacityCut && scheduledActionBehind(board, capacityCut);
  return {
  category: cause.category,
  root: cause.root,
  ...(cause.shiftedValue?.recordedBy ? { recordedBy: cause.shiftedValue.recordedBy } : {}),
  mechanism: cause.mechanism?.label,
  change: cause.suspectChange,
  callerOfRoot: cause.callerOfRoot,
  thirdParty: kindOf(board, cause.root) === 'external',
  alreadyRestarting: cause.alreadyRestarting,
  alternativeProvider: cause.alternativeProvider,
  overloads: cause.overloads ?? cause.starves,
  capacityCut,
  ...(capacitySchedule ? { capacitySchedule } : {}),
  poison: poisonRecordOf(board, cause),
  ...(cause.holdsOn && outOfSpace(board, cause.holdsOn) ? { filledByHold: cause.holdsOn } : {}),
  ...(cause.holdsOn ? { heldOn: cause.holdsOn } : {}),
  storageRanOut: [cause.root, ...callersOf(board, cause.root)].some((service) => outOfSpace(board, service)),
  ...(cause.failedRotation ? { failedRotation: cause.failedRotation } : {}),
  ...(cause.oversized ? { oversized: cause.oversized } : {}),
  staleHolding: cause.staleView?.holding,
  ...(cause.repointed ? { repointedClients: cause.repointed.clients } : {}),
  ...(cause.outlastedVisibility ? { outlastedVisibility: cause.outlastedVisibility } : {}),
  ...(cause.routedLoad ? { routedLoad: cause.routedLoad.service } : {}),
  ...(cause.missingGrant ? { missingGrant: cause.missingGrant } : {}),
  ...(cause.addressHolder ? { addressesHeldFrom: cause.addressHolder.starved } : {}),
  ...(cause.scalingCeiling ? { scalingCeiling: cause.scalingCeiling } : {}),
  };
};

/** Remediation actions named in a runbook's steps, in order. */
export const runbookActions = (steps: readonly string[]): RemediationAction[] => {
  const actions: RemediationAction[] = [];
  for (const text of steps) {
    const match = actionPatterns.find(([, pattern]) => pattern.test(text));
    if (match && !actions.includes(match[0])) actions.push(match[0]);
  }
  return actions;
};

/** A rollback or a forced restart already replaces every task: a restart after it adds nothing. */
const covered = (plan: readonly Step[], action: RemediationAction): boolean =>
  plan.some((planned) => planned.action === action) || (action === 'restart' && plan.some((planned) => planned.action === 'rollback' || planned.action === 'restart'));

/** The first runbook action the plan does not already cover, as an extra step on the root. */
export const withRunbookStep = (plan: Step[], runbook: Runbook | undefined, root: string): Step[] => {
  if (!runbook) return plan;
  const extra = runbookActions(runbook.steps).find((action) => !covered(plan, action) && action !== 'escalate' && action !== 'none');
  return extra ? [...plan, step(extra, root, `From runbook "${runbook.title}".`)] : plan;
};
