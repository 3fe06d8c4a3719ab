import type { Change } from './evidence-board.ts';

/** All a change says: its summary and the details it was recorded with (a CloudTrail request, a diff). */
export const changeText = (change: Change): string => `${change.summary} ${JSON.stringify(change.details ?? {})}`;
