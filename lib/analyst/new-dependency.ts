import type { Change, EvidenceBoard } from './evidence-board.ts';
import { CHANGE_WINDOW_MS, latestBreakingChangeBefore } from './explaining-change.ts';
import type { Signal } from './signals.ts';

/**
 * A dependency that one caller began to call only with its latest release: the caller's logs reach
 * back well before the release and never name the dependency there, and they, or a measure of the
 * calls named for it, first do after. However the dependency answers (slowly, with 429s), the
 * release is what changed: it put the dependency on the caller's path. Its blame rests on that
 * caller's word alone; a dependency that shows a fault of its own, or changed itself, is left to the chain.
 */
export interface ReleaseAddedDependency {
  caller: string;
  dependency: string;
  change: Change;
}

/** The caller's logs must show it working this long before the release without naming the dependency. */
const QUIET_BEFORE_MS = 30 * 60_000;
/** And in at least this many lines. */
const MIN_LINES_BEFORE = 10;

const takesUp = new Set(['deploy', 'config', 'feature-flag']);

export const releaseAddedDependency = (board: EvidenceBoard, root: string, current: readonly Signal[]): ReleaseAddedDependency | undefined => {
  const aboutRoot = current.filter((signal) => signal.service === root);
  if (aboutRoot.length === 0 || aboutRoot.some((signal) => signal.kind !== 'mentioned')) return undefined;
  const callers = [...new Set(aboutRoot.map((signal) => signal.from).filter((from): from is string => from !== undefined))];
  if (callers.length !== 1) return undefined;
  const caller = callers[0]!;
  const name = root.toLowerCase().replace(/[^a-z0-9]/g, '');
  const names = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '').includes(name);
  const lines = board.logs.filter((line) => line.service === caller);
  const firstCalls = [
    ...lines.filter((line) => names(line.message)).map((line) => line.at),
    ...board.series.filter((series) => series.service === caller && names(series.name)).flatMap((series) => series.points.slice(0, 1).map(([timestamp]) => Date.parse(timestamp))),
  ];
  if (firstCalls.length === 0) return undefined;
  const firstCall = Math.min(...firstCalls);
  const change = board.changes
    .filter((candidate) => candidate.service === caller && takesUp.has(candidate.kind) && candidate.at <= firstCall && firstCall - candidate.at <= CHANGE_WINDOW_MS)
    .sort((a, b) => b.at - a.at)[0];
  // A dependency that changed itself shortly before is explained by its own change.
  const changedItself = latestBreakingChangeBefore(board.changes, firstCall, CHANGE_WINDOW_MS, (candidate) => candidate.service === root) !== undefined;
  if (!change || changedItself) return undefined;
  const before = lines.filter((line) => line.at < change.at);
  const workedBefore = before.length >= MIN_LINES_BEFORE && change.at - Math.min(...before.map((line) => line.at)) >= QUIET_BEFORE_MS;
  return workedBefore ? { caller, dependency: root, change } : undefined;
};

/** The mechanism in plain words, for the summary. */
export const releaseAddedDependencyWords = (added: ReleaseAddedDependency): string =>
  `${added.caller}'s release began calling ${added.dependency}, which it did not call before, in its request path: each request now waits for ${added.dependency}'s answer, and requests to ${added.caller} that wait longer than their callers allow run into a timeout.`;
