import { describe, expect, it } from 'vitest';
import { inferCause } from '../../lib/analyst/infer-cause.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-06-18T12:00:00.000Z';

type Metric = { service: string; name: string; periodSeconds?: number; points: [string, number][] };

/** A worker's own backlog metric that peaked after a bulk submission and has fallen steadily since. */
const draining = (metric: string, alongside: Metric[] = []) =>
  inferCause(
    boardFrom({
      brief: 'CloudWatch alarm render-backlog-high is in ALARM',
      services: [{ name: 'render-worker', kind: 'eks' }],
      alarms: [{ name: 'render-backlog-high', service: 'render-worker', state: 'ALARM', since: at(START, 65) }],
      metrics: [
        { service: 'render-worker', name: metric, periodSeconds: 60, points: series(START, 240, (minute) => (minute < 60 ? 0 : Math.max(0, 94000 - (minute - 60) * 400))) },
        ...alongside,
      ],
    }),
  ).verdict;

/** The worker's CPU, from 45% to `busy`% as it scales out to work the backlog off. */
const cpu = (busy: number): Metric => ({ service: 'render-worker', name: 'pod_cpu_utilization', periodSeconds: 60, points: series(START, 240, (minute) => (minute < 60 ? 45 : busy)) });

const sweep = (metric: Metric) => inferCause(boardFrom({ services: [{ name: 'render-cache', kind: 'other' }, { name: 'render-worker', kind: 'eks', dependsOn: ['render-cache'] }], metrics: [metric] })).verdict;

describe('a backlog named for the jobs waiting in it', () => {
  it('that has been falling steadily since its peak is being worked off', () => {
    expect(draining('WaitingJobs')).toBe('healthy');
    expect(draining('QueuedJobs')).toBe('healthy');
  });

  it('stays worked off while the worker runs busier but short of its limit; a worker pinned at its limit is trouble of its own', () => {
    expect(draining('WaitingJobs', [cpu(78)])).toBe('healthy');
    expect(draining('WaitingJobs', [cpu(97)])).toBe('incident');
  });
});

describe('the age of waiting work', () => {
  const rising = (name: string, from: number, to: number): Metric => ({ service: 'render-cache', name, periodSeconds: 60, points: series(START, 120, (minute) => (minute < 60 ? from : to)) });

  it('is a word of its own: the "age" in usage or percentage is not it', () => {
    expect(sweep(rising('DatabaseMemoryUsagePercentage', 4, 16))).toBe('healthy');
    expect(sweep(rising('ApproximateAgeOfOldestMessage', 60, 900))).toBe('incident');
    expect(sweep(rising('message_age_seconds', 60, 900))).toBe('incident');
  });
});

describe('a consumer working off a draining backlog', () => {
  const queue = (consumerMetric: Metric) =>
    inferCause(
      boardFrom({
        brief: 'CloudWatch alarm sync-backlog is in ALARM',
        services: [{ name: 'sync-queue', kind: 'sqs' }, { name: 'sync-fn', kind: 'lambda', dependsOn: ['sync-queue'] }],
        alarms: [{ name: 'sync-backlog', service: 'sync-queue', state: 'ALARM', since: at(START, 62) }],
        metrics: [
          { service: 'sync-queue', name: 'ApproximateNumberOfMessagesVisible', periodSeconds: 60, points: series(START, 120, (minute) => (minute < 60 ? 0 : Math.max(0, 40000 - (minute - 60) * 500))) },
          consumerMetric,
        ],
      }),
    ).verdict;
  const fromMinute60 = (name: string, before: number, after: number): Metric => ({ service: 'sync-fn', name, periodSeconds: 60, points: series(START, 120, (minute) => (minute < 60 ? before : after)) });

  it('runs at its full concurrency as the backlog drains: that is the draining, not a fault', () => {
    expect(queue(fromMinute60('ConcurrentExecutions', 1, 10))).toBe('healthy');
  });

  it('failing while it works the backlog off is a fault all the same', () => {
    expect(queue(fromMinute60('Errors', 0, 40))).toBe('incident');
  });
});
