import type { Change, EvidenceBoard } from './evidence-board.ts';

/** A change that lowered a number ("rate 1000 -> 100", "MaxCapacity 40 to 4"): a tightened limit or a cut capacity. */
export const loweredBy = (summary: string): { from: string; to: string } | undefined => {
  for (const match of summary.matchAll(/(\d+(?:[,.]\d+)*)\s*(?:->|→|=>|\bto\b)\s*(\d+(?:[,.]\d+)*)/g)) {
    const from = Number(match[1]!.replace(/,/g, ''));
    const to = Number(match[2]!.replace(/,/g, ''));
    if (Number.isFinite(from) && Number.isFinite(to) && to < from) return { from: match[1]!, to: match[2]! };
  }
  return undefined;
};

/** How long before the trouble a capacity cut is still its cause. */
const CAPACITY_CUT_WINDOW_MS = 2 * 60 * 60_000;

/** Words that say a change set a capacity: a count of tasks or instances, a provisioned or reserved amount, a concurrency. */
const capacityWords = /capacity|desired.?count|instances?|tasks?|concurren|provisioned|replicas?|nodes?|WCU|RCU/i;

/**
 * A change that lowered a capacity setting at `root` shortly before its trouble (a scheduled
 * scale-in, a lowered maximum, a reserved concurrency cut): the service ran short because the
 * setting changed, not because the load did. Scaling that raised capacity is the platform reacting.
 */
export const capacityCutAt = (board: EvidenceBoard, root: string, onset: number): Change | undefined =>
  board.changes.find(
    (change) =>
      change.service === root &&
      (change.kind === 'scaling' || change.kind === 'config') &&
      change.at <= onset &&
      onset - change.at <= CAPACITY_CUT_WINDOW_MS &&
      capacityWords.test(change.summary) &&
      loweredBy(change.summary) !== undefined,
  );

