/**
 * Which recent changes could have started the trouble? A change can only cause what comes after it, and
 * the closer it lands before the onset, the likelier it is the cause.
 */
import { compareText } from './ordering.ts';

export interface ChangeEvent {
  /** Epoch ms. */
  t: number;
  service: string;
  kind: string;
  summary: string;
}

export interface CorrelatedChange extends ChangeEvent {
  /** onset - t: positive for a change before the onset. */
  leadMs: number;
  /** 0..1, 1 at the onset, falling linearly to 0 at the edge of the window. */
  score: number;
}

export interface ChangeCorrelationOptions {
  /** How far before the onset a change may lie, default 2 hours. */
  windowMs?: number;
  /**
   * How far after the onset a change may lie: an onset is only known to within a sampling period and
   * clocks disagree a little, so a change stamped just after it may still be its cause. Default 1 minute.
   */
  toleranceMs?: number;
}

const DEFAULT_WINDOW_MS = 2 * 60 * 60_000;
const DEFAULT_TOLERANCE_MS = 60_000;

/** Changes from `windowMs` before `onset` (epoch ms) to `toleranceMs` after it, most suspicious first. */
export function correlateChanges<Event extends ChangeEvent>(
  changes: readonly Event[],
  onset: number,
  options: ChangeCorrelationOptions = {},
): (Event & CorrelatedChange)[] {
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const toleranceMs = options.toleranceMs ?? DEFAULT_TOLERANCE_MS;
  return changes
    .map((change) => ({ ...change, leadMs: onset - change.t }))
    .filter(({ leadMs }) => leadMs <= windowMs && leadMs >= -toleranceMs)
    .map((change) => ({ ...change, score: windowMs > 0 ? Math.max(0, 1 - Math.abs(change.leadMs) / windowMs) : 1 }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        // At the same distance, the change before the onset is the likelier cause.
        Number(b.leadMs >= 0) - Number(a.leadMs >= 0) ||
        compareText(a.service, b.service) ||
        compareText(a.summary, b.summary),
    );
}
