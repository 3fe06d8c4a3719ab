import type { RootCauseCategory } from '../domain/vocabulary.ts';
import { keyRangeThrottling } from './hot-partition.ts';
import { categoryOfChange, causesIn } from './cause-signals.ts';
import { failureKindsIn, failureKindsOfChange } from './change-effects.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { heldMechanisms, type Held } from './load-source.ts';
import { capacityCutAt } from './lowered-setting.ts';
import type { Principle } from './principles.ts';
import { kindOf } from './service-map.ts';
import type { Signal } from './signals.ts';

/**
 * The category follows from the mechanism the evidence shows, not from where the fault shows and
 * not from a default: an expired certificate is `certificate` even behind a dependency, a capacity
 * someone cut is `config` even though the symptom is load, and where nothing names a cause the
 * category is `none` (cause undetermined), never a guess such as "infrastructure".
 */

/** Categories whose evidence names the mechanism outright, whoever shows it. */
const decisiveCategories = new Set<RootCauseCategory>(['certificate', 'permissions', 'resource-exhaustion']);

/** What a finite resource runs out of, as the evidence names it (cause-signals.ts labels). */
const capacityLabels = new Set(['ports', 'connections', 'memory', 'threads', 'IP addresses', 'disk', 'burst credits']);

/** A measure of how full a finite resource is (storage, memory, connections, CPU): an alarm or a rise on it is exhaustion. */
const saturationMeasure = /disk|storage|volume|memory|heap|swap|connections|pool|cpu|utili[sz]ation|inode|file.?descriptors/i;
const risingOrAlarmed = (signal: Signal): boolean =>
  signal.kind === 'alarm' || ((signal.kind === 'metric' || signal.kind === 'trend') && /rising|went up|falling steadily/.test(signal.description));

export interface CategoryInputs {
  board: EvidenceBoard;
  root: string;
  rootSignals: readonly Signal[];
  symptom: string | undefined;
  rootOnset: number;
  /** The change found to start the trouble, if any. */
  change?: Change;
  /** When the change was found because what it can break is what the errors complain about: the failure kinds they show (change-effects.ts). */
  failuresExplained?: ReadonlySet<string>;
  /** The root was found as the writer of records its readers cannot read. */
  wroteBadData: boolean;
  /** The root wrote a value an order of magnitude off (shifted-value.ts). */
  shiftedValue?: boolean;
  /** The root was found by the load it put on a shared resource. */
  overloads: boolean;
  /** What that shared resource itself shows, when the root was found by its load on it. */
  loadedSignals?: readonly Signal[];
  /** The root is the one caller still failing on a dependency its other callers came through (stale-view.ts). */
  heldStale?: boolean;
  /** A routing change moved traffic onto the root, which was not scaled for it (routed-load.ts). */
  routedLoad?: boolean;
  /** The root's copies hold the addresses of subnets another service cannot start its tasks in (address-holder.ts). */
  holdsAddresses?: boolean;
  /** The root was named by its database as the holder of what it or its other sessions need: locks, a replication slot's log (load-source.ts). */
  holds?: Held;
}

/** What the evidence at the root says, by vote (errors and metrics count double; "config" is a weak word). */
const votedCategory = (rootSignals: readonly Signal[]): RootCauseCategory | undefined => {
  const votes = new Map<RootCauseCategory, number>();
  for (const signal of rootSignals) {
    const weight = signal.kind === 'errors' || signal.kind === 'metric' ? 2 : 1;
    for (const hit of causesIn(signal.text)) votes.set(hit.category, (votes.get(hit.category) ?? 0) + weight * (hit.category === 'config' ? 0.5 : 1));
  }
  return [...votes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
};

/**
 * A change whose kind names no category (an API call filed as "other": DeleteApiKey, UpdateAccessKey),
 * found because what it can break is what the errors complain about, is the kind of cause that
 * failure is: refused identities a permissions cause, a cut network path a network cause, a broken
 * certificate a certificate cause. A change whose matching effects span several of these decides nothing.
 */
const effectCategories: readonly [RootCauseCategory, readonly string[]][] = [
  ['permissions', ['credentials', 'access denied', 'disabled key']],
  ['network', ['network']],
  ['certificate', ['certificate']],
];

const categoryOfEffect = (change: Change, failuresExplained: ReadonlySet<string>): RootCauseCategory | undefined => {
  const kinds = failureKindsOfChange(change);
  const matching = effectCategories.filter(([, labels]) => labels.some((label) => kinds.has(label)) && labels.some((label) => failuresExplained.has(label)));
  return matching.length === 1 ? matching[0]![0] : undefined;
};

type TracedCategory = { category: RootCauseCategory; principle: Principle };

/** What the evidence at the root itself shows, when no change explains the trouble. */
const evidenceCategory = ({ board, root, rootSignals, symptom }: CategoryInputs, voted: RootCauseCategory | undefined): TracedCategory => {
  if (kindOf(board, root) === 'external') return voted && decisiveCategories.has(voted) ? { category: voted, principle: 'category-from-evidence' } : { category: 'external', principle: 'provider-is-external' };
  if (voted) return { category: voted, principle: 'category-from-evidence' };
  // A refusal an error names only by its HTTP status (401, 403) is still a refused identity.
  const refused = failureKindsIn(rootSignals.filter((signal) => signal.substantial));
  if (refused.has('credentials') || refused.has('access denied')) return { category: 'permissions', principle: 'refusal-is-permissions' };
  if (rootSignals.some((signal) => signal.kind === 'demand' && signal.substantial)) return { category: 'traffic', principle: 'demand-surge-is-traffic' };
  if (rootSignals.some((signal) => risingOrAlarmed(signal) && saturationMeasure.test(signal.text))) return { category: 'resource-exhaustion', principle: 'saturation-is-exhaustion' };
  // A root that is not where the symptom shows fails its callers; with nothing more, that is all the evidence says.
  return { category: root !== symptom ? 'dependency' : 'none', principle: 'dependency-or-undetermined' };
};

/** The category the evidence supports, and the principle that decided it: how the root was found, a capacity cut, the change, then what the root's evidence names. */
export const categoryTraced = (inputs: CategoryInputs): TracedCategory => {
  const { board, root, rootSignals, rootOnset, change, wroteBadData, shiftedValue, overloads, heldStale, holds, routedLoad, holdsAddresses } = inputs;
  // A value written wrong is data, whatever setting made the writer read its source wrong: the records must be repaired.
  if (shiftedValue) return { category: 'data', principle: 'value-shifted-at-writer' };
  // A client holding locks its database's other sessions wait for exhausts what they need, whatever its own evidence says,
  // unless a change made it take them (a schedule moved into busy hours, a release's migration): that change is the cause.
  const lockingChange = holds === 'locks' && change ? categoryOfChange(change) : undefined;
  if (lockingChange) return { category: lockingChange, principle: 'category-from-change' };
  if (holds) return { category: 'resource-exhaustion', principle: heldMechanisms[holds].principle };
  if (holdsAddresses) return { category: 'resource-exhaustion', principle: 'addresses-held-by-co-tenant' };
  const voted = votedCategory(rootSignals);
  // Load crowded onto one partition of a table that had room for it is traffic in its shape, whatever launched it.
  if (overloads && (inputs.loadedSignals ?? []).some((signal) => keyRangeThrottling.test(signal.text))) return { category: 'traffic', principle: 'overload-is-traffic' };
  // A shared resource whose own evidence says it ran out of something (ports, connections, memory) was exhausted by the load found on it,
  // whatever launched that load. How it was worked (scans, locks) is not running out: the change that made it so decides.
  const ranOut = (inputs.loadedSignals ?? []).some((signal) => causesIn(signal.text).some((hit) => capacityLabels.has(hit.label)));
  if (overloads && ranOut) return { category: 'resource-exhaustion', principle: 'saturation-is-exhaustion' };
  // Traffic a routing setting sent where the capacity for it was not is that setting's doing, unless the evidence names a mechanism outright.
  if (routedLoad && !(voted && decisiveCategories.has(voted) && voted !== 'resource-exhaustion')) return { category: 'config', principle: 'load-routed-by-change' };
  // What the caller holds from before is its own configuration, unless its failures name a mechanism outright (a pinned certificate).
  if (heldStale) return { category: voted && decisiveCategories.has(voted) ? voted : 'config', principle: 'sole-failing-caller' };
  const shown: TracedCategory = wroteBadData
    ? { category: 'data', principle: 'bad-data-writer' }
    : capacityCutAt(board, root, rootOnset)
      ? { category: 'config', principle: 'capacity-cut' }
      : overloads && voted === undefined
        ? { category: 'traffic', principle: 'overload-is-traffic' }
        : evidenceCategory(inputs, voted);
  const changeCategory = change ? categoryOfChange(change) : undefined;
  const effectCategory = change && inputs.failuresExplained && !changeCategory && !decisiveCategories.has(shown.category) ? categoryOfEffect(change, inputs.failuresExplained) : undefined;
  if (effectCategory) return { category: effectCategory, principle: 'category-from-change-effect' };
  if (!changeCategory) return shown;
  // A change explains the trouble unless the evidence names a mechanism the change cannot be (an expired certificate).
  if (shown.category === 'certificate' && changeCategory !== 'certificate') return { category: 'certificate', principle: 'certificate-over-change' };
  // Where the evidence agrees with the change, the change alone decides it.
  return { category: changeCategory, principle: 'category-from-change' };
};
