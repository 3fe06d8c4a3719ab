import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-05-14T17:00:00.000Z';
const lines = linesFrom(START);

/**
 * An on-demand table throttled from minute 60 while its consumed capacity rises by a third. Its
 * Contributor Insights count, per partition key, the requests it throttled: `throttledKeys`. A
 * worker shipped a release at minute 58 whose notes name its new key; the API turned a promotion on
 * at minute 30 and its requests rose by a quarter.
 */
const throttledOnKeys = (throttledKeys: Record<string, number>) =>
  boardFrom({
    brief: 'CloudWatch alarm "progress-write-throttles" is in ALARM',
    services: [
      { name: 'game-api', kind: 'ecs', dependsOn: ['progress-table'] },
      { name: 'results-worker', kind: 'ecs', dependsOn: ['progress-table'] },
      { name: 'progress-table', kind: 'dynamodb' },
    ],
    alarms: [{ name: 'progress-write-throttles', service: 'progress-table', state: 'ALARM', since: at(START, 64) }],
    changes: [
      { service: 'game-api', timestamp: at(START, 30), kind: 'feature-flag', summary: 'spring-festival turned ON for all players (1.5x XP)' },
      { service: 'results-worker', timestamp: at(START, 58), kind: 'deploy', summary: 'results-worker v4.12.0 rolled out', details: { changelog: ['Daily challenges: record progress under pk=CHALLENGE#<date>, sk=PLAYER#<id>'] } },
    ],
    metrics: [
      { service: 'progress-table', name: 'WriteThrottleEvents', dimensions: { TableName: 'progress' }, points: series(START, 100, (minute) => (minute < 60 ? 0 : 90_000)) },
      { service: 'progress-table', name: 'ConsumedWriteCapacityUnits', dimensions: { TableName: 'progress' }, points: series(START, 100, (minute) => (minute < 60 ? 200_000 : 300_000)) },
      ...Object.entries(throttledKeys).map(([key, level]) => ({
        service: 'progress-table',
        name: 'ContributorValue',
        dimensions: { RuleName: 'DynamoDBContributorInsights-PKT-progress', Contributor: key },
        points: series(START, 100, (minute) => (minute < 60 ? 0 : level)),
      })),
      { service: 'game-api', name: 'RequestCount', points: series(START, 100, (minute) => (minute < 30 ? 200_000 : 250_000)) },
    ],
    logs: sorted([
      ...lines('results-worker', 61, 2, 15, 'WARN', (index) => `UpdateItem throttled table=progress pk=CHALLENGE#2026-05-14 sk=PLAYER#p_${index} attempt=2/3: ProvisionedThroughputExceededException`),
      ...lines('game-api', 0, 5, 20, 'INFO', (index) => `GET /v1/challenges/today 200 player=p_${index}`),
    ]),
  });

describe("a table's top contributors naming one throttled key", () => {
  it('name the client that writes that kind of key as the load, and the summary says it is one hot partition key', () => {
    const diagnosis = diagnose(throttledOnKeys({ 'CHALLENGE#2026-05-14': 100_000, 'PLAYER#p_3308812': 7 }));
    expect(diagnosis.root).toBe('results-worker');
    expect(diagnosis.principles).toContain('resource-names-its-client');
    expect(diagnosis.draft.rootCause.summary).toContain('under one hot partition key, CHALLENGE#2026-05-14');
  });

  it('name no one when keys of two kinds are throttled alike: no key is hot alone', () => {
    const diagnosis = diagnose(throttledOnKeys({ 'CHALLENGE#2026-05-14': 100_000, 'PLAYER#p_3308812': 60_000 }));
    expect(diagnosis.draft.rootCause.summary).not.toContain('hot partition key');
  });
});
