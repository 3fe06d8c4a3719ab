import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-04-23T16:00:00.000Z';
const lines = linesFrom(START);

/**
 * A reservation API writes 15-minute holds to a table with a TTL and confirms them later; a release
 * at minute 58 changed how it writes timestamps, and from minute 66 confirmations fail with "hold not
 * found". `deletedAfter` is how many items the table's TTL deletes per minute from minute `jumpAt`
 * (45 before).
 */
const holdsVanish = (deletedAfter: number, jumpAt = 60) =>
  boardFrom({
    brief: 'CloudWatch alarm "reservation-confirm-failures" is in ALARM',
    services: [
      { name: 'reservation-api', kind: 'ecs', dependsOn: ['reservation-holds'] },
      { name: 'reservation-holds', kind: 'dynamodb' },
    ],
    alarms: [{ name: 'reservation-confirm-failures', service: 'reservation-api', state: 'ALARM', since: at(START, 70) }],
    changes: [{ service: 'reservation-api', timestamp: at(START, 58), kind: 'deploy', summary: 'reservation-api v4.12.0 rolled out', details: { changelog: ['Hold timestamps use the shared time helpers'] } }],
    metrics: [
      { service: 'reservation-holds', name: 'TimeToLiveDeletedItemCount', points: series(START, 100, (minute) => (minute < jumpAt ? 45 : deletedAfter)) },
      { service: 'reservation-api', name: 'ConfirmFailures', points: series(START, 100, (minute) => (minute < 66 ? 0 : 20)) },
    ],
    logs: sorted([
      ...lines('reservation-api', 0, 4, 25, 'INFO', (index) => `POST /v2/holds 201 holdId=hold_${index}`),
      ...lines('reservation-api', 66, 2, 15, 'ERROR', (index) => `POST /v2/reservations 404 HOLD_NOT_FOUND holdId=hold_9${index} (ConditionalCheckFailedException)`),
    ]),
  });

describe("a table's TTL deleting items early", () => {
  it('is named when its deletions jumped after the writer changed', () => {
    const diagnosis = diagnose(holdsVanish(220));
    expect(diagnosis.root).toBe('reservation-api');
    expect(diagnosis.principles).toContain('items-expire-early');
    expect(diagnosis.draft.rootCause.summary).toContain('Items expire early: TimeToLiveDeletedItemCount at reservation-holds went up from 45 to 220');
  });

  it('is not named when the deletions jumped before the writer changed', () => {
    const diagnosis = diagnose(holdsVanish(220, 20));
    expect(diagnosis.principles).not.toContain('items-expire-early');
  });

  it('is not named when the deletions held their pace', () => {
    const diagnosis = diagnose(holdsVanish(60));
    expect(diagnosis.principles).not.toContain('items-expire-early');
  });
});
