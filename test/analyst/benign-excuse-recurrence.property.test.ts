import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { recordResult } from '../../lib/analyst/evidence-board.ts';
import { at, boardFrom } from './board-builder.ts';

/**
 * "It rose like this at the same time on earlier days" excuses an alarm only when the earlier days
 * show a rise that came back down to where it started, and today's rise is no higher than theirs.
 * A level that grows day over day (a volume filling, free space or memory shrinking, a backlog that
 * never empties) also "rose at about the same time" on earlier days, but it never came back.
 */

const NOW = '2026-06-12T03:00:00.000Z';
const DAY_MINUTES = 24 * 60;
const STEP_MINUTES = 5;

/** Health measures an alarm may watch, with which way is bad and a scale that keeps them plausible. */
const healthMeasures = [
  { name: 'DiskUsedPercent', alarm: 'store-disk-used-high', bad: 'up', base: 20, span: 60 },
  { name: 'VolumeBytesUsed', alarm: 'store-volume-used-high', bad: 'up', base: 4e11, span: 4e11 },
  { name: 'FreeStorageSpace', alarm: 'store-free-storage-low', bad: 'down', base: 1e11, span: 8e10 },
  { name: 'MemoryUtilization', alarm: 'store-memory-high', bad: 'up', base: 25, span: 60 },
  { name: 'FreeableMemory', alarm: 'store-freeable-memory-low', bad: 'down', base: 8e9, span: 6e9 },
  { name: 'DatabaseConnections', alarm: 'store-connections-high', bad: 'up', base: 40, span: 900 },
  { name: 'ApproximateNumberOfMessagesVisible', alarm: 'store-backlog-high', bad: 'up', base: 10, span: 50000 },
  { name: 'CPUUtilization', alarm: 'store-cpu-high', bad: 'up', base: 15, span: 70 },
  { name: 'TargetResponseTime', alarm: 'store-latency-high', bad: 'up', base: 0.05, span: 2 },
  { name: 'WriteThrottleEvents', alarm: 'store-write-throttles', bad: 'up', base: 0, span: 3000 },
] as const;
type Measure = (typeof healthMeasures)[number];

/** The value of `measure` at `badness` (0 = its usual level, 1 = its full span the bad way). */
const valueOf = (measure: Measure, badness: number): number => Math.max(0, measure.base + (measure.bad === 'up' ? 1 : -1) * badness * measure.span);

interface Shape {
  /** Minutes of evidence before now, today and on each earlier day. */
  windowMinutes: number;
  /** How many minutes before now the alarm fired. */
  alarmAgo: number;
  earlierDays: number;
  /** How the history arrives: the same window on earlier days (compareDaysBefore), or one long series. */
  history: 'earlierDays' | 'longSeries';
}

const shape = fc.record({
  windowMinutes: fc.integer({ min: 90, max: 240 }),
  alarmAgo: fc.integer({ min: 5, max: 40 }),
  earlierDays: fc.integer({ min: 1, max: 7 }),
  history: fc.constantFrom('earlierDays' as const, 'longSeries' as const),
});

const stats = (points: [string, number][]) => ({ min: Math.min(...points.map(([, value]) => value)), max: Math.max(...points.map(([, value]) => value)), count: points.length });

/** Points every STEP_MINUTES over `[from, to]` minutes relative to now, from `badnessAt(minute)`. */
const pointsOver = (measure: Measure, from: number, to: number, badnessAt: (minute: number) => number): [string, number][] => {
  const points: [string, number][] = [];
  for (let minute = from; minute <= to; minute += STEP_MINUTES) points.push([at(NOW, minute), valueOf(measure, badnessAt(minute))]);
  return points;
};

/** An alarm on `measure` in ALARM at now, no error lines anywhere, and the measure's record as `badnessAt` describes it. */
const boardOf = (measure: Measure, { windowMinutes, alarmAgo, earlierDays, history }: Shape, badnessAt: (minute: number) => number) => {
  const since = at(NOW, -alarmAgo);
  const board = boardFrom({
    brief: `CloudWatch alarm "${measure.alarm}" changed to ALARM from OK at ${since}.`,
    services: [{ name: 'app', kind: 'ecs', dependsOn: ['store'] }, { name: 'store', kind: 'rds' }],
    alarms: [{ name: measure.alarm, service: 'store', state: 'ALARM', since, reason: 'Threshold Crossed' }],
    logs: Array.from({ length: 12 }, (_, index) => ({ service: 'app', timestamp: at(NOW, -windowMinutes + index * 10), level: 'INFO', message: `handled request ${index}` })),
  });
  const today = pointsOver(measure, -windowMinutes, 0, badnessAt);
  const series =
    history === 'earlierDays'
      ? {
          points: today,
          earlierDays: Array.from({ length: earlierDays }, (_, index) => {
            const daysBefore = index + 1;
            const points = pointsOver(measure, -windowMinutes - daysBefore * DAY_MINUTES, -daysBefore * DAY_MINUTES, badnessAt);
            return { daysBefore, stats: stats(points), points };
          }),
        }
      : { points: [...pointsOver(measure, -windowMinutes - earlierDays * DAY_MINUTES, -windowMinutes - STEP_MINUTES, badnessAt).filter((_, index) => index % 6 === 0), ...today] };
  recordResult(board, 'get_metrics', 'E5', { available: true, series: [{ service: 'store', name: measure.name, ...series }] });
  return board;
};

/** Minutes since the latest daily rise at or before `minute`, the rise coming `riseAgo` minutes before now each day. */
const sinceDailyRise = (minute: number, riseAgo: number): number => (((minute + riseAgo) % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
/** How many daily rises, the first `oldest` days before today's, came at or before `minute`. */
const risesUpTo = (minute: number, riseAgo: number, oldest: number): number => Math.min(oldest + 1, Math.max(0, Math.floor((minute + riseAgo) / DAY_MINUTES) + oldest + 1));

const measure = fc.constantFrom(...healthMeasures);
/** Small measurement noise, the same for a given minute whatever the day. */
const noise = (minute: number, size: number): number => size * Math.sin(minute * 12.9898) * 0.5;

describe('a recurring rise needs earlier days that rose and came back, no higher than today', () => {
  it('a level that grows day over day (a steady trend through the window) is never excused as recurring', () => {
    fc.assert(
      fc.property(measure, shape, fc.double({ min: 0.04, max: 0.1, noNaN: true }), (chosen, evidence, perDay) => {
        const oldest = evidence.earlierDays + 1;
        const badnessAt = (minute: number) => 0.1 + perDay * (minute / DAY_MINUTES + oldest);
        const diagnosis = diagnose(boardOf(chosen, evidence, badnessAt));
        expect(diagnosis.draft.incident, diagnosis.draft.rootCause.summary).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('a level that steps up at the same time every day and never comes back down is never excused as recurring', () => {
    fc.assert(
      fc.property(measure, shape, fc.double({ min: 0.06, max: 0.12, noNaN: true }), (chosen, evidence, stepSize) => {
        const riseAgo = evidence.alarmAgo + 10;
        const oldest = evidence.earlierDays + 1;
        const badnessAt = (minute: number) => {
          const ramp = Math.min(1, sinceDailyRise(minute, riseAgo) / 10);
          return 0.05 + stepSize * (risesUpTo(minute, riseAgo, oldest) - 1 + ramp) + noise(minute, stepSize * 0.05);
        };
        const diagnosis = diagnose(boardOf(chosen, evidence, badnessAt));
        expect(diagnosis.draft.incident, diagnosis.draft.rootCause.summary).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('earlier days that rose at the same time but not as high as today are no recurrence of it', () => {
    fc.assert(
      fc.property(measure, shape, fc.double({ min: 0.5, max: 0.9, noNaN: true }), fc.double({ min: 0.2, max: 0.8, noNaN: true }), (chosen, evidence, todayRise, earlierShare) => {
        const riseAgo = evidence.alarmAgo + 10;
        const badnessAt = (minute: number) => {
          const height = minute > -DAY_MINUTES / 2 ? todayRise : todayRise * earlierShare;
          return 0.05 + (sinceDailyRise(minute, riseAgo) < 120 ? height : 0) + noise(minute, 0.01);
        };
        const diagnosis = diagnose(boardOf(chosen, evidence, badnessAt));
        expect(diagnosis.draft.incident, diagnosis.draft.rootCause.summary).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('another measure at the service that recurs genuinely does not excuse an alarm on a measure that grows day over day', () => {
    const cpu = healthMeasures.find((candidate) => candidate.name === 'CPUUtilization')!;
    fc.assert(
      fc.property(
        fc.constantFrom(...healthMeasures.filter((candidate) => candidate.bad === 'down' || /Disk|Volume|Memory|Connections|Messages/.test(candidate.name))),
        shape.filter((evidence) => evidence.history === 'earlierDays'),
        fc.double({ min: 0.06, max: 0.12, noNaN: true }),
        (chosen, evidence, stepSize) => {
          const riseAgo = evidence.alarmAgo + 10;
          const oldest = evidence.earlierDays + 1;
          const growing = (minute: number) => 0.05 + stepSize * (risesUpTo(minute, riseAgo, oldest) - 1 + Math.min(1, sinceDailyRise(minute, riseAgo) / 10));
          const recurring = (minute: number) => 0.05 + (sinceDailyRise(minute, riseAgo) < 90 ? 0.6 : 0) + noise(minute, 0.01);
          const board = boardOf(chosen, { ...evidence, windowMinutes: Math.max(evidence.windowMinutes, riseAgo + 60) }, growing);
          const other = boardOf(cpu, { ...evidence, windowMinutes: Math.max(evidence.windowMinutes, riseAgo + 60) }, recurring);
          recordResult(board, 'get_metrics', 'E6', { available: true, series: other.series.map(({ ref: _ref, ...item }) => item) });
          const diagnosis = diagnose(board);
          expect(diagnosis.draft.incident, diagnosis.draft.rootCause.summary).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('a rise that came at the same time on at least two earlier days, as high, and went back down each time, with no errors, is no incident', () => {
    fc.assert(
      fc.property(
        measure,
        shape.filter((evidence) => evidence.earlierDays >= 2),
        fc.double({ min: 0.4, max: 0.9, noNaN: true }),
        fc.integer({ min: 60, max: 150 }),
        (chosen, evidence, height, lasts) => {
          const riseAgo = evidence.alarmAgo + 10;
          const badnessAt = (minute: number) => {
            return 0.05 + (sinceDailyRise(minute, riseAgo) < lasts ? height : 0) + noise(minute, 0.01);
          };
          const diagnosis = diagnose(boardOf(chosen, { ...evidence, windowMinutes: Math.max(evidence.windowMinutes, riseAgo + 60) }, badnessAt));
          expect(diagnosis.draft.incident, diagnosis.draft.rootCause.summary).toBe(false);
          expect(diagnosis.draft.rootCause.summary).toMatch(/recurs on a schedule/);
        },
      ),
      { numRuns: 150 },
    );
  });
});
