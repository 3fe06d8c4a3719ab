import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { recordResult } from '../../lib/analyst/evidence-board.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-05-19T06:00:00.000Z';
const HOUR = 60;
/** Free space steady at 44 GB until minute `fillFrom`, then falling 70 MB a minute; ten hours read. */
const freeSpace = (fillFrom: number) => series(START, 10 * HOUR, (minute) => 44e9 - Math.max(0, minute - fillFrom) * 70e6 + (minute % 3) * 1e6);

/**
 * A database whose free space the first reading shows falling from the window's start (the last four
 * hours), read again over ten hours (its history); a parameter change at minute 125 (08:05).
 */
const fillingDatabase = (fillFrom: number) => {
  const points = freeSpace(fillFrom);
  const board = boardFrom({
    brief: 'CloudWatch alarm "booking-db-free-storage-low" is in ALARM',
    services: [{ name: 'booking-api', kind: 'ecs', dependsOn: ['booking-db'] }, { name: 'booking-db', kind: 'rds' }],
    alarms: [{ name: 'booking-db-free-storage-low', service: 'booking-db', state: 'ALARM', since: at(START, 9 * HOUR) }],
    changes: [{ service: 'booking-db', timestamp: at(START, 125), kind: 'config', summary: 'DB parameter group modified: general_log 0 -> 1' }],
    logs: Array.from({ length: 8 }, (_, index) => ({ service: 'booking-db', timestamp: at(START, 9 * HOUR + 20 + index * 4), level: 'ERROR', message: "The table 'lesson_holds' is full" })),
    metrics: [{ service: 'booking-db', name: 'FreeStorageSpace', periodSeconds: 60, points: points.slice(6 * HOUR) }],
  });
  recordResult(board, 'get_metrics', 'E6', { available: true, series: [{ service: 'booking-db', name: 'FreeStorageSpace', periodSeconds: 60, points }] });
  return diagnose(board).draft;
};

describe('a fill the window caught partway, read again from further back', () => {
  it('dates from where its history shows it began: the change there started it, and the room comes back before the change is reverted', () => {
    const draft = fillingDatabase(125);
    expect(draft.rootCause).toMatchObject({ service: 'booking-db', category: 'config' });
    expect(draft.rootCause.summary).toContain('general_log 0 -> 1');
    expect(draft.remediation.map((step) => step.action)).toEqual(['scale', 'revert-config']);
  });
  it('is not tied to a change made long before the fill began', () => {
    const draft = fillingDatabase(5 * HOUR);
    expect(draft.rootCause.category).not.toBe('config');
  });
  it('dates a climb the window shows only as its last stretch and a full disk from where it began', () => {
    const used = series(START, 10 * HOUR, (minute) => Math.min(100, 50 + Math.max(0, minute - 125) * 0.12 + (minute % 3) * 0.01));
    const board = boardFrom({
      brief: 'CloudWatch alarm "renderer-5xx" is in ALARM',
      services: [{ name: 'renderer', kind: 'ec2' }],
      alarms: [{ name: 'renderer-5xx', service: 'renderer', state: 'ALARM', since: at(START, 9 * HOUR) }],
      changes: [{ service: 'renderer', timestamp: at(START, 124), kind: 'config', summary: 'SSM parameter LOG_LEVEL changed info -> debug' }],
      logs: Array.from({ length: 8 }, (_, index) => ({ service: 'renderer', timestamp: at(START, 9 * HOUR + 20 + index * 4), level: 'ERROR', message: 'ENOSPC: no space left on device' })),
      metrics: [{ service: 'renderer', name: 'disk_used_percent', periodSeconds: 60, points: used.slice(6 * HOUR) }],
    });
    recordResult(board, 'get_metrics', 'E6', { available: true, series: [{ service: 'renderer', name: 'disk_used_percent', periodSeconds: 60, points: used }] });
    expect(diagnose(board).draft.rootCause).toMatchObject({ service: 'renderer', category: 'config' });
  });
});
