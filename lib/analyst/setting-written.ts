import type { Change } from './evidence-board.ts';
import { changeText } from './change-text.ts';

/**
 * The value a change wrote for one setting, read from its summary and its request or plan, and the
 * value it replaced when it says (`visibility_timeout_seconds "180 -> 30"`, `maxReceiveCount 5 -> 1`).
 */
export interface SettingWritten {
  change: Change;
  value: number;
  replaced?: number;
}

/**
 * The latest of `changes` that writes the setting `pattern` reads: its first group the value replaced
 * (optional), its second the value written.
 */
export const latestSettingWritten = (changes: readonly Change[], pattern: RegExp): SettingWritten | undefined =>
  changes
    .flatMap((change) => {
      const found = pattern.exec(changeText(change));
      return found ? [{ change, value: Number(found[2]), ...(found[1] ? { replaced: Number(found[1]) } : {}) }] : [];
    })
    .sort((a, b) => b.change.at - a.change.at)[0];
