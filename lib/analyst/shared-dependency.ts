import { madeByAwsService } from './change-text.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { CHANGE_WINDOW_MS, latestBreakingChangeBefore } from './explaining-change.ts';
import { dependenciesOf } from './service-map.ts';
import { callsEitherWay, type Signal } from './signals.ts';

/** Changes that give dependents something new to run with. */
const takenUp = new Set(['deploy', 'config']);

/**
 * Services that fail alike (their logs carry the same error) and independently of each other
 * (neither calls the other) but began to after one
 * dependency they both use changed (a new version of a shared library layer, a shared image, a
 * shared client configuration) fail because of that change, not each because of its own: two
 * faults at once are rarer than one fault that reached both. The dependency shows nothing of its
 * own (it has no trouble the chain would follow), the root fails of its own (it is no resource
 * blamed only for a change), and the dependency's change is a release or a setting they take up
 * (not a provider's maintenance, nor what an AWS service did on its own), made before every one of them began to fail.
 */
export interface SharedDependencyChange {
  dependency: string;
  change: Change;
  /** The other failing services that use it. */
  alsoFailing: string[];
}

/** Long enough a run of the same words to be the same error, not the same log prefix. */
const SAME_ERROR_CHARS = 24;

/** The longest run of characters two texts share, digits read as one (ids and counts differ between lines of one error). */
const longestSharedRun = (a: string, b: string): number => {
  const [x, y] = [a, b].map((text) => text.toLowerCase().replace(/\d+/g, '#'));
  let longest = 0;
  let previous = new Array<number>(y!.length + 1).fill(0);
  for (let i = 1; i <= x!.length; i += 1) {
    const row = new Array<number>(y!.length + 1).fill(0);
    for (let j = 1; j <= y!.length; j += 1) {
      if (x![i - 1] !== y![j - 1]) continue;
      row[j] = previous[j - 1]! + 1;
      longest = Math.max(longest, row[j]!);
    }
    previous = row;
  }
  return longest;
};

const failAlike = (errors: readonly Signal[], a: string, b: string): boolean => {
  const of = (service: string) => errors.filter((signal) => signal.service === service).map((signal) => signal.text.slice(0, 400));
  return of(a).some((one) => of(b).some((other) => longestSharedRun(one, other) >= SAME_ERROR_CHARS));
};

export const sharedDependencyChanged = (
  board: EvidenceBoard,
  root: string,
  failing: readonly string[],
  onsetOf: (service: string) => number,
  current: readonly Signal[],
): SharedDependencyChange | undefined => {
  const errors = current.filter((signal) => signal.kind === 'errors');
  const services = board.services ?? [];
  if (!failing.includes(root)) return undefined;
  for (const dependency of dependenciesOf(board, root)) {
    if (failing.includes(dependency)) continue;
    const alsoFailing = failing.filter(
      (service) => service !== root && dependenciesOf(board, service).includes(dependency) && !callsEitherWay(services, service, root) && failAlike(errors, root, service),
    );
    if (alsoFailing.length === 0) continue;
    const firstOnset = Math.min(...[root, ...alsoFailing].map(onsetOf));
    if (!Number.isFinite(firstOnset)) continue;
    const change = latestBreakingChangeBefore(board.changes, firstOnset, CHANGE_WINDOW_MS, (candidate) => candidate.service === dependency && takenUp.has(candidate.kind) && !madeByAwsService(candidate));
    if (change) return { dependency, change, alsoFailing };
  }
  return undefined;
};
