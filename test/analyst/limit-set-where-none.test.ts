import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-09-03T02:00:00.000Z';
const lines = linesFrom(START);

/** A writer throttled by its on-demand table a minute after an infrastructure change set something at the table. */
const incident = (summary: string) =>
  boardFrom({
    brief: 'CloudWatch alarm "ledger-writer-errors" is in ALARM',
    services: [
      { name: 'ledger-writer', kind: 'ecs', dependsOn: ['ledger-table'] },
      { name: 'ledger-table', kind: 'dynamodb' },
      { name: 'ledger-api', kind: 'ecs', dependsOn: ['ledger-table'] },
    ],
    alarms: [{ name: 'ledger-writer-errors', service: 'ledger-writer', state: 'ALARM', since: at(START, 70) }],
    changes: [{ service: 'ledger-table', timestamp: at(START, 58), kind: 'infrastructure', summary }],
    metrics: [{ service: 'ledger-table', name: 'WriteThrottleEvents', namespace: 'AWS/DynamoDB', stat: 'Sum', points: series(START, 120, (minute) => (minute >= 60 ? 900 : 0)) }],
    logs: sorted([
      ...lines('ledger-writer', 0, 4, 25, 'INFO', (index) => `wrote entry batch ${index}`),
      ...lines('ledger-writer', 60, 3, 20, 'ERROR', (index) => `PutItem on ledger-table failed after 10 attempts (batch ${index}): ProvisionedThroughputExceededException: throughput exceeds the maximum allowed`),
    ]),
  });

describe('a maximum set where there was none', () => {
  it('is a capacity cut at the resource, reverted after the capacity is given back', () => {
    const diagnosis = diagnose(incident('UpdateTable ledger-table: on-demand maximum MaxWriteRequestUnits=500 (was unset)'));
    expect(diagnosis.root).toBe('ledger-table');
    expect(diagnosis.principles).toContain('capacity-cut');
    expect(diagnosis.draft.rootCause.summary).toMatch(/write capacity to 500 \(it had no limit before\)/);
    expect(diagnosis.draft.remediation.map((step) => step.action)).toContain('revert-config');
  });

  it('a maximum raised, or one set without saying there was none, is no cut', () => {
    expect(diagnose(incident('UpdateTable ledger-table: on-demand maximum MaxWriteRequestUnits 500 -> 5000')).principles).not.toContain('capacity-cut');
    expect(diagnose(incident('UpdateTable ledger-table: on-demand maximum MaxWriteRequestUnits=500')).principles).not.toContain('capacity-cut');
  });
});
