import { correlateChanges } from '../analysis/change-correlation.ts';
import { categoryOfChange, causesIn } from './cause-signals.ts';
import { changeExplains, failureKindsIn, failureKindsOfChange } from './change-effects.ts';
import type { Change, ServiceNode } from './evidence-board.ts';
import { changeText, madeByAwsService, withdrawal } from './change-text.ts';
import type { Principle } from './principles.ts';
import { rulePortsMissed } from './rule-ports.ts';
import { nextFiringAfter } from './schedule-expression.ts';
import { calleesOf, METRIC_PERIOD_MS, SAME_TIME_MS, type Signal } from './signals.ts';

/** How long before the trouble a change is still a suspect. */
export const CHANGE_WINDOW_MS = 2 * 60 * 60_000;
/** A change this close before the trouble is a prime suspect. */
export const CLOSE_CHANGE_MS = 45 * 60_000;
/** A caller's change this close before its dependency broke, at the same moment as the caller, explains the dependency. */
const TRIGGERING_CHANGE_MS = 15 * 60_000;
/** Words of a change that moves a caller onto another encryption key. */
const keyWords = /\bkms\b|\bkey.?id\b|\bcmk\b|alias\/|encryption key/i;

export interface ChangeExplanation {
  /** Where the change was made: the service or resource to blame. */
  link: string;
  change: Change;
  weight: number;
  /** Which principle connects the change to the failure. */
  because: 'own-change' | 'caller-change' | 'change-effect-matches';
  /** Dated by the first sign of the failure it can produce, later than the coarser onset of the root. */
  datedByItsFailure?: boolean;
  /** The principle it was found by, and the one that dated it when the failure it can produce dated it. */
  principles: Principle[];
}

type Candidate = Omit<ChangeExplanation, 'principles'>;

export interface ChangeContext {
  services: readonly ServiceNode[];
  changes: readonly Change[];
  /** The failure chain, from where it shows to the current root. */
  chain: readonly string[];
  root: string;
  rootOnset: number;
  onsetOf: (service: string) => number;
  /** What the failing services use beyond the chain. */
  usedOnPath: readonly string[];
  /** Every service that shows the trouble. */
  failing: readonly string[];
  /** The categories (cause-signals) and failure kinds (change-effects) the failing services' evidence shows. */
  evidenceCategories: ReadonlySet<string>;
  evidenceKinds: ReadonlySet<string>;
  /** The failing services' signals the failure kinds were read from, each dated. */
  evidence: readonly Signal[];
  /** Whether the root is throttled or refused without a surge of its own: starved of a shared capacity, which its own release does not explain. */
  rootStarved: boolean;
  /** Whether Lambda refuses to invoke the root (load-source.ts): refused before its code runs, it is not failed by what it calls. */
  rootRefusedInvocations: boolean;
  /** Links refused the account-wide quota the root stands for without a surge of their own: their changes did not take it. */
  starvedOfQuota: readonly string[];
  /** Whether the root posted in its own words that it is impaired (outage-notice.ts): a caller's change does not explain it. */
  rootReportsOutage: boolean;
  /** Callers of the root refused its capacity (throttled, refused connections) without a surge of their own (load-source.ts). */
  callersStarvedByRoot: readonly string[];
  /** When a change could first show: its own time, or when the idle work it affects next ran (work-resumption.ts). */
  shownAt: (change: Change) => number;
}


/** Signals that say in words what failed; a metric point only says that something did, somewhere in its period. */
export const worded = new Set<Signal['kind']>(['errors', 'mentioned', 'trace']);

/** A measure that turned and stays turned (a volume filling since a point in the window): it dates what it measures as well as a worded error. */
const measuredRun = (signal: Signal): boolean => signal.kind === 'metric' && signal.ongoing && signal.substantial;

/**
 * When the failure a change can produce first shows: the earliest error line or trace whose own
 * words complain of what the change can break (a timeout after a security-group change,
 * InvalidAccessKeyId after a key was deactivated). A root's onset is often dated by a metric point
 * that stands for a whole period, or by symptoms that began before; the failure the change can
 * cause began no earlier than its own first sign, and a change before that sign may have caused it.
 */
const firstSignOfEffect = (change: Change, evidence: readonly Signal[]): number | undefined => {
  const image = releasedImage(change);
  const explains = (signal: Signal) => changeExplains(change, failureKindsIn([signal])) || namesImage(image, signal);
  // A point of a measure stands for a period from its time: a change made within that period may have come before the failure it
  // shows. Not one an AWS service made on its own (scaling, replacing instances): it acts on what it measured, after it.
  const periodHolds = (signal: Signal) => measuredRun(signal) && !madeByAwsService(change) && signal.at <= change.at && change.at < signal.at + METRIC_PERIOD_MS;
  const times = evidence.filter((signal) => (worded.has(signal.kind) || measuredRun(signal)) && explains(signal)).map((signal) => (periodHolds(signal) ? signal.at + METRIC_PERIOD_MS : signal.at));
  return times.length > 0 ? Math.min(...times) : undefined;
};

/** The image a release rolled out, as its repository and tag (`billing-api:7.3.1`), from its details or a registry address in its summary. */
const releasedImage = (change: Change): string | undefined => {
  if (change.kind !== 'deploy') return undefined;
  const image = change.details?.['image'];
  const named = typeof image === 'string' ? image : /\S+\.dkr\.ecr\.\S+/.exec(change.summary)?.[0];
  return named?.split('/').at(-1)?.match(/^[\w.-]+:[\w.-]+/)?.[0];
};

/** A failure that names the very image a release rolled out (its tasks cannot pull it, or fail running it) is that release's. */
const namesImage = (image: string | undefined, signal: Signal): boolean => image !== undefined && worded.has(signal.kind) && signal.text.includes(image);

/** Whether any failure in the evidence names the image the release rolled out. */
const imageNamedIn = (change: Change, evidence: readonly Signal[]): boolean => {
  const image = releasedImage(change);
  return evidence.some((signal) => namesImage(image, signal));
};

/** Whether the change can produce any of the failures in the evidence. */
const explainsAny = (change: Change, evidenceKinds: ReadonlySet<string>, evidence: readonly Signal[]): boolean => changeExplains(change, evidenceKinds) || imageNamedIn(change, evidence);

/** A change that could break something: any kind with a cause category, or a setting whose effects are known. */
export const couldBreak = (change: Change): boolean => categoryOfChange(change) !== undefined || failureKindsOfChange(change).size > 0;

/** The latest change that could break something, among the `relevant` ones, made no more than `reachMs` before `at`. */
export const latestBreakingChangeBefore = (changes: readonly Change[], at: number, reachMs: number, relevant: (change: Change) => boolean): Change | undefined =>
  changes.filter((change) => relevant(change) && couldBreak(change) && change.at <= at && at - change.at <= reachMs).sort((a, b) => b.at - a.at)[0];

/**
 * Of changes made together at one service (newest first), the one that took something away: a rule
 * revoked beside one authorized in its place (a port moved) is what stops the traffic. Otherwise the newest.
 */
export const withdrawingFirst = (newestFirst: readonly Change[]): Change | undefined => {
  const latest = newestFirst[0];
  return latest && (newestFirst.find((change) => change.service === latest.service && latest.at - change.at <= SAME_TIME_MS && withdrawal.test(changeText(change))) ?? latest);
};

/** When a change can first show without reading the work it affects: a schedule it wrote shows when it next fires, anything else at once. */
const firstShownAt = (change: Change): number => nextFiringAfter(change) ?? change.at;

/**
 * The change most likely to have started the trouble at `onset`, on one of `services`. A provider's
 * infrastructure notice is posted after its impact began, so it may come up to a while after the onset.
 */
export const suspectChangeFor = (changes: readonly Change[], services: ReadonlySet<string>, onset: number, shownAt: (change: Change) => number = firstShownAt): Change | undefined => {
  const suspects = changes.filter((change) => services.has(change.service) && couldBreak(change));
  const asEvents = (list: readonly Change[]) => list.map((change) => ({ ...change, t: shownAt(change), change }));
  const best = [
    ...correlateChanges(asEvents(suspects), onset, { windowMs: CHANGE_WINDOW_MS }),
    ...correlateChanges(asEvents(suspects.filter((change) => change.kind === 'infrastructure')), onset, { windowMs: CHANGE_WINDOW_MS, toleranceMs: CLOSE_CHANGE_MS }),
  ].sort((a, b) => b.score - a.score)[0];
  if (!best) return undefined;
  const before = suspects.filter((change) => change !== best.change && change.at <= best.change.at).sort((a, b) => b.at - a.at);
  return withdrawingFirst([madeByPeopleBefore(best.change, before) ?? best.change, ...before]);
};

/** How soon after a change its service records the update finished (Lambda's LastUpdateStatus, a version published). */
const UPDATE_SETTLES_MS = 5 * 60_000;

/**
 * The change a person or pipeline made at the same service shortly before one an AWS service
 * recorded on its own (an update's status turning Successful): that record is the tail of the
 * change, which is what to look at and undo.
 */
const madeByPeopleBefore = (recorded: Change, newestFirst: readonly Change[]): Change | undefined =>
  madeByAwsService(recorded)
    ? newestFirst.find((change) => change.service === recorded.service && recorded.at - change.at <= UPDATE_SETTLES_MS && !madeByAwsService(change))
    : undefined;

/**
 * The change that explains the trouble, and where it was made. The cause is where the change
 * starts, and the symptom is downstream:
 * - the root's own change;
 * - a caller's change that came right before both broke together (a database rejecting the
 *   queries of a client that just deployed);
 * - a change whose effect is what the errors complain about (a secret put before password
 *   failures, a key disabled before KMS errors, a rule revoked before timeouts), on a link of the
 *   chain, on a service that shows the trouble, on a resource the failing services use, or on a
 *   resource the service map does not connect (a secret, a key, a record has no metrics and no
 *   edges of its own).
 * A deploy elsewhere explains nothing unless the evidence connects it to the failing path, a
 * root starved of a capacity it shares is not explained by its own release, and a root that posted
 * its own outage is not explained by its caller's change. A change of the kind
 * the errors complain about that came after the root's coarser onset is measured against the first
 * error that complains of it (or the end of the first period a measure shows it in), and explains
 * the trouble only by that match.
 */
export const explainingChange = (context: ChangeContext): ChangeExplanation | undefined => {
  const { services, changes, chain, root, rootOnset, onsetOf, usedOnPath, failing, evidenceCategories, evidenceKinds, evidence, rootStarved, rootRefusedInvocations, starvedOfQuota, rootReportsOutage, shownAt } = context;
  const mapped = new Set(services.flatMap((node) => [node.name, ...node.dependsOn]));
  // A resource the map does not connect to anything: the map cannot say who uses it, the change can.
  // A credential, key or rule (kind "other", calling nothing) is mapped to whoever manages it, seldom to all who use it.
  const unconnected = [...new Set(changes.map((change) => change.service))].filter((name) => !mapped.has(name) || isolated(services, name) || passive(services, name));
  // A root Lambda refuses to invoke is not failed by what it calls: changes there are no suspects.
  const notSuspects = new Set([...(rootRefusedInvocations ? calleesOf(services, root) : []), ...starvedOfQuota]);
  const explanations = [...new Set([...chain, ...usedOnPath, ...failing, ...unconnected])].flatMap((link): Candidate[] => {
    if (link !== root && notSuspects.has(link)) return [];
    const dated = suspectChangeFor(changes, new Set([link]), rootOnset, shownAt);
    // A change of the link that came after the root's onset but before the first sign of the failure it can produce.
    const matching = changes.filter((change) => change.service === link && change.at > rootOnset && explainsAny(change, evidenceKinds, evidence));
    const laterSign = matching.flatMap((change) => {
      const sign = firstSignOfEffect(change, evidence);
      return sign !== undefined && sign > rootOnset && change === suspectChangeFor(matching, new Set([link]), sign) ? [{ change, sign }] : [];
    })[0];
    const change = dated && (!laterSign || explainsAny(dated, evidenceKinds, evidence)) ? dated : laterSign?.change;
    if (!change) return [];
    const datedByItsFailure = change === laterSign?.change && change !== dated;
    const onset = datedByItsFailure ? laterSign!.sign : rootOnset;
    const lead = onset - shownAt(change);
    const closeness = 1 - Math.max(lead, 0) / CHANGE_WINDOW_MS;
    const category = categoryOfChange(change);
    const onPath = chain.includes(link) || usedOnPath.includes(link);
    // A rule for ports that none of the failing connections use did not stop them.
    if (rulePortsMissed(change, evidence)) return [];
    // Off the path, only what the change can break connects it: its kind alone is too weak a tie, and so are failures that
    // name a release's own image (a failed deployment elsewhere, rolled back, is not this trouble).
    const effectMatches = changeExplains(change, evidenceKinds) || (onPath && (imageNamedIn(change, evidence) || (category !== undefined && evidenceCategories.has(category))));
    if (effectMatches && (lead <= CLOSE_CHANGE_MS || link === root)) return [{ link, change, weight: 2 + closeness + (link === root ? 0.5 : 0), because: 'change-effect-matches', datedByItsFailure }];
    if (datedByItsFailure || !onPath || category === undefined || rootStarved) return [];
    if (link === root) return [{ link, change, weight: closeness + 0.5, because: 'own-change' }];
    // A certificate failing at the root is its own, whatever a caller changed just before (unless it changed certificates);
    // so is a key found disabled or pending deletion (unless the change moved the caller onto that key).
    const ownState = evidence.some(
      (signal) =>
        signal.service === root &&
        causesIn(signal.text).some((hit) => (hit.category === 'certificate' && category !== 'certificate') || (hit.label === 'disabled key' && !keyWords.test(changeText(change)))),
    );
    if (chain.includes(link) && onsetOf(link) <= rootOnset + SAME_TIME_MS && lead <= TRIGGERING_CHANGE_MS && !ownState && !rootReportsOutage && !failsForUnchangedCaller(context, link))
      return [{ link, change, weight: closeness, because: 'caller-change' }];
    return [];
  });
  const best = explanations.sort((a, b) => b.weight - a.weight)[0];
  if (!best) return undefined;
  const principles: Principle[] = [best.because, ...(best.datedByItsFailure ? (['failure-dated-by-its-kind'] as const) : []), ...(shownAt(best.change) !== best.change.at ? (['change-shows-when-work-resumes'] as const) : [])];
  return { ...best, principles };
};

/**
 * The root fails for another caller too, one that did not change: the trouble is the root's own,
 * whatever changed at `changedCaller` (a provider whose probe fails as our release's calls do).
 */
const failsForUnchangedCaller = ({ services, changes, root, rootOnset, onsetOf, evidence, callersStarvedByRoot }: ChangeContext, changedCaller: string): boolean => {
  const others = new Set(services.filter((node) => node.name !== changedCaller && node.dependsOn.includes(root)).map((node) => node.name));
  const unchanged = (caller: string) => !changes.some((change) => change.service === caller && Math.abs(change.at - rootOnset) <= TRIGGERING_CHANGE_MS);
  // A caller throttled or refused by the root in its own words, though its errors do not name the root, fails with it too.
  const starved = callersStarvedByRoot.some((caller) => others.has(caller) && unchanged(caller) && Math.abs(onsetOf(caller) - rootOnset) <= TRIGGERING_CHANGE_MS);
  return starved || evidence.some((signal) => signal.kind === 'mentioned' && signal.service === root && signal.from !== undefined && others.has(signal.from) && unchanged(signal.from) && Math.abs(signal.at - rootOnset) <= TRIGGERING_CHANGE_MS);
};

/** A resource without telemetry of its own that calls nothing: a key, a secret, a rule. */
const passive = (services: readonly ServiceNode[], name: string): boolean => {
  const node = services.find((candidate) => candidate.name === name);
  return node?.kind === 'other' && node.dependsOn.length === 0;
};

const isolated = (services: readonly ServiceNode[], name: string): boolean =>
  (services.find((node) => node.name === name)?.dependsOn.length ?? 0) === 0 && !services.some((node) => node.dependsOn.includes(name));
