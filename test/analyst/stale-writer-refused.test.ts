import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, sorted } from './board-builder.ts';

const START = '2026-05-11T08:00:00.000Z';
const lines = linesFrom(START);

/**
 * People say a status page shows old statuses; it reads data a writer keeps fresh, and the writer released hours before. From minute 60
 * either its store refuses its writes, or its own code fails on them.
 */
const incident = (refused: boolean) =>
  boardFrom({
    brief: 'A teammate asks: "Customers say parcel statuses are out of date on the status page for the last hour. Is something wrong?"\nThey are asking about the service status-page.',
    services: [
      { name: 'status-page', kind: 'ecs', dependsOn: ['status-store'] },
      { name: 'status-writer', kind: 'ecs', dependsOn: ['status-store'] },
      { name: 'status-store', kind: 'dynamodb' },
      { name: 'billing', kind: 'ecs' },
    ],
    changes: [{ service: 'status-writer', timestamp: at(START, -200), kind: 'deploy', summary: 'status-writer 2.4.0 rolled out' }],
    logs: sorted([
      ...lines('status-page', 0, 4, 25, 'INFO', (index) => `GET /status/${index} 200`),
      ...lines('status-writer', 0, 4, 15, 'INFO', (index) => `applied scan batch ${index}`),
      ...lines('status-writer', 60, 3, 15, 'ERROR', (index) =>
        refused ? `PutItem on status-store failed (batch ${index}): ProvisionedThroughputExceededException: rate of requests exceeds the allowed throughput` : `scan batch ${index} failed: NullPointerException at ScanMapper.apply`,
      ),
    ]),
  });

describe('data gone stale because its writer is refused', () => {
  it('is not where the writer stopped refreshing: the store that refuses it is', () => {
    const diagnosis = diagnose(incident(true));
    expect(diagnosis.root).toBe('status-store');
    expect(diagnosis.principles).not.toContain('stale-data-writer');
  });

  it('a writer failing on its own is where the refreshing stopped', () => {
    expect(diagnose(incident(false)).principles).toContain('stale-data-writer');
  });
});
