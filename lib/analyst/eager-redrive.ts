import type { Change, EvidenceBoard } from './evidence-board.ts';
import { kindOf } from './service-map.ts';
import { latestSettingWritten } from './setting-written.ts';
import { SAME_TIME_MS, type Signal } from './signals.ts';
import { deadLetterSuffix } from './work-handler.ts';

/**
 * A queue whose redrive policy moves a message to its dead-letter queue after one or two receives
 * gives its consumer no second try: a message whose first attempt fails for a passing reason (a
 * throttled call, a reset connection, a timeout) is dead-lettered instead of received again. AWS
 * advises a maxReceiveCount of at least 5, so that such failures are retried. A dead-letter queue
 * filling after a change set its queue's count that low is that setting's doing.
 */
export interface EagerRedrive {
  queue: string;
  deadLetters: string;
  maxReceiveCount: number;
  /** What the count was before the change, when the change says. */
  fromCount?: number;
  change: Change;
  /** The dead-letter queue's depth rising. */
  filling: Signal;
}

/** `maxReceiveCount: 1`, `"maxReceiveCount\":1`, `maxReceiveCount 5 -> 1`: the new value last. */
const maxReceiveSetting = /max.?receive.?count\W{0,8}(?:(\d+)\s*(?:->|→|=>|\bto\b)\s*)?(\d+)/i;
/** Fewer receives than this leave a message no retry after a passing failure. */
const FEWEST_RECEIVES = 3;
/** A queue setting made this long before its dead-letter queue filled is still the one in force. */
const SETTING_REACH_MS = 7 * 24 * 60 * 60_000;
const depth = /visible|depth/i;

export const eagerRedriveOf = (board: EvidenceBoard, current: readonly Signal[]): EagerRedrive | undefined => {
  // Its depth rising, or an alarm on it: a dead-letter queue holds nothing in normal running, so any growth is news.
  const filling = current
    .filter((signal) => deadLetterSuffix.test(signal.service) && kindOf(board, signal.service) === 'sqs' && ((signal.kind === 'metric' && depth.test(signal.text)) || signal.kind === 'alarm' || signal.kind === 'errors'))
    .sort((a, b) => Number(b.kind === 'metric') - Number(a.kind === 'metric') || a.at - b.at);
  for (const signal of filling) {
    const queue = signal.service.replace(deadLetterSuffix, '');
    if (queue === signal.service || kindOf(board, queue) !== 'sqs') continue;
    const inForce = board.changes.filter((change) => change.service === queue && change.at <= signal.at + SAME_TIME_MS && signal.at - change.at <= SETTING_REACH_MS);
    const set = latestSettingWritten(inForce, maxReceiveSetting);
    if (set && set.value < FEWEST_RECEIVES) {
      return { queue, deadLetters: signal.service, maxReceiveCount: set.value, ...(set.replaced !== undefined ? { fromCount: set.replaced } : {}), change: set.change, filling: signal };
    }
  }
  return undefined;
};

/** The mechanism, in plain words. */
export const eagerRedriveWords = ({ queue, deadLetters, maxReceiveCount, fromCount, change, filling }: EagerRedrive): string =>
  `${queue}'s redrive policy moves a message to ${deadLetters} after ${maxReceiveCount} receive${maxReceiveCount === 1 ? '' : 's'} (maxReceiveCount ${fromCount !== undefined ? `${fromCount} -> ` : ''}${maxReceiveCount}, set by the ${change.kind} change "${change.summary}"): ` +
  `a message whose first attempt fails for a passing reason (throttled, a reset connection, a timeout) gets no retry and is dead-lettered. ${filling.description}. AWS advises a maxReceiveCount of at least 5.`;
