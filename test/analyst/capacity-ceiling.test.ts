import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-06-12T14:00:00.000Z';
const lines = linesFrom(START);

/**
 * An on-sale at minute 40 brings a surge to the order API; the Aurora Serverless v2 writer's
 * capacity climbs and stays at `peakAcu` while the API's holds time out. A week before, a cost
 * change cut the cluster's range from 2-64 to 1-16 ACU.
 */
const onSale = (peakAcu: number) =>
  boardFrom({
    brief: 'CloudWatch alarm "order-api-latency-p99" is in ALARM',
    services: [
      { name: 'order-api', kind: 'ecs', dependsOn: ['ticketing-db'] },
      { name: 'ticketing-db', kind: 'rds' },
    ],
    alarms: [{ name: 'order-api-latency-p99', service: 'order-api', state: 'ALARM', since: at(START, 62) }],
    changes: [
      {
        service: 'ticketing-db',
        timestamp: at(START, -7 * 24 * 60 - 300),
        kind: 'config',
        summary: 'ModifyDBCluster tix-prod-aurora: ServerlessV2ScalingConfiguration MinCapacity 2 -> 1, MaxCapacity 64 -> 16',
      },
      { service: 'order-api', timestamp: at(START, 40), kind: 'scaling', summary: 'Scheduled action onsale-prewarm: desired count 12 -> 30' },
    ],
    metrics: [
      { service: 'order-api', name: 'RequestCount', points: series(START, 90, (minute) => (minute < 55 ? 3_000 : 21_000)) },
      { service: 'order-api', name: 'TargetResponseTime', points: series(START, 90, (minute) => (minute < 58 ? 0.3 : 8)) },
      { service: 'ticketing-db', name: 'ServerlessDatabaseCapacity', points: series(START, 90, (minute) => (minute < 45 ? 8 : Math.min(peakAcu, 8 + (minute - 45)))) },
      { service: 'ticketing-db', name: 'CPUUtilization', points: series(START, 90, (minute) => (minute < 50 ? 30 : 99)) },
    ],
    logs: sorted([
      ...lines('order-api', 0, 4, 14, 'INFO', (index) => `POST /v1/holds 201 seats=${index % 4}`),
      ...lines('order-api', 58, 2, 14, 'ERROR', () => 'POST /v1/holds 503 code=DB_STATEMENT_TIMEOUT: canceling statement due to statement timeout'),
    ]),
  });

describe('a capacity ceiling lowered days before the load that reached it', () => {
  it('is the cause, not the load, when the capacity stood at the new ceiling', () => {
    const diagnosis = diagnose(onSale(16));
    expect(diagnosis.root).toBe('ticketing-db');
    expect(diagnosis.principles).toContain('capacity-cut');
    expect(diagnosis.suspectChange?.summary).toContain('MaxCapacity 64 -> 16');
    expect(diagnosis.category).toBe('config');
  });

  it('is not the cause when the capacity never reached it', () => {
    const diagnosis = diagnose(onSale(14));
    expect(diagnosis.suspectChange?.summary ?? '').not.toContain('MaxCapacity 64 -> 16');
  });
});
