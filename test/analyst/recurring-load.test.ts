import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, pointsBetween } from './board-builder.ts';

const TODAY = '2026-12-01T00:00:00.000Z';
const DAY = 24 * 60;
/** Write capacity used per minute: a nightly sync from 02:00 to 03:00 writes `nightly`, otherwise 10,000. */
const usedPerMinute = (minuteOfDay: number, nightly: number) => (minuteOfDay >= 120 && minuteOfDay < 180 ? nightly : 10_000);

const points = (from: number, to: number, every: number, value: (minute: number) => number) => pointsBetween(TODAY, from, to, every, value);

interface Night {
  /** Tonight's use per minute during the sync (earlier nights: 80,000). */
  tonight?: number;
  /** The sync's client: what it shows, and from which minute of today. */
  client?: { name: string; from: number };
}

/** Three earlier days read per 15 minutes, today per minute until 02:30, an alarm on the capacity used since 02:06, no throttles. */
const sweep = ({ tonight = 80_000, client = { name: 'Duration', from: 120 } }: Night) =>
  boardFrom({
    brief: 'Scheduled health sweep',
    services: [
      { name: 'gateway-sync', kind: 'lambda', dependsOn: ['soil-readings'] },
      { name: 'soil-readings', kind: 'dynamodb' },
    ],
    alarms: [{ name: 'soil-readings-write-capacity-high', service: 'soil-readings', state: 'ALARM', since: at(TODAY, 126) }],
    metrics: [
      { service: 'soil-readings', name: 'ConsumedWriteCapacityUnits', stat: 'Sum', periodSeconds: 900, points: points(-3 * DAY, 0, 15, (minute) => 15 * usedPerMinute(((minute % DAY) + DAY) % DAY, 80_000)) },
      { service: 'soil-readings', name: 'ConsumedWriteCapacityUnits', stat: 'Sum', periodSeconds: 60, points: points(0, 150, 1, (minute) => usedPerMinute(minute, tonight)) },
      // Named by the alarm's "write" too, but it watches the capacity used: never a throttle.
      { service: 'soil-readings', name: 'WriteThrottleEvents', stat: 'Sum', periodSeconds: 3600, points: points(-3 * DAY, 150, 60, () => 0) },
      { service: 'gateway-sync', name: 'Invocations', stat: 'Sum', periodSeconds: 300, points: points(0, 150, 5, (minute) => (minute >= 120 ? 120 : 2)) },
      { service: 'gateway-sync', name: client.name, stat: 'Average', periodSeconds: 300, points: points(0, 150, 5, (minute) => (minute >= client.from ? 3000 : 300)) },
    ],
  });

describe('a recurring load read at two periods', () => {
  it('compares today per minute with earlier days per 15 minutes over the same period, and what its client shows with it is that load', () => {
    const { draft } = diagnose(sweep({}));
    expect(draft.incident).toBe(false);
    expect(draft.rootCause.summary).toMatch(/recurs on a schedule: ConsumedWriteCapacityUnits at soil-readings rose the same way/);
    expect(draft.rootCause.summary).toMatch(/Duration at gateway-sync .* rose with soil-readings's recurring load/);
  });

  it('is not excused when tonight writes far more than earlier nights, nor is its client when it fails or when its rise came long before the load', () => {
    expect(diagnose(sweep({ tonight: 240_000 })).draft.incident).toBe(true);
    expect(diagnose(sweep({ client: { name: 'Errors', from: 120 } })).draft.incident).toBe(true);
    expect(diagnose(sweep({ client: { name: 'Duration', from: 60 } })).draft.incident).toBe(true);
  });
});

/** p99 latency in one minute of the day: a daily job from 05:30 to 06:00 makes minutes alternate `high` and `low`; otherwise 0.17 s. */
const latencyAt = (minuteOfDay: number, { high, low }: { high: number; low: number }) => (minuteOfDay >= 330 && minuteOfDay < 360 ? (minuteOfDay % 2 === 0 ? high : low) : 0.17);
const EARLIER_NIGHTS = { high: 1.2, low: 0.6 };

/** Three earlier days read per 5 minutes (the mean of their minutes), today per minute from 04:00 to 06:10, a latency alarm since 05:40. */
const dailyJob = (today: { high: number; low: number }) =>
  boardFrom({
    brief: 'PagerDuty incident "slot-api-p99-latency"',
    services: [{ name: 'slot-api', kind: 'ecs' }],
    alarms: [{ name: 'slot-api-p99-latency', service: 'slot-api', state: 'ALARM', since: at(TODAY, 340) }],
    metrics: [
      {
        service: 'slot-api',
        name: 'TargetResponseTime',
        stat: 'p99',
        periodSeconds: 300,
        points: points(-3 * DAY, 240, 5, (minute) => {
          const minutes = [0, 1, 2, 3, 4].map((offset) => latencyAt((((minute + offset) % DAY) + DAY) % DAY, EARLIER_NIGHTS));
          return minutes.reduce((total, value) => total + value, 0) / minutes.length;
        }),
      },
      { service: 'slot-api', name: 'TargetResponseTime', stat: 'p99', periodSeconds: 60, points: points(240, 370, 1, (minute) => latencyAt(minute, today)) },
    ],
  });

describe('a recurring latency read per minute today and per 5 minutes on earlier days', () => {
  it('compares the two at the coarser period: a one-minute p99 peaks above the five-minute p99 of the same load', () => {
    const { draft } = diagnose(dailyJob(EARLIER_NIGHTS));
    expect(draft.incident).toBe(false);
    expect(draft.rootCause.summary).toMatch(/recurs on a schedule: TargetResponseTime at slot-api rose the same way/);
  });

  it('is new when today is slower than earlier days over the same periods', () => {
    expect(diagnose(dailyJob({ high: 1.8, low: 1.6 })).draft.incident).toBe(true);
  });
});

/** Read IOPS over three days per 5 minutes, with a nightly dump from 02:00 to 02:50 on earlier nights when `earlierNights`; today the dump is running at 02:30, and the disk queue is read only today. */
const nightlyDump = ({ earlierNights }: { earlierNights: boolean }) => {
  const dumping = (minuteOfDay: number) => minuteOfDay >= 120 && minuteOfDay < 170;
  return boardFrom({
    brief: 'Scheduled health sweep',
    services: [{ name: 'league-db', kind: 'rds' }],
    metrics: [
      {
        service: 'league-db',
        name: 'ReadIOPS',
        stat: 'Average',
        periodSeconds: 300,
        points: points(-3 * DAY, 150, 5, (minute) => (dumping(((minute % DAY) + DAY) % DAY) && (minute >= 0 || earlierNights) ? 2500 : 230)),
      },
      { service: 'league-db', name: 'DiskQueueDepth', stat: 'Average', periodSeconds: 60, points: points(0, 150, 1, (minute) => (dumping(minute) ? 4 : 0.5)) },
    ],
  });
};

describe('a measure read only today that rises with its service\'s recurring load', () => {
  it('is that load when another measure there, read over earlier days, rose the same way at the same time then', () => {
    const { draft } = diagnose(nightlyDump({ earlierNights: true }));
    expect(draft.incident).toBe(false);
    expect(draft.rootCause.summary).toMatch(/rose with ReadIOPS at league-db, which recurs on a schedule/);
  });

  it('is not when the other measure did not rise on earlier days', () => {
    expect(diagnose(nightlyDump({ earlierNights: false })).draft.incident).toBe(true);
  });
});
